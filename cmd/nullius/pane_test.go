package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// paneDeadline only turns a hang into a failure: pane wait returns as soon
// as the screen shows what it waits for, and nothing is asserted about
// how long that took.
const paneDeadline = 2 * time.Minute

// paneEnv is the environment a script's tmux server (and so the command
// in its pane) gets: the script's own, for the variables a scenario uses.
var paneEnv = []string{"PATH", "HOME", "WORK", "REPO", "NO_COLOR", "IDEA_PAIRWISE_ALLOW_STUB_RUNNERS", "FAKE_JUDGE_MODE"}

// paneCmd drives a command in a real terminal, a tmux pane, for scripts
// that test what a person sees (the live progress display):
//
//	pane start NAME SCRIPT    run the shell script SCRIPT in a new 100x30
//	                          pane, in the current directory; the pane
//	                          stays after it exits
//	pane wait NAME REGEXP     poll the screen until REGEXP (multi-line)
//	                          matches it; fail after paneDeadline
//	pane capture NAME FILE    write the screen to FILE and log it
//
// Every pane of a script lives on its own tmux server, killed when the
// script ends.
func paneCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: pane start|wait|capture NAME ARG")
	}
	name := args[1]
	switch args[0] {
	case "start":
		out, err := tmux(ts, "new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", ts.MkAbs("."), "sh "+ts.MkAbs(args[2]))
		if err != nil {
			ts.Fatalf("tmux new-session: %v\n%s", err, out)
		}
		if out, err := tmux(ts, "set-option", "-t", name, "remain-on-exit", "on"); err != nil {
			ts.Fatalf("tmux set-option: %v\n%s", err, out)
		}
	case "wait":
		re, err := regexp.Compile("(?m)" + args[2])
		ts.Check(err)
		deadline := time.Now().Add(paneDeadline)
		screen := ""
		for {
			screen = capturePane(ts, name)
			if re.MatchString(screen) {
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("pane %s never showed %q; the screen is:\n%s", name, args[2], screen)
			}
			time.Sleep(50 * time.Millisecond) // polling the screen, not timing the command
		}
	case "capture":
		screen := capturePane(ts, name)
		ts.Logf("pane %s:\n%s", name, screen)
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(screen), 0o644))
	default:
		ts.Fatalf("usage: pane start|wait|capture NAME ARG")
	}
}

// capturePane is the visible screen of the pane, trailing blank lines cut.
func capturePane(ts *testscript.TestScript, name string) string {
	out, err := tmux(ts, "capture-pane", "-p", "-t", name)
	if err != nil {
		ts.Fatalf("tmux capture-pane: %v\n%s", err, out)
	}
	return strings.TrimRight(out, "\n") + "\n"
}

// tmux runs a tmux command against the script's own server (a socket in a
// short temporary directory: socket paths are limited to about 100 bytes,
// $WORK can be longer), starting it with the script's environment.
func tmux(ts *testscript.TestScript, args ...string) (string, error) {
	dir := ts.Getenv("NULLIUS_TMUX_DIR")
	if dir == "" {
		d, err := os.MkdirTemp("", "ntmux")
		ts.Check(err)
		dir = d
		ts.Setenv("NULLIUS_TMUX_DIR", dir)
		ts.Defer(func() {
			_ = exec.Command("tmux", "-S", filepath.Join(dir, "s"), "kill-server").Run()
			_ = os.RemoveAll(dir)
		})
	}
	cmd := exec.Command("tmux", append([]string{"-S", filepath.Join(dir, "s"), "-f", "/dev/null"}, args...)...)
	cmd.Env = []string{"TERM=xterm-256color"}
	for _, k := range paneEnv {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}
