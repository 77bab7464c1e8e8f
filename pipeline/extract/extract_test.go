package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/analyzers/ir"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/progress"
	"github.com/nullius-dev/nullius/pipeline/gaiacli"
)

// env is one extraction scenario: a project root with .nullius/, a package
// under a directory with a space, the bash fake gaia and scripted checks.
type env struct {
	t       *testing.T
	root    string
	pkg     string
	log     string // the fake's call log
	static  []diag.Diagnostic
	ir      []diag.Diagnostic
	linted  bool
	opts    Options
	stderr  bytes.Buffer
	fixture string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, root: t.TempDir()}
	os.Mkdir(filepath.Join(e.root, ".nullius"), 0o755)
	e.pkg = filepath.Join(e.root, "argument graphs", "my-idea-gaia")
	os.MkdirAll(e.pkg, 0o755)
	e.log = filepath.Join(t.TempDir(), "calls.log")
	fix, _ := filepath.Abs("../../fixtures/extract")
	e.fixture = fix
	t.Setenv("FAKE_GAIA_LOG", e.log)
	t.Setenv("FAKE_GAIA_IR", filepath.Join(fix, "ir_sample.json"))
	t.Setenv("FAKE_GAIA_BELIEFS", filepath.Join(fix, "beliefs_sample.json"))
	for _, k := range []string{"FAKE_GAIA_FAIL", "FAKE_GAIA_VERSION", "FAKE_GAIA_HANG", "FAKE_GAIA_FAIL_OUTPUT", "FAKE_GAIA_FAIL_CODE"} {
		t.Setenv(k, "")
	}
	bin, _ := filepath.Abs("../../fixtures/fakegaia/gaia")
	e.opts = Options{
		Package:  e.pkg,
		GaiaBin:  bin,
		Log:      &e.stderr,
		Progress: progress.Discard,
		Checks: Checks{
			Static: func(string) ([]diag.Diagnostic, error) { e.linted = true; return e.static, nil },
			IR:     func(string, []byte) ([]diag.Diagnostic, error) { return e.ir, nil },
		},
	}
	return e
}

func (e *env) run() (*Result, error) {
	return Run(context.Background(), e.opts)
}

func (e *env) calls() string {
	data, _ := os.ReadFile(e.log)
	var stages []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) >= 2 {
			stages = append(stages, f[0]+" "+f[1])
		} else {
			stages = append(stages, f[0])
		}
	}
	return strings.Join(stages, ", ")
}

func (e *env) record() *DisciplineRecord {
	rec, err := ReadDisciplineRecord(e.pkg)
	if err != nil {
		e.t.Fatal(err)
	}
	return rec
}

func wantFailure(t *testing.T, err error, code string, env bool, msg string) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("err = %v, want a %s failure", err, code)
	}
	if f.Rule.Code != code || f.Environment != env || !strings.Contains(f.Msg, msg) {
		t.Fatalf("failure = %s (environment %v), want %s (environment %v) containing %q", f, f.Environment, code, env, msg)
	}
	return f
}

var offGrade = diag.Diagnostic{Code: "GAIA011", Name: "infer-off-grade-pair", Severity: diag.Error,
	Path: "src/my_idea/__init__.py", Line: 12, Column: 1, Message: "infer uses off-grade pair (0.85, 0.15)"}

const allStages = "--version, build compile, build check, run infer"

// TestRunHappyPath is conformance row 20 end to end through the fake gaia.
func TestRunHappyPath(t *testing.T) {
	e := newEnv(t)
	e.opts.Package = filepath.Join(e.pkg, ".") // resolved before use
	res, err := e.run()
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, e.stderr.String())
	}
	want := Posterior{Value: 0.8499370175790979, EvidenceCount: 2, ConnectedEvidenceCount: 2,
		GaiaPackageRef: "project://argument%20graphs/my-idea-gaia#sha256:" + irSampleSHA}
	if res.Posterior != want {
		t.Errorf("posterior = %+v\nwant %+v", res.Posterior, want)
	}
	if got := e.calls(); got != allStages {
		t.Errorf("calls = %q, want %q", got, allStages)
	}
	for _, s := range []string{"ok: build compile", "ok: build check", "ok: run infer"} {
		if !strings.Contains(e.stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, e.stderr.String())
		}
	}
	rec := e.record()
	if rec.Version != 1 || rec.Tool != "nullius" || rec.IRPin != "sha256:"+irSampleSHA || rec.ExplorationOnly || rec.Findings == nil || len(rec.Findings) != 0 {
		t.Errorf("discipline.json = %+v", rec)
	}
	raw, _ := os.ReadFile(filepath.Join(e.pkg, ".gaia", DisciplineFile))
	if !bytes.Contains(raw, []byte(`"findings": []`)) {
		t.Errorf("a clean run records findings as [], got:\n%s", raw)
	}
}

