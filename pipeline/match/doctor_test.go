package match

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

// doctorEnv lays out a skills root with every runner (mode 0644: an
// interpreter runs them) and returns options whose PATH has the CLIs
// named in clis, bash and python3.
func doctorEnv(t *testing.T, clis ...string) (string, PanelOptions) {
	t.Helper()
	dir := setup(t)
	runnerFiles(t, filepath.Join(dir, "skills"), "kimi-cli-runner/scripts/run_kimi.sh", "opencode-cli-runner/scripts/run_opencode.sh",
		"gemini-cli-runner/scripts/run_gemini.sh", "review-swarm/scripts/bin/run_multi_task.py")
	o := opts(dir, &stubRunner{}, map[string]string{})
	o.SkillsRoot = filepath.Join(dir, "skills")
	o.LookPath = func(bin string) (string, error) {
		if bin == "bash" || bin == "python3" || slices.Contains(clis, bin) {
			return "/usr/bin/" + bin, nil
		}
		return "", os.ErrNotExist
	}
	return dir, o
}

func seatOf(t *testing.T, d *Doctor, fam string) SeatCheck {
	t.Helper()
	for _, c := range d.Seats {
		if c.Family == fam {
			return c
		}
	}
	t.Fatalf("no seat %s in %+v", fam, d.Seats)
	return SeatCheck{}
}

// The doctor reports each case as the panel would decide it: a roster run
// family with everything present runs; a missing CLI or runner is absent
// with the panel's reason; the native seat waits for its reply; an
// unavailable family is absent with its notes.
func TestDoctorCases(t *testing.T) {
	dir, o := doctorEnv(t, "codex", "opencode", "kimi")
	must(t, os.Remove(filepath.Join(dir, "skills", "kimi-cli-runner", "scripts", "run_kimi.sh")))
	d, err := RunDoctor(o)
	must(t, err)
	gpt := seatOf(t, d, "gpt")
	if gpt.Status != "run" || gpt.Interpreter != "python3" || gpt.ScriptFrom != "--skills-root" || gpt.CLIPath != "/usr/bin/codex" ||
		len(gpt.Argv) < 3 || gpt.Argv[0] != "python3" || !strings.HasSuffix(gpt.Argv[1], "review-swarm/scripts/bin/run_multi_task.py") {
		t.Errorf("gpt %+v", gpt)
	}
	if glm := seatOf(t, d, "glm"); glm.Status != "run" || glm.Argv[0] != "bash" {
		t.Errorf("glm %+v", glm)
	}
	if k := seatOf(t, d, "kimi"); k.Status != "absent" || !strings.Contains(k.Reason, "run_kimi.sh not found") || k.RunnerProblem == "" {
		t.Errorf("kimi %+v", k)
	}
	if c := seatOf(t, d, "claude"); c.Status != "native" {
		t.Errorf("claude %+v", c)
	}
	if g := seatOf(t, d, "gemini"); g.Status != "absent" || g.Reason != "declared unavailable in the roster: no local access on this machine" || g.Argv != nil || g.CLI != "" {
		t.Errorf("gemini %+v", g)
	}
	// gpt, glm and the native seat: 3 of 3.
	if !d.OK || d.Possible != 3 || d.Mode != "cross_family" {
		t.Errorf("verdict %+v", d)
	}

	// With only the opencode CLI the roster cannot field the floor
	// (native + glm = 2 of 3): degraded.
	_, o = doctorEnv(t, "opencode")
	d, err = RunDoctor(o)
	must(t, err)
	if d.OK || d.Mode != "single_family" || !strings.Contains(d.Verdict, "degrade to 3 native subagent seats") {
		t.Errorf("degraded verdict %+v", d)
	}
	if g := seatOf(t, d, "gpt"); g.Status != "absent" || !strings.Contains(g.Reason, "executable (codex) is not present") || g.CLIPath != "" {
		t.Errorf("gpt %+v", g)
	}
	if g := seatOf(t, d, "glm"); g.Status != "not_run" {
		t.Errorf("glm %+v", g)
	}

	// Two overrides running one command: the panel would be refused.
	_, o = doctorEnv(t, "codex", "opencode", "kimi")
	o.RunnerOverrides = []string{"gpt=stub vote:a {prompt}", "glm=stub vote:a {system}"}
	d, err = RunDoctor(o)
	must(t, err)
	if d.OK || !strings.Contains(d.Independence, "glm, gpt share one command") {
		t.Errorf("independence %+v", d)
	}
	if g := seatOf(t, d, "gpt"); g.Override == "" || !slices.Equal(g.Argv, []string{"stub", "vote:a", filepath.Join(o.OutDir, "judge_prompt.md")}) {
		t.Errorf("override %+v", g)
	}
}

