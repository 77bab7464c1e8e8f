package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/procrun/procruntest"
)

// judgeStub records its own pid and a background child's, then waits for
// the child: a judge that never answers and has spawned something.
const judgeStub = `d=$(dirname "$0")
sleep 1000 &
echo $! > "$d/$1.child.pid"
echo $$ > "$d/$1.pid"
wait
`

// Issue 13: SIGTERM during a panel kills every judge's process group
// before nullius exits: exit 143, one line saying what was stopped, a
// report that records the interruption, and no judge process alive
// (checked by pid: kill(pid, 0) is ESRCH for every judge and every child
// a judge started).
func TestSIGTERMDuringPanelLeavesNoJudge(t *testing.T) {
	if !procruntest.BecomeSubreaper() {
		t.Skip("needs a Linux child subreaper to reap the judges' orphans")
	}
	dir := t.TempDir()
	mat, stubs := filepath.Join(dir, "mat"), filepath.Join(dir, "stubs")
	must(t, os.MkdirAll(stubs, 0o755))
	must(t, os.WriteFile(filepath.Join(stubs, "judge.sh"), []byte(judgeStub), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "roster.json"), []byte(`{"version": 1, "families": {
		"claude": {"runner": "claude-cli", "models": {"default": "fable"}},
		"gpt": {"runner": "codex", "models": {"default": "gpt-5"}},
		"glm": {"runner": "opencode", "models": {"default": "zhipuai/glm-5"}}}}`), 0o644))
	var sink bytes.Buffer
	for _, args := range [][]string{
		{"match", "commit", "--out", filepath.Join(mat, "commitment.json"), "--criteria", "tension resolution", "--criteria", "verification cost"},
		{"match", "render", "--materials-dir", mat, "--card-a", "../../fixtures/match/idea_card_a.json", "--card-b", "../../fixtures/match/idea_card_b.json", "--summaries"},
	} {
		if code := run(args, nil, &sink, &sink); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, sink.String())
		}
	}
	for _, side := range []string{"a", "b"} {
		b, err := os.ReadFile("../../fixtures/match/golden/statement_" + side + ".md")
		must(t, err)
		must(t, os.WriteFile(filepath.Join(mat, "statement_"+side+".md"), b, 0o644))
	}

	families := []string{"claude", "gpt", "glm"}
	args := []string{"match", "panel", "--materials-dir", mat, "--out-dir", filepath.Join(dir, "panel"), "--roster", filepath.Join(dir, "roster.json")}
	var pidFiles []string
	for _, f := range families {
		args = append(args, "--runner", f+"=sh "+filepath.Join(stubs, "judge.sh")+" "+f+" {prompt}")
		pidFiles = append(pidFiles, filepath.Join(stubs, f+".pid"), filepath.Join(stubs, f+".child.pid"))
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "NULLIUS_TEST_MAIN=1", "HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	must(t, cmd.Start())
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()

	pids, err := procruntest.WaitPids(exited, pidFiles...)
	if err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	<-exited

	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) || ee.ExitCode() != 143 {
		t.Errorf("exit: %v, want status 143", waitErr)
	}
	want := "nullius: interrupted by SIGTERM: stopped 3 child processes (judge claude, judge glm, judge gpt); the panel is invalid: " +
		filepath.Join(dir, "panel", "panel_run_report.json") + " records the interruption; run the panel again\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
	// The judges were nullius's children: reaped before it exited.
	for i := 0; i < len(pids); i += 2 {
		if err := syscall.Kill(pids[i], 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("judge pid %d: kill(pid, 0) = %v after nullius exited, want ESRCH", pids[i], err)
		}
	}
	// What the judges started was killed with their groups; as their
	// orphans' subreaper this test reaps them.
	for i := 1; i < len(pids); i += 2 {
		if err := procruntest.AwaitGone(pids[i]); err != nil {
			t.Error(err)
		}
	}

	b, err := os.ReadFile(filepath.Join(dir, "panel", "panel_run_report.json"))
	must(t, err)
	d, err := matchproto.Decode(b)
	must(t, err)
	rep := d.Value.(matchproto.Object)
	if v, _ := rep.Get("panel_valid"); v != false {
		t.Errorf("panel_valid = %v", v)
	}
	if v, _ := rep.Get("interrupted"); v != "interrupted by SIGTERM" {
		t.Errorf("interrupted = %v", v)
	}
	absent, _ := rep.Get("absent")
	if l, _ := absent.([]any); len(l) != 3 || !strings.Contains(string(b), "interrupted by SIGTERM; the judge was stopped before it replied") {
		t.Errorf("absent = %v", absent)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Issue 13: SIGINT during extract kills gaia's process group (gaia and
// what it started) before nullius exits 130 with one line.
func TestSIGINTDuringExtractLeavesNoGaia(t *testing.T) {
	if !procruntest.BecomeSubreaper() {
		t.Skip("needs a Linux child subreaper to reap gaia's orphans")
	}
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	must(t, os.MkdirAll(filepath.Join(pkg, "src", "example_idea"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, ".nullius"), 0o755))
	must(t, os.WriteFile(filepath.Join(pkg, "pyproject.toml"), []byte("[project]\nname = \"example-idea-gaia\"\nversion = \"0.1.0\"\nrequires-python = \">=3.12\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n"), 0o644))
	src, err := os.ReadFile("../../fixtures/extract/road/__init__.py")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(pkg, "src", "example_idea", "__init__.py"), src, 0o644))
	gaia, err := filepath.Abs("../../fixtures/fakegaia/gaia")
	must(t, err)

	cmd := exec.Command(os.Args[0], "extract", "--package", pkg, "--gaia", gaia)
	cmd.Env = append(os.Environ(), "NULLIUS_TEST_MAIN=1", "HOME="+dir, "FAKE_GAIA_HANG=compile", "FAKE_GAIA_PIDS="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	pids, err := procruntest.WaitPids(exited, filepath.Join(dir, "gaia.pid"), filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, stderr.String())
	}
	must(t, cmd.Process.Signal(os.Interrupt))
	<-exited

	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130", waitErr)
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	want := "nullius: interrupted by SIGINT: stopped 1 child process (gaia build compile " + pkg + ")"
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("last stderr line %q, want %q\n%s", last, want, stderr.String())
	}
	if err := syscall.Kill(pids[0], 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("gaia pid %d: kill(pid, 0) = %v after nullius exited, want ESRCH", pids[0], err)
	}
	if err := procruntest.AwaitGone(pids[1]); err != nil {
		t.Error(err)
	}
}