// TestRunRefusesOnLintErrors is row 62: no gaia call at all.
func TestRunRefusesOnLintErrors(t *testing.T) {
	e := newEnv(t)
	e.static = []diag.Diagnostic{offGrade}
	_, err := e.run()
	f := wantFailure(t, err, "GAIA204", false, "Refusing to extract")
	if !strings.Contains(f.Msg, "1 discipline violation(s)") || len(f.Findings) != 1 {
		t.Errorf("failure = %q with %d findings", f.Msg, len(f.Findings))
	}
	if got := e.calls(); got != "" {
		t.Errorf("gaia ran after a lint error: %q", got)
	}
	if !strings.Contains(e.stderr.String(), "GAIA011 infer uses off-grade pair") {
		t.Errorf("the finding is not shown:\n%s", e.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(e.pkg, ".gaia")); !os.IsNotExist(err) {
		t.Errorf("a refused run left .gaia behind: %v", err)
	}
}

// TestRunAllowedIsExplorationOnly is row 63 plus the W7 sidecar.
func TestRunAllowedIsExplorationOnly(t *testing.T) {
	e := newEnv(t)
	e.static = []diag.Diagnostic{offGrade, {Code: "GAIA901", Severity: diag.Warning, Message: "review"}}
	e.opts.AllowDisciplineWarnings = true
	res, err := e.run()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Posterior.GaiaPackageRef, "exploration-only:project://") || res.Posterior.Value != 0.8499370175790979 {
		t.Errorf("posterior = %+v", res.Posterior)
	}
	if !strings.Contains(e.stderr.String(), "allowed by --allow-discipline-warnings") {
		t.Errorf("stderr:\n%s", e.stderr.String())
	}
	rec := e.record()
	if !rec.ExplorationOnly || len(rec.Findings) != 1 || rec.Findings[0].Code != "GAIA011" || rec.IRPin != "sha256:"+irSampleSHA {
		t.Errorf("discipline.json = %+v; want exploration_only with the one error (warnings are not recorded)", rec)
	}
}

func TestRunSuppressedErrorMarksExploration(t *testing.T) {
	e := newEnv(t)
	sup := offGrade
	sup.Suppressed = true
	e.static = []diag.Diagnostic{sup}
	res, err := e.run()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Posterior.GaiaPackageRef, ExplorationPrefix) {
		t.Errorf("a suppressed error must still mark the ref: %q", res.Posterior.GaiaPackageRef)
	}
	if rec := e.record(); !rec.ExplorationOnly || len(rec.Findings) != 1 || !rec.Findings[0].Suppressed {
		t.Errorf("discipline.json = %+v", rec)
	}
	if want := "src/my_idea/__init__.py:12:1: GAIA011 [suppressed] infer uses off-grade pair (0.85, 0.15)\n"; !strings.Contains(e.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, e.stderr.String())
	}
}

func TestRunWarningsAloneDoNotMark(t *testing.T) {
	e := newEnv(t)
	e.static = []diag.Diagnostic{{Code: "GAIA901", Severity: diag.Warning, Message: "confirm the update target"}}
	e.opts.AllowDisciplineWarnings = true
	res, err := e.run()
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(res.Posterior.GaiaPackageRef, ExplorationPrefix) || e.record().ExplorationOnly {
		t.Errorf("review flags alone must not mark the result: %+v", res.Posterior)
	}
	if want := "-: GAIA901 [warning] confirm the update target\n"; !strings.Contains(e.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, e.stderr.String())
	}
}

