package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/progress"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// rosterJSON is ROSTER of §7.
const rosterJSON = `{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable", "strong": "opus"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra", "strong": "gpt-5.6-sol", "fast": "gpt-5.6-luna"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}, "notes": "via opencode"},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}},
    "gemini": {"runner": "gemini", "available": false, "notes": "no local access on this machine"}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}`

// setup copies the golden materials (MAT) into a temp dir and writes ROSTER.
func setup(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	mat := filepath.Join(dir, "mat")
	must(t, os.MkdirAll(mat, 0o755))
	for _, n := range []string{"commitment.json", "card_summary_a.md", "card_summary_b.md", "statement_a.md", "statement_b.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "match", "golden", n))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(mat, n), b, 0o644))
	}
	must(t, os.WriteFile(filepath.Join(dir, "roster.json"), []byte(rosterJSON), 0o644))
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// stubRunner answers override commands "stub MODE": vote:X, garbage,
// fail, flaky:MARKER, timeout. Real-runner argv (no override) answer with
// the family's vote from votes, keyed by argv[0] base name.
type stubRunner struct {
	mu    sync.Mutex
	calls [][]string
	byBin map[string]string
}

func (s *stubRunner) Run(_ context.Context, c Command) Outcome {
	s.mu.Lock()
	s.calls = append(s.calls, c.Argv)
	s.mu.Unlock()
	mode := ""
	if filepath.Base(c.Argv[0]) == "stub" && len(c.Argv) > 1 {
		mode = c.Argv[1]
	} else {
		mode = s.byBin[filepath.Base(scriptOf(c.Argv))]
	}
	kind, arg, _ := strings.Cut(mode, ":")
	reply := ""
	switch kind {
	case "vote":
		reply = fmt.Sprintf("Prose first.\n```json\n{\"vote\": %q, \"anchored_arguments\": [{\"argument\": \"x\", \"anchor_type\": \"literature\", \"anchor_ref\": \"artifact://x/y.json\"}], \"unanchored_arguments_discarded\": 1, \"extra\": true}\n```\n", arg)
	case "garbage":
		reply = "no json here"
	case "fail":
		return Outcome{ExitCode: 1, Stderr: []byte("boom")}
	case "timeout":
		return Outcome{TimedOut: true}
	case "flaky":
		if _, err := os.Stat(arg); err != nil {
			_ = os.WriteFile(arg, nil, 0o644)
			return Outcome{ExitCode: 1}
		}
		reply = "```json\n{\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```"
	default:
		return Outcome{Err: fmt.Errorf("stub: unknown mode %q", mode)}
	}
	if c.ReplyFile != "" {
		_ = os.WriteFile(c.ReplyFile, []byte(reply), 0o644)
		return Outcome{}
	}
	return Outcome{Stdout: []byte(reply)}
}

// scriptOf is the runner script of a roster-run argv: the argument after
// the interpreter (bash, python).
func scriptOf(argv []string) string {
	if len(argv) > 1 && (argv[0] == "bash" || strings.Contains(filepath.Base(argv[0]), "python")) {
		return argv[1]
	}
	return argv[0]
}

// runnerFiles creates the named runner scripts (mode 0644, as the skills
// distribute run_kimi.sh and run_multi_task.py) and returns their paths.
func runnerFiles(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var paths []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte("# a runner stand-in: the stub Runner answers for it\n"), 0o644))
		paths = append(paths, p)
	}
	return paths
}

// opts returns panel options for dir with the stub escape hatch on, no
// CLIs on PATH, HOME at dir.
func opts(dir string, r Runner, env map[string]string) PanelOptions {
	if env == nil {
		env = map[string]string{"IDEA_PAIRWISE_ALLOW_STUB_RUNNERS": "1"}
	}
	return PanelOptions{
		MaterialsDir: filepath.Join(dir, "mat"), OutDir: filepath.Join(dir, "panel"),
		Roster: filepath.Join(dir, "roster.json"), Home: dir, TimeoutSecs: 900, WordCap: 600,
		Getenv:   func(k string) string { return env[k] },
		LookPath: func(string) (string, error) { return "", os.ErrNotExist },
		Runner:   r, Now: func() time.Time { return time.Now() },
		Progress: progress.Discard,
	}
}

func readObj(t *testing.T, p string) matchproto.Object {
	t.Helper()
	v, err := readJSON(p, "test file", readlimit.JSON)
	must(t, err)
	return v.(matchproto.Object)
}

func get(o matchproto.Object, path ...string) any {
	var cur any = o
	for _, k := range path {
		co, ok := cur.(matchproto.Object)
		if !ok {
			return nil
		}
		cur, _ = co.Get(k)
	}
	return cur
}

func wantErr(t *testing.T, err error, code int, sub string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", sub)
	}
	if !strings.Contains(err.Error(), sub) {
		t.Fatalf("error %q does not contain %q", err, sub)
	}
	if code != 0 && ExitCode(err) != code {
		t.Fatalf("exit %d, want %d (%v)", ExitCode(err), code, err)
	}
}

// nativeReply writes a native seat reply echoing the current digest.
func nativeReply(t *testing.T, dir, name, vote, echo string) string {
	t.Helper()
	if echo == "" {
		b, err := os.ReadFile(filepath.Join(dir, "panel", "judge_prompt.md"))
		must(t, err)
		i := strings.Index(string(b), `"judge_prompt_sha256": "`)
		echo = string(b[i+24 : i+24+71])
	}
	p := filepath.Join(dir, name)
	body := fmt.Sprintf("Seat %s.\n```json\n{\"vote\": %q, \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0", name, vote)
	if echo != "none" {
		body += fmt.Sprintf(", \"judge_prompt_sha256\": %q", echo)
	}
	must(t, os.WriteFile(p, []byte(body+"}\n```\n"), 0o644))
	return p
}