// A command that starts no child stops at once on SIGINT or SIGTERM, with
// one line and exit 128+signal (internal/sigexit's handler, not
// os/signal): `nullius server` is signalled once it has answered a request,
// so the handler is in place.
func TestSignalStopsACommandWithoutChildren(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		line string
	}{
		{syscall.SIGINT, 130, "nullius: interrupted by SIGINT\n"},
		{syscall.SIGTERM, 143, "nullius: interrupted by SIGTERM\n"},
	} {
		cmd := exec.Command(os.Args[0], "server")
		cmd.Env = append(os.Environ(), "NULLIUS_TEST_MAIN=1")
		stdin, err := cmd.StdinPipe()
		must(t, err)
		stdout, err := cmd.StdoutPipe()
		must(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		must(t, cmd.Start())
		req := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`
		_, err = io.WriteString(stdin, fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(req), req))
		must(t, err)
		if _, err := stdout.Read(make([]byte, 1)); err != nil {
			t.Fatalf("no reply to initialize: %v\n%s", err, stderr.String())
		}
		must(t, cmd.Process.Signal(tc.sig))
		err = cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
			t.Errorf("%v: exit %v, want status %d", tc.sig, err, tc.code)
		}
		if got := stderr.String(); got != tc.line {
			t.Errorf("%v: stderr %q, want %q", tc.sig, got, tc.line)
		}
		stdin.Close()
	}
}
