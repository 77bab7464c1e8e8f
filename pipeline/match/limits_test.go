package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// sparse makes a file of size bytes without writing them.
func sparse(t *testing.T, p string, size int64) {
	t.Helper()
	f, err := os.Create(p)
	must(t, err)
	must(t, f.Truncate(size))
	must(t, f.Close())
}

// Issue 7: every input of the match steps has a size cap; an oversized one
// is a plain error (exit 2), not a protocol refusal, and names the file.
func TestMatchInputsOverTheCap(t *testing.T) {
	dir := setup(t)
	mat := filepath.Join(dir, "mat")
	want := func(t *testing.T, err error, path, cap string) {
		t.Helper()
		if err == nil || !readlimit.Refused(err) || !strings.HasPrefix(err.Error(), path+" is ") || !strings.Contains(err.Error(), "nullius reads at most "+cap) {
			t.Fatalf("got %v, want the size-cap error for %s", err, path)
		}
		if ExitCode(err) != ExitRefused || stepCode(err) != 2 {
			t.Fatalf("exit status of %v", err)
		}
	}
	big := filepath.Join(dir, "big.json")
	sparse(t, big, readlimit.MaxSmall+1)
	_, err := LoadCriteriaFile(big)
	want(t, err, big, "4 MiB")
	_, _, err = ResolveRoster(big, mat, "")
	want(t, err, big, "4 MiB")
	_, err = LoadCommitment(big, "commitment")
	want(t, err, big, "4 MiB")

	huge := filepath.Join(dir, "huge.json")
	sparse(t, huge, readlimit.MaxJSON+1)
	_, err = Render(RenderOptions{MaterialsDir: mat, CardA: huge, CardB: huge, Summaries: true})
	want(t, err, huge, "64 MiB")

	st := filepath.Join(mat, "statement_b.md")
	sparse(t, st, readlimit.MaxMarkdown+1)
	_, err = LoadMaterials(mat, 600)
	want(t, err, st, "8 MiB")
	o := opts(dir, &stubRunner{}, nil)
	o.RenderOnly = true
	want(t, RunPanel(context.Background(), o), st, "8 MiB")
}

// stepCode is the CLI's mapping: a *Error keeps its code, anything else is 2.
func stepCode(err error) int {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return 2
}

// An oversized assemble input (the panel report) stops the assembly.
func TestAssemblePanelReportOverTheCap(t *testing.T) {
	dir, o := assembled(t)
	rep := filepath.Join(dir, "panel", "panel_run_report.json")
	sparse(t, rep, readlimit.MaxJSON+1)
	_, err := Assemble(o)
	if err == nil || !readlimit.Refused(err) || !strings.Contains(err.Error(), rep+" is 67108865 bytes; nullius reads at most 64 MiB for a JSON artifact") {
		t.Fatalf("got %v", err)
	}
}

// A native seat reply over the cap, or one that is not a regular file, is
// refused before the panel starts (exit 2): nothing is run or written. A
// missing reply file stays that seat's failure, with the reason.
func TestNativeReplyRefusedUpFront(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.Roster, o.Home = "", ""
	wantErr(t, RunPanel(context.Background(), o), ExitDegraded, "native_subagents")
	big := filepath.Join(dir, "big.txt")
	sparse(t, big, readlimit.MaxSmall+1)
	fifo := filepath.Join(dir, "fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{big, big + " is 4194305 bytes; nullius reads at most 4 MiB"},
		{fifo, fifo + " is a FIFO, not a regular file; nullius reads only regular files"},
		{"/dev/zero", "/dev/zero is a character device, not a regular file"},
	} {
		report := filepath.Join(dir, "panel", "panel_run_report.json")
		os.Remove(report)
		o.NativeVotes = []string{nativeReply(t, dir, "s1.txt", "a", ""), nativeReply(t, dir, "s2.txt", "b", ""), tc.file}
		err := RunPanel(context.Background(), o)
		if err == nil || !readlimit.Refused(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v", tc.file, err)
		}
		if _, err := os.Stat(report); err == nil {
			t.Errorf("%s: a panel report was written", tc.file)
		}
	}
	missing := filepath.Join(dir, "missing.txt")
	o.NativeVotes = []string{nativeReply(t, dir, "s1.txt", "a", ""), nativeReply(t, dir, "s2.txt", "b", ""), missing}
	wantErr(t, RunPanel(context.Background(), o), ExitInvalid, "only 2 of 3")
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	failed, _ := get(rep, "seats_failed").([]any)
	if s := string(matchproto.Marshal(failed)); len(failed) != 1 || !strings.Contains(s, missing+": no such file or directory") {
		t.Errorf("seats_failed %s", s)
	}
}