// TestRunIRFindingsAreNeverAllowed: GAIA1xx stops after compile, even with
// the flag, and discipline.json records the finding for that pin.
func TestRunIRFindingsAreNeverAllowed(t *testing.T) {
	e := newEnv(t)
	e.ir = []diag.Diagnostic{{Code: "GAIA110", Severity: diag.Error, Path: ".gaia/ir.json",
		Message: `expected exactly one exported conclusion labelled 'worth'; migrate to __all__ = ["worth"]`}}
	e.opts.AllowDisciplineWarnings = true
	_, err := e.run()
	f := wantFailure(t, err, "GAIA204", false, "compiled-IR contract violation")
	if len(f.Findings) != 1 {
		t.Errorf("findings = %v", f.Findings)
	}
	if got := e.calls(); got != "--version, build compile" {
		t.Errorf("calls = %q; check and infer must not run", got)
	}
	if rec := e.record(); !rec.ExplorationOnly || len(rec.Findings) != 1 || rec.IRPin != "sha256:"+irSampleSHA {
		t.Errorf("discipline.json = %+v", rec)
	}
}

func TestRunVersionAndBinary(t *testing.T) {
	t.Run("mismatch", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("FAKE_GAIA_VERSION", "gaia-lang 0.5.0a41")
		_, err := e.run()
		f := wantFailure(t, err, "GAIA203", true, `version mismatch: expected exactly 0.5.0a4, got "gaia-lang 0.5.0a41"`)
		if !strings.Contains(f.Hint, "gaia-lang==0.5.0a4") {
			t.Errorf("hint = %q", f.Hint)
		}
		if got := e.calls(); got != "--version" {
			t.Errorf("calls = %q", got)
		}
	})
	t.Run("missing binary", func(t *testing.T) {
		e := newEnv(t)
		e.opts.GaiaBin = filepath.Join(t.TempDir(), "gaia")
		_, err := e.run()
		f := wantFailure(t, err, "GAIA202", true, "could not run")
		if !strings.Contains(f.Hint, "gaia-lang==0.5.0a4") {
			t.Errorf("hint = %q", f.Hint)
		}
	})
	t.Run("nothing on PATH", func(t *testing.T) {
		e := newEnv(t)
		e.opts.GaiaBin = ""
		t.Setenv("GAIA_BIN", "")
		t.Setenv("PATH", t.TempDir())
		_, err := e.run()
		wantFailure(t, err, "GAIA202", true, "no gaia executable found")
	})
}