// Discovery order: $IDEA_PAIRWISE_*, then the skills root, then PATH; a
// variable naming nothing is reported, not skipped.
func TestRunnerDiscovery(t *testing.T) {
	dir, o := doctorEnv(t)
	onPath := filepath.Join(dir, "path")
	runnerFiles(t, onPath, "run_gemini.sh", "run_multi_task.py")
	env := map[string]string{"PATH": onPath}
	o.Getenv = func(k string) string { return env[k] }
	p := &panel{o: &o}

	if l := p.launch("kimi"); l.From != "--skills-root" || l.Interpreter != "bash" || l.Problem != "" {
		t.Errorf("skills root: %+v", l)
	}
	env["IDEA_PAIRWISE_KIMI_RUNNER"] = filepath.Join(dir, "mine.sh")
	if l := p.launch("kimi"); l.Problem == "" || !strings.Contains(l.Problem, "$IDEA_PAIRWISE_KIMI_RUNNER names") || l.Script != env["IDEA_PAIRWISE_KIMI_RUNNER"] {
		t.Errorf("missing env script: %+v", l)
	}
	runnerFiles(t, dir, "mine.sh")
	if l := p.launch("kimi"); l.From != "$IDEA_PAIRWISE_KIMI_RUNNER" || l.Problem != "" {
		t.Errorf("env script: %+v", l)
	}
	o.SkillsRoot = ""
	if l := p.launch("gemini"); l.From != "PATH" || l.Script != filepath.Join(onPath, "run_gemini.sh") {
		t.Errorf("PATH: %+v", l)
	}
	if l := p.launch("opencode"); !strings.Contains(l.Problem, "run_opencode.sh not found (looked at run_opencode.sh on PATH)") {
		t.Errorf("nowhere: %+v", l)
	}
	env["NULLIUS_SKILLS_ROOT"] = filepath.Join(dir, "skills")
	if l := p.launch("opencode"); l.From != "--skills-root" {
		t.Errorf("$NULLIUS_SKILLS_ROOT: %+v", l)
	}
	env["NULLIUS_PYTHON"] = "/opt/py/bin/python3.12"
	if l := p.launch("codex"); l.Interpreter != "/opt/py/bin/python3.12" || !strings.Contains(l.Problem, "interpreter /opt/py/bin/python3.12") {
		t.Errorf("$NULLIUS_PYTHON: %+v", l)
	}
	o.Python = "python3"
	if l := p.launch("claude-cli"); l.Interpreter != "python3" || l.Problem != "" {
		t.Errorf("--python: %+v", l)
	}
}

// A missing runner never becomes a run-time failure: the seat is absent
// before any judge runs, and the floor decides as the protocol says.
func TestPreflightRecordsMissingRunnerAbsent(t *testing.T) {
	dir, o := doctorEnv(t, "codex", "opencode", "kimi")
	must(t, os.Remove(filepath.Join(dir, "skills", "opencode-cli-runner", "scripts", "run_opencode.sh")))
	r := &stubRunner{byBin: map[string]string{"run_kimi.sh": "vote:a", "run_multi_task.py": "vote:b"}}
	o.Runner = r
	o.RenderOnly = true
	must(t, RunPanel(t.Context(), o))
	o.RenderOnly = false
	o.NativeVotes = []string{nativeReply(t, dir, "claude.txt", "a", "")}
	must(t, RunPanel(t.Context(), o))
	for _, c := range r.calls {
		if strings.Contains(scriptOf(c), "opencode") {
			t.Errorf("the opencode runner was called: %q", c)
		}
	}
	rep := readObj(t, filepath.Join(dir, "panel", "panel_run_report.json"))
	found := false
	for _, a := range get(rep, "absent").([]any) {
		o := a.(matchproto.Object)
		fam, _ := o.Get("family")
		reason, _ := o.Get("reason")
		found = found || (fam == "glm" && strings.HasPrefix(reason.(string), "declared available in the roster and its executable (opencode) is present, but its runner cannot be started: run_opencode.sh not found"))
	}
	if !found || get(rep, "panel_valid") != true {
		t.Errorf("report %s", matchproto.Marshal(rep))
	}
	if _, err := os.Stat(filepath.Join(dir, "panel", "raw", "glm")); err == nil {
		t.Error("an attempt directory was made for the absent seat")
	}
}

