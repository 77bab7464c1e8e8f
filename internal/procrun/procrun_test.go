package procrun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/procrun/procruntest"
)

func TestMain(m *testing.M) {
	procruntest.BecomeSubreaper()
	os.Exit(m.Run())
}

func TestExitOutputEnvDirStdin(t *testing.T) {
	dir := t.TempDir()
	res := Run(context.Background(), Spec{
		Argv:  []string{"/bin/sh", "-c", `echo "$X"; pwd; cat; echo oops >&2; exit 7`},
		Env:   []string{"X=from-env", "PATH=" + os.Getenv("PATH")},
		Dir:   dir,
		Stdin: strings.NewReader("from-stdin\n"),
	})
	real, _ := filepath.EvalSymlinks(dir)
	want := "from-env\n" + real + "\nfrom-stdin\n"
	if string(res.Stdout) != want || string(res.Stderr) != "oops\n" || res.ExitCode != 7 || res.StartErr != nil || res.TimedOut || res.Interrupted {
		t.Errorf("got %+v, stdout %q", res, res.Stdout)
	}
}

func TestNilStdinIsDevNull(t *testing.T) {
	res := Run(context.Background(), Spec{Argv: []string{"/bin/sh", "-c", "wc -c"}})
	if strings.TrimSpace(string(res.Stdout)) != "0" || res.ExitCode != 0 {
		t.Errorf("%+v", res)
	}
}

// Issue 14: a program that cannot start is a start error, never a timeout,
// whatever the budget.
func TestStartErrorIsAStartError(t *testing.T) {
	for _, timeout := range []time.Duration{time.Nanosecond, 0, time.Hour} {
		res := Run(context.Background(), Spec{Argv: []string{filepath.Join(t.TempDir(), "missing")}, Timeout: timeout})
		if res.StartErr == nil || res.TimedOut || res.Interrupted || res.ExitCode != -1 {
			t.Errorf("timeout %v: %+v", timeout, res)
		}
	}
	res := Run(context.Background(), Spec{Argv: []string{"no-such-program-on-path-x9"}})
	if res.StartErr == nil || !strings.Contains(res.StartErr.Error(), "executable file not found") {
		t.Errorf("%+v", res)
	}
}

func TestTimeoutIsReported(t *testing.T) {
	res := Run(context.Background(), Spec{Argv: []string{"/bin/sh", "-c", "exec sleep 1000"}, Timeout: 50 * time.Millisecond})
	if !res.TimedOut || res.Interrupted || res.StartErr != nil || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
}

// stub starts a shell that records its pid and a background grandchild's,
// then waits; it never ends on its own.
func stub(dir string) []string {
	return []string{"/bin/sh", "-c", `sleep 1000 & echo $! > "$1/gc.pid"; echo $$ > "$1/c.pid"; wait`, "stub", dir}
}

// Cancelling the context (nullius interrupted) kills the child's whole
// group, grandchildren included, and is reported as an interruption.
func TestCancelKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result)
	go func() { done <- Run(ctx, Spec{Argv: stub(dir), Label: "stub judge"}) }()
	stopSig := make(chan struct{})
	pids, err := procruntest.WaitPids(stopSig, filepath.Join(dir, "c.pid"), filepath.Join(dir, "gc.pid"))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	res := <-done
	if !res.Interrupted || res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("%+v", res)
	}
	for _, pid := range pids {
		if err := procruntest.AwaitGone(pid); err != nil {
			t.Error(err)
		}
	}
	if labels, _ := Stopped(); !contains(labels, "stub judge") {
		t.Errorf("Stopped() = %v", labels)
	}
}

// Issue 13: a program that replies, exits 0 and leaves a background child
// holding stdout returns once WaitDelay has passed (not when the child
// ends, not as a timeout), with its reply and its success; the child is
// killed with the group.
func TestLingeringGrandchildDoesNotHold(t *testing.T) {
	dir := t.TempDir()
	res := Run(context.Background(), Spec{
		Argv:      []string{"/bin/sh", "-c", `sleep 1000 & echo $! > "$1/gc.pid"; echo '{"result": "stored"}'; exit 0`, "rpc", dir},
		Timeout:   time.Hour,
		WaitDelay: 10 * time.Millisecond,
	})
	if res.ExitCode != 0 || res.TimedOut || res.Interrupted || !res.Lingered || string(res.Stdout) != "{\"result\": \"stored\"}\n" {
		t.Fatalf("%+v", res)
	}
	pids, err := procruntest.WaitPids(nil, filepath.Join(dir, "gc.pid"))
	if err != nil {
		t.Fatal(err)
	}
	if err := procruntest.AwaitGone(pids[0]); err != nil {
		t.Error(err)
	}
}

func TestOutputIsCapped(t *testing.T) {
	res := Run(context.Background(), Spec{
		Argv:      []string{"/bin/sh", "-c", "head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2"},
		StdoutCap: 100000, StderrCap: 1000,
	})
	if res.ExitCode != 0 || len(res.Stdout) != 100000 || len(res.Stderr) != 1000 || !res.StdoutOver || !res.StderrOver {
		t.Fatalf("kept %d/%d, over %v/%v, exit %d", len(res.Stdout), len(res.Stderr), res.StdoutOver, res.StderrOver, res.ExitCode)
	}
	small := Run(context.Background(), Spec{Argv: []string{"/bin/echo", "hi"}})
	if small.StdoutOver || !bytes.Equal(small.Stdout, []byte("hi\n")) {
		t.Fatalf("%+v", small)
	}
}

func TestSignalled(t *testing.T) {
	res := Run(context.Background(), Spec{Argv: []string{"/bin/sh", "-c", "kill -TERM $$"}})
	if res.Signal.String() != "terminated" || res.ExitCode != -1 || res.TimedOut {
		t.Fatalf("%+v", res)
	}
}

func TestCancelledBeforeStartStartsNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Run(ctx, Spec{Argv: []string{"/bin/sh", "-c", `touch "$1/ran"`, "x", dir}})
	if !res.Interrupted || res.Pid != 0 {
		t.Fatalf("%+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the program ran")
	}
}

func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, "no child process was running"},
		{[]string{"gaia"}, "stopped 1 child process (gaia)"},
		{[]string{"judge b", "judge a"}, "stopped 2 child processes (judge a, judge b)"},
	} {
		if got := Describe(c.in); got != c.want {
			t.Errorf("Describe(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// An *os.File is handed to the child as is: it reads nullius's own stdin
// (as judges inherit run_panel.py's in the reference).
func TestFileStdinIsInherited(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(p, []byte("from the file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if Inherit(f) == nil {
		t.Fatal("a regular file was not passed on")
	}
	res := Run(context.Background(), Spec{Argv: []string{"/bin/cat"}, Stdin: Inherit(f)})
	if string(res.Stdout) != "from the file\n" || res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
}