// TestRunStageFailures: each failing stage is GAIA205 with the tool's own
// output, and no later stage runs.
func TestRunStageFailures(t *testing.T) {
	tests := []struct{ stage, name, calls string }{
		{"compile", "build compile", "--version, build compile"},
		{"check", "build check", "--version, build compile, build check"},
		{"infer", "run infer", allStages},
	}
	for _, tt := range tests {
		t.Run(tt.stage, func(t *testing.T) {
			e := newEnv(t)
			t.Setenv("FAKE_GAIA_FAIL", tt.stage)
			t.Setenv("FAKE_GAIA_FAIL_CODE", "3")
			t.Setenv("FAKE_GAIA_FAIL_OUTPUT", "TypeError: exclusive() takes 2 positional arguments")
			_, err := e.run()
			f := wantFailure(t, err, "GAIA205", false, tt.name+": `")
			if !strings.Contains(f.Msg, "failed (exit 3)") || !strings.Contains(f.Output, "TypeError: exclusive()") {
				t.Errorf("failure = %q, output %q", f.Msg, f.Output)
			}
			if got := e.calls(); got != tt.calls {
				t.Errorf("calls = %q, want %q", got, tt.calls)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("FAKE_GAIA_HANG", "compile")
		e.opts.StageTimeout = 300 * time.Millisecond
		_, err := e.run()
		wantFailure(t, err, "GAIA205", true, "timed out after")
	})
}

func TestRunRenderNeverGates(t *testing.T) {
	e := newEnv(t)
	e.opts.Render = true
	t.Setenv("FAKE_GAIA_FAIL", "render")
	if _, err := e.run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.stderr.String(), "render skipped") {
		t.Errorf("stderr:\n%s", e.stderr.String())
	}
	if got := e.calls(); got != allStages+", run render" {
		t.Errorf("calls = %q", got)
	}
}

// TestRunLayoutChecksComeFirst: W18, rows 26 and 29; nothing runs, not
// even the lint.
func TestRunLayoutChecksComeFirst(t *testing.T) {
	t.Run("package is root", func(t *testing.T) {
		e := newEnv(t)
		os.Mkdir(filepath.Join(e.pkg, ".nullius"), 0o755)
		_, err := e.run()
		wantFailure(t, err, "GAIA211", true, "IS the project root")
		if e.linted || e.calls() != "" {
			t.Errorf("something ran: linted %v, calls %q", e.linted, e.calls())
		}
	})
	t.Run("outside root", func(t *testing.T) {
		e := newEnv(t)
		e.opts.ProjectRoot = t.TempDir()
		_, err := e.run()
		wantFailure(t, err, "GAIA210", true, "not under the project root")
		if e.linted || e.calls() != "" {
			t.Errorf("something ran: linted %v, calls %q", e.linted, e.calls())
		}
	})
	t.Run("no root", func(t *testing.T) {
		e := newEnv(t)
		os.Remove(filepath.Join(e.root, ".nullius"))
		_, err := e.run()
		wantFailure(t, err, "GAIA201", true, "no project root found")
	})
	t.Run("bad root flag", func(t *testing.T) {
		e := newEnv(t)
		e.opts.ProjectRoot = filepath.Join(e.root, "nope")
		_, err := e.run()
		wantFailure(t, err, "GAIA201", true, "project root not found")
	})
	t.Run("no package", func(t *testing.T) {
		e := newEnv(t)
		e.opts.Package = filepath.Join(e.root, "missing")
		_, err := e.run()
		wantFailure(t, err, "GAIA200", true, "package directory not found")
	})
	t.Run("symlinked package resolves", func(t *testing.T) {
		e := newEnv(t)
		link := filepath.Join(t.TempDir(), "link")
		os.Symlink(e.pkg, link)
		e.opts.Package = link
		res, err := e.run()
		if err != nil || !strings.HasPrefix(res.Posterior.GaiaPackageRef, "project://argument%20graphs/my-idea-gaia#") {
			t.Fatalf("Run = %+v, %v", res, err)
		}
	})
}

func TestRunExtractionFailures(t *testing.T) {
	t.Run("row22 missing beliefs", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("FAKE_GAIA_BELIEFS", "")
		_, err := e.run()
		wantFailure(t, err, "GAIA206", false, "run the inference stages first")
	})
	t.Run("missing ir", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("FAKE_GAIA_IR", "")
		_, err := e.run()
		wantFailure(t, err, "GAIA206", false, "ir.json")
	})
	t.Run("W11 stale beliefs", func(t *testing.T) {
		e := newEnv(t)
		var top map[string]any
		json.Unmarshal(readFixture(t, "beliefs_sample.json"), &top)
		top["ir_hash"] = "sha256:" + strings.Repeat("0", 64)
		data, _ := json.Marshal(top)
		p := filepath.Join(t.TempDir(), "beliefs.json")
		os.WriteFile(p, data, 0o644)
		t.Setenv("FAKE_GAIA_BELIEFS", p)
		_, err := e.run()
		wantFailure(t, err, "GAIA212", false, "re-run gaia run infer")
	})
	t.Run("beliefs not an object", func(t *testing.T) {
		e := newEnv(t)
		p := filepath.Join(t.TempDir(), "beliefs.json")
		os.WriteFile(p, []byte("[]"), 0o644)
		t.Setenv("FAKE_GAIA_BELIEFS", p)
		_, err := e.run()
		wantFailure(t, err, "GAIA207", false, "not a JSON object")
	})
	t.Run("W9 connected count", func(t *testing.T) {
		e := newEnv(t)
		t.Setenv("FAKE_GAIA_IR", filepath.Join(e.fixture, "ir_w09_disconnected_observation.json"))
		t.Setenv("FAKE_GAIA_BELIEFS", filepath.Join(e.fixture, "beliefs_w09_disconnected_observation.json"))
		res, err := e.run()
		if err != nil {
			t.Fatal(err)
		}
		if res.Posterior.EvidenceCount != 3 || res.Posterior.ConnectedEvidenceCount != 2 ||
			!strings.HasSuffix(res.Posterior.GaiaPackageRef, irW09SHA) {
			t.Errorf("posterior = %+v", res.Posterior)
		}
	})
}

