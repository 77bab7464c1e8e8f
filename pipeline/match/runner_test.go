package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/procrun/procruntest"
	"github.com/nullius-dev/nullius/internal/shlex"
)

// A judge past its limit is a timeout; the group kill itself is tested
// with internal/procrun, which ExecRunner runs through.
func TestExecRunnerTimeout(t *testing.T) {
	out := ExecRunner{}.Run(context.Background(), Command{
		Argv:    []string{"/bin/sh", "-c", "exec sleep 1000"},
		Env:     childEnv(),
		Timeout: 50 * time.Millisecond,
	})
	if !out.TimedOut || out.Interrupted || out.Err != nil {
		t.Fatalf("not timed out: %+v", out)
	}
}

// An interrupt stops the judge and is reported as such, not as a timeout.
func TestExecRunnerInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Outcome)
	go func() {
		done <- ExecRunner{}.Run(ctx, Command{Argv: []string{"/bin/sh", "-c", `echo $$ > "$1/judge.pid"; exec sleep 1000`, "judge", dir}, Timeout: time.Hour})
	}()
	pids, err := procruntest.WaitPids(nil, filepath.Join(dir, "judge.pid"))
	must(t, err)
	cancel()
	if out := <-done; !out.Interrupted || out.TimedOut {
		t.Fatalf("%+v", out)
	}
	if err := procruntest.AwaitGone(pids[0]); err != nil {
		t.Error(err)
	}
}

// Issue 14: a program that cannot start is an invocation error whatever
// the time budget (the test once flaked when a slow start failure under
// load was taken for a timeout).
func TestExecRunnerEnvAndExit(t *testing.T) {
	out := ExecRunner{}.Run(context.Background(), Command{
		Argv: []string{"/bin/sh", "-c", "echo $REVIEW_SWARM_NO_AUTO_CONFIG; echo oops >&2; exit 7"}, Env: childEnv(), Timeout: 10 * time.Second})
	if strings.TrimSpace(string(out.Stdout)) != "1" || out.ExitCode != 7 || !strings.Contains(string(out.Stderr), "oops") {
		t.Errorf("%+v", out)
	}
	for _, limit := range []time.Duration{time.Nanosecond, time.Hour} {
		out = ExecRunner{}.Run(context.Background(), Command{Argv: []string{filepath.Join(t.TempDir(), "missing")}, Timeout: limit})
		if out.Err == nil || out.TimedOut {
			t.Errorf("limit %v: missing program did not fail to start: %+v", limit, out)
		}
	}
}

// test_unanchored_flood_is_counted_and_does_not_pass_silently.
func TestUnanchoredFloodIsCounted(t *testing.T) {
	dir := setup(t)
	p := filepath.Join(dir, "mat", "statement_a.md")
	b, _ := os.ReadFile(p)
	flood := strings.Replace(string(b), "## verification cost", "Unanchored one.\nUnanchored two [anchor: literature -> https://evil.example/x]\nUnanchored three.\n\n## verification cost", 1)
	must(t, os.WriteFile(p, []byte(flood), 0o644))
	o := opts(dir, &stubRunner{}, nil)
	o.RunnerOverrides = overrides(map[string]string{"claude": "vote:a", "gpt": "vote:a", "glm": "vote:b"})
	var out strings.Builder
	o.Out = &out
	must(t, RunPanel(context.Background(), o))
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	if fmt.Sprint(get(rep, "unanchored_arguments_discarded_by_parser", "statement_a")) != "3" || fmt.Sprint(get(rep, "unanchored_arguments_discarded_by_parser", "total")) != "3" {
		t.Errorf("parser counts %v", get(rep, "unanchored_arguments_discarded_by_parser"))
	}
	if !strings.Contains(out.String(), "self-report and mechanism disagree") {
		t.Error(out.String())
	}
	prompt, _ := os.ReadFile(filepath.Join(dir, "panel", "judge_prompt.md"))
	if strings.Contains(string(prompt), "evil.example") || strings.Contains(string(prompt), "Unanchored one") {
		t.Error("unanchored lines reached the judge prompt")
	}
}

