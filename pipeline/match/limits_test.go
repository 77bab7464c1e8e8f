package match

import (
	"os"
	"path/filepath"
	"strings"
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
		if err == nil || !tooLarge(err) || !strings.HasPrefix(err.Error(), path+" is ") || !strings.Contains(err.Error(), "nullius reads at most "+cap) {
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
	want(t, RunPanel(o), st, "8 MiB")
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
	if err == nil || !tooLarge(err) || !strings.Contains(err.Error(), rep+" is 67108865 bytes; nullius reads at most 64 MiB for a JSON artifact") {
		t.Fatalf("got %v", err)
	}
}

// An oversized native seat reply is that seat's failure, with the reason.
func TestNativeReplyOverTheCap(t *testing.T) {
	dir := setup(t)
	o := opts(dir, &stubRunner{}, nil)
	o.Roster, o.Home = "", ""
	wantErr(t, RunPanel(o), ExitDegraded, "native_subagents")
	big := filepath.Join(dir, "big.txt")
	sparse(t, big, readlimit.MaxSmall+1)
	o.NativeVotes = []string{nativeReply(t, dir, "s1.txt", "a", ""), nativeReply(t, dir, "s2.txt", "b", ""), big}
	wantErr(t, RunPanel(o), ExitInvalid, "only 2 of 3")
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	failed, _ := get(rep, "seats_failed").([]any)
	if s := string(matchproto.Marshal(failed)); len(failed) != 1 || !strings.Contains(s, big+" is 4194305 bytes; nullius reads at most 4 MiB") {
		t.Errorf("seats_failed %s", s)
	}
}