// TestPinBindsExportedFlags is row 64: Gaia's ir_hash ignores exported,
// the pin does not.
func TestPinBindsExportedFlags(t *testing.T) {
	data := readFixture(t, "ir_sample.json")
	flipped := bytes.Replace(data, []byte(`"exported": true`), []byte(`"exported": false`), 1)
	if bytes.Equal(data, flipped) {
		t.Fatal("fixture has no exported root")
	}
	if ir.CompiledIRPin(data) == ir.CompiledIRPin(flipped) {
		t.Error("pins of IR files differing only in exported are equal")
	}
}

var _ gaiacli.Gaia = (*gaiacli.CLI)(nil)

// TestRunRefusesSymlinkedArtifacts: a symlinked ir.json could pin bytes
// that live outside the package the ref names.
func TestRunRefusesSymlinkedArtifacts(t *testing.T) {
	e := newEnv(t)
	e.opts.Gaia = symlinkingGaia{CLI: &gaiacli.CLI{Bin: e.opts.GaiaBin}, target: filepath.Join(e.fixture, "ir_sample.json")}
	_, err := e.run()
	wantFailure(t, err, "GAIA206", false, "is not a regular file")
}

// symlinkingGaia compiles by linking ir.json to a file elsewhere.
type symlinkingGaia struct {
	*gaiacli.CLI
	target string
}

func (g symlinkingGaia) Compile(ctx context.Context, pkg string) (gaiacli.Result, error) {
	os.MkdirAll(filepath.Join(pkg, ".gaia"), 0o755)
	return gaiacli.Result{Args: []string{"gaia", "build", "compile", pkg}}, os.Symlink(g.target, ir.IRPath(pkg))
}

func TestPackageRelative(t *testing.T) {
	pkg := t.TempDir()
	ds := []diag.Diagnostic{
		{Path: filepath.ToSlash(filepath.Join(pkg, ".gaia", "ir.json"))},
		{Path: filepath.ToSlash(filepath.Join(pkg, "src", "m", "__init__.py"))},
		{Path: "/elsewhere/x.py"},
	}
	got := packageRelative(pkg, ds)
	want := []string{".gaia/ir.json", "src/m/__init__.py", "/elsewhere/x.py"}
	for i := range want {
		if got[i].Path != want[i] {
			t.Errorf("path %d = %q, want %q", i, got[i].Path, want[i])
		}
	}
	if ds[0].Path == got[0].Path {
		t.Error("the caller's findings were modified")
	}
}

// Each gaia stage is reported running, then ok or failed with how long it
// took (issue 16: a stage that takes minutes showed nothing).
func TestStageProgress(t *testing.T) {
	stages := func(r *progress.Recorder) []string {
		var out []string
		for _, e := range r.Events() {
			switch {
			case e.Kind == progress.KindDone:
				out = append(out, "done "+e.State)
			case e.Kind != progress.KindStage || (e.State != progress.StageRunning && e.Elapsed <= 0):
				t.Errorf("event %+v", e)
			default:
				out = append(out, e.Stage+" "+e.State)
			}
		}
		return out
	}
	e := newEnv(t)
	rec := &progress.Recorder{}
	e.opts.Progress = rec
	if _, err := e.run(); err != nil {
		t.Fatal(err)
	}
	want := []string{"gaia --version running", "gaia --version ok", "gaia build compile running", "gaia build compile ok",
		"compiled-IR checks running", "compiled-IR checks ok", "gaia build check running", "gaia build check ok",
		"gaia run infer running", "gaia run infer ok", "done ok"}
	if got := stages(rec); !slices.Equal(got, want) {
		t.Errorf("stages\n%q\nwant\n%q", got, want)
	}

	e = newEnv(t)
	t.Setenv("FAKE_GAIA_FAIL", "check")
	rec = &progress.Recorder{}
	e.opts.Progress = rec
	if _, err := e.run(); err == nil {
		t.Fatal("a failing check passed")
	}
	if got := stages(rec); !slices.Equal(got[len(got)-2:], []string{"gaia build check failed", "done refused"}) {
		t.Errorf("stages %q, want the check failed, then the extraction refused", got)
	}

	e.opts.Progress = nil
	if _, err := e.run(); err == nil || !strings.Contains(err.Error(), "Progress is required") {
		t.Errorf("Run without Progress: %v", err)
	}
}