// W13: the author learns which lines the rebuild dropped.
func TestDroppedLinesReported(t *testing.T) {
	dir := setup(t)
	p := filepath.Join(dir, "mat", "statement_a.md")
	b, _ := os.ReadFile(p)
	must(t, os.WriteFile(p, []byte(strings.Replace(string(b), "## verification cost", "**Tension resolution**: bold is not a heading.\n\n## verification cost", 1)), 0o644))
	o := opts(dir, &stubRunner{}, nil)
	o.RenderOnly = true
	var out strings.Builder
	o.Out = &out
	must(t, RunPanel(context.Background(), o))
	// Loudly, with its line and the rule that dropped it (issue 16).
	if !strings.Contains(out.String(), "warning: statement_a.md: 1 line not rebuilt; the judges will not see it:\n") ||
		!strings.Contains(out.String(), "warning: statement_a.md:10: dropped: reads like the heading of criterion 'tension resolution' but is not one; write it as '## tension resolution': '**Tension resolution**: bold is not a heading.'\n") {
		t.Error(out.String())
	}
	// Not only when the prompt alone is rendered.
	o.RenderOnly = false
	out.Reset()
	_ = RunPanel(context.Background(), o)
	if !strings.Contains(out.String(), "warning: statement_a.md:10: dropped: ") {
		t.Error(out.String())
	}
}

// W15: a judge that honestly reports 0 discards (the rebuilt statements it
// read hold none) agrees with the mechanism, whatever the parser dropped.
func TestHonestJudgeAgrees(t *testing.T) {
	dir := setup(t)
	p := filepath.Join(dir, "mat", "statement_a.md")
	b, _ := os.ReadFile(p)
	must(t, os.WriteFile(p, []byte(strings.Replace(string(b), "## verification cost", "Unanchored prose.\n\n## verification cost", 1)), 0o644))
	o := opts(dir, &stubRunner{}, nil)
	o.Roster, o.Home = "", ""
	wantErr(t, RunPanel(context.Background(), o), ExitDegraded, "native_subagents")
	o.NativeVotes = []string{nativeReply(t, dir, "s1.txt", "a", ""), nativeReply(t, dir, "s2.txt", "b", ""), nativeReply(t, dir, "s3.txt", "a", "")}
	var out strings.Builder
	o.Out = &out
	must(t, RunPanel(context.Background(), o))
	if strings.Contains(out.String(), "disagree") {
		t.Error(out.String())
	}
	rep := string(matchproto.Marshal(readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))))
	if !strings.Contains(rep, `"parser_counted": 1`) || !strings.Contains(rep, `"agree": true`) || strings.Contains(rep, `"agree": false`) {
		t.Error(rep)
	}
}

// Issue 7: runner commands run without a shell. A --runner template full
// of shell syntax is split into words and every word reaches the program
// literally: nothing is substituted, redirected, piped, globbed or chained.
func TestRunnerCommandsRunWithoutAShell(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "pwned")
	tmpl := `/bin/echo "$(touch ` + marker + `)" '$HOME' ` + "`touch " + marker + "`" + ` ';' touch ` + marker + ` '|' cat '>' ` + filepath.Join(dir, "redirected") + ` ` + filepath.Join(dir, "*") + ` && touch ` + marker
	argv, err := shlex.Split(tmpl)
	must(t, err)
	out := ExecRunner{}.Run(context.Background(), Command{Argv: argv, Env: childEnv(), Timeout: 10 * time.Second})
	if out.Err != nil || out.ExitCode != 0 {
		t.Fatalf("%+v", out)
	}
	want := "$(touch " + marker + ") $HOME `touch " + marker + "` ; touch " + marker + " | cat > " + filepath.Join(dir, "redirected") + " " + filepath.Join(dir, "*") + " && touch " + marker + "\n"
	if string(out.Stdout) != want {
		t.Errorf("stdout %q\nwant   %q", out.Stdout, want)
	}
	for _, p := range []string{marker, filepath.Join(dir, "redirected")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists: a shell ran the command", p)
		}
	}
}

// Issue 7: a judge that floods stdout is kept to maxOutput bytes, so a
// runaway judge cannot fill memory.
func TestExecRunnerCapsOutput(t *testing.T) {
	out := ExecRunner{}.Run(context.Background(), Command{
		Argv: []string{"/bin/sh", "-c", "head -c 12000000 /dev/zero; head -c 9000000 /dev/zero >&2"}, Env: childEnv(), Timeout: 30 * time.Second})
	if out.Err != nil || out.ExitCode != 0 || len(out.Stdout) != maxOutput || len(out.Stderr) != maxOutput {
		t.Fatalf("kept %d stdout and %d stderr bytes, want %d each (%v, exit %d)", len(out.Stdout), len(out.Stderr), maxOutput, out.Err, out.ExitCode)
	}
}