// metaStub is a launcher whose first attempt fails after writing
// meta.json and whose second votes without one.
type metaStub struct{ meta string }

func (s *metaStub) Run(_ context.Context, c Command) Outcome {
	vote := []byte("```json\n{\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```")
	if c.ReplyFile == "" { // a --runner override seat
		return Outcome{Stdout: vote}
	}
	dir := filepath.Dir(c.ReplyFile)
	if filepath.Base(dir) == "attempt1" {
		_ = os.WriteFile(filepath.Join(dir, "meta.json"), []byte(s.meta), 0o644)
		return Outcome{ExitCode: 1}
	}
	_ = os.WriteFile(c.ReplyFile, vote, 0o644)
	return Outcome{}
}

// The launcher's meta.json is read after every attempt that ran, failed
// ones included, and its label carries over, as model_label_from_meta is
// used by the reference; the model is rendered as Python's str().
func TestMetaModelLabel(t *testing.T) {
	for _, tt := range []struct{ meta, want string }{
		{`{"agents": [{"model": "codex/gpt-5.6-terra-0412"}]}`, "codex/gpt-5.6-terra-0412"},
		{`{"agents": [], "results": [{"model": ""}, {"model": 5}]}`, "5"},
		{`{"agents": [{"x": 1}, {"model": 2.50}]}`, "2.5"},
		{`{"agents": [{"model": true}]}`, "True"},
		{`{"agents": [{"model": 123456789012345678901234567890}]}`, "123456789012345678901234567890"},
		{`{"agents": [{"model": 1e400}]}`, "inf"},
		{`{"agents": {"model": "x"}, "results": [{"model": "y"}]}`, "codex/gpt-5.6-terra"},
		{`[1]`, "codex/gpt-5.6-terra"},
		{`{"agents": [{"model": "a"}], "agents": [{"model": "last"}]}`, "last"},
	} {
		dir, o := doctorEnv(t, "codex", "opencode", "kimi")
		o.Families = "gpt,glm,kimi"
		o.RunnerOverrides = []string{"glm=judge-one {prompt}", "kimi=judge-two {prompt}"}
		o.Runner = &metaStub{meta: tt.meta}
		must(t, RunPanel(t.Context(), o))
		v := readObj(t, filepath.Join(dir, "panel", "votes", "gpt.json"))
		if got := get(v, "model"); got != tt.want {
			t.Errorf("meta %s: model %v, want %q", tt.meta, got, tt.want)
		}
	}
}

// stdinStub records the stdin each judge was given.
type stdinStub struct {
	metaStub
	mu  sync.Mutex
	got []io.Reader
}

func (s *stdinStub) Run(ctx context.Context, c Command) Outcome {
	s.mu.Lock()
	s.got = append(s.got, c.Stdin)
	s.mu.Unlock()
	if c.ReplyFile != "" {
		_ = os.WriteFile(c.ReplyFile, []byte("```json\n{\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```"), 0o644)
		return Outcome{}
	}
	return s.metaStub.Run(ctx, c)
}

// Judges get the stdin the CLI passes on (its own, unless a terminal), as
// the reference's judges inherit run_panel.py's.
func TestJudgesGetTheStdin(t *testing.T) {
	_, o := doctorEnv(t, "codex", "opencode", "kimi")
	f, err := os.Open(os.DevNull)
	must(t, err)
	defer f.Close()
	o.Stdin = f
	r := &stdinStub{}
	o.Runner = r
	o.Families = "gpt,glm,kimi"
	must(t, RunPanel(t.Context(), o))
	if len(r.got) != 3 {
		t.Fatalf("%d judges ran", len(r.got))
	}
	for _, in := range r.got {
		if in != io.Reader(f) {
			t.Errorf("a judge got stdin %v", in)
		}
	}
}
