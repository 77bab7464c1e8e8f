package analyzers

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/pyscan"
)

// TestPanicIsThePackagesDiagnostic: a panic while one package is linted
// is that package's NULLIUS004, naming it; the run goes on with the
// others and keeps their findings.
func TestPanicIsThePackagesDiagnostic(t *testing.T) {
	e, err := newEngine(Options{NoIR: true})
	if err != nil {
		t.Fatal(err)
	}
	boom := &analysis.Analyzer{Name: "boom", Doc: "panic on the bad fixture", Run: func(pass *analysis.Pass) (any, error) {
		if strings.HasSuffix(pass.Pkg.Path(), "/bad") {
			panic("boom")
		}
		return nil, nil
	}}
	e.whole = append(e.whole, boom)
	bad, w02 := filepath.Join("..", "fixtures", "lint", "bad"), filepath.Join("..", "fixtures", "lint", "w02_ungraded_coupling")
	res, err := e.run([]string{bad, w02})
	if err != nil {
		t.Fatal(err)
	}
	var internal, others int
	for _, d := range res.Diagnostics {
		switch {
		case d.Code == "NULLIUS004":
			internal++
			if d.Path != "../fixtures/lint/bad/pyproject.toml" || !strings.Contains(d.Message, "internal error while linting package ../fixtures/lint/bad: boom") {
				t.Errorf("internal error diagnostic %v", d)
			}
		case strings.HasPrefix(d.Path, "../fixtures/lint/bad/"):
			t.Errorf("finding of the package that panicked: %v", d)
		default:
			others++
		}
	}
	if internal != 1 || others == 0 {
		t.Errorf("%d internal errors, %d findings of the other package; want 1 and some: %v", internal, others, res.Diagnostics)
	}
}

// The two analyzer sets are fixed when nullius is built, so they are
// validated here rather than by every lint run (the engine tells the
// driver they are valid).
func TestAnalyzerSetsValid(t *testing.T) {
	for _, partial := range []bool{false, true} {
		if err := analysis.Validate(forFiles(partial)); err != nil {
			t.Errorf("forFiles(%v): %v", partial, err)
		}
	}
	e, err := newEngine(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.whole) != len(All()) || len(e.partial) != len(All())-1 {
		t.Errorf("engine sets: %d whole, %d partial analyzers of %d", len(e.whole), len(e.partial), len(All()))
	}
}

// A run given the working directory (Options.WorkDir, which the CLI has
// asked for already) does not ask the OS again; one without it asks once.
func TestLintAsksWorkDirOnce(t *testing.T) {
	calls := 0
	getwd = func() (string, error) { calls++; return os.Getwd() }
	defer func() { getwd = os.Getwd }()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	good := filepath.Join("..", "fixtures", "lint", "good")
	for _, tc := range []struct {
		wd    string
		calls int
	}{{wd, 0}, {"", 1}} {
		calls = 0
		res, err := Lint([]string{good}, Options{WorkDir: tc.wd})
		if err != nil || len(res.Packages) != 1 || len(res.Diagnostics) != 0 {
			t.Fatalf("Lint(WorkDir %q) = %+v, %v", tc.wd, res, err)
		}
		if calls != tc.calls {
			t.Errorf("Lint(WorkDir %q) asked for the working directory %d times, want %d", tc.wd, calls, tc.calls)
		}
	}
}

// A finished worker hands its parser on instead of closing it: a second
// run makes no new parser, and however many workers a run had, at most
// GOMAXPROCS parsers are kept idle.
func TestWorkersReuseParsers(t *testing.T) {
	var made atomic.Int64
	newParser = func() *pyscan.Parser { made.Add(1); return pyscan.NewParser() }
	defer func() { newParser = pyscan.NewParser }()
	idle.mu.Lock()
	for _, p := range idle.ps {
		p.Close()
	}
	idle.ps = nil
	idle.mu.Unlock()
	good := filepath.Join("..", "fixtures", "lint", "good")
	for run := 1; run <= 2; run++ {
		if _, err := Lint([]string{good}, Options{}); err != nil {
			t.Fatal(err)
		}
		if n := made.Load(); n != 1 {
			t.Fatalf("after run %d: %d parsers made, want 1 (the first run's, reused)", run, n)
		}
	}
	workers := runtime.GOMAXPROCS(0) + 3
	if _, err := Lint([]string{filepath.Join("..", "fixtures", "lint")}, Options{Workers: workers}); err != nil {
		t.Fatal(err)
	}
	idle.mu.Lock()
	kept := len(idle.ps)
	idle.mu.Unlock()
	if kept > runtime.GOMAXPROCS(0) || kept == 0 {
		t.Errorf("%d parsers kept idle after a run of %d workers; want 1 to GOMAXPROCS (%d)", kept, workers, runtime.GOMAXPROCS(0))
	}
}

// A parser that parsed a module over keepParsersUpTo bytes is closed, not
// kept idle with a node buffer sized for that module.
func TestBigModuleParserNotKept(t *testing.T) {
	idle.mu.Lock()
	for _, p := range idle.ps {
		p.Close()
	}
	idle.ps = nil
	idle.mu.Unlock()
	dir := t.TempDir()
	src := "from gaia.engine.lang import claim\n\n" + strings.Repeat("# a comment line that pads the module\n", keepParsersUpTo/38+1)
	for p, b := range map[string]string{
		"pyproject.toml":                 "[project]\nname = \"big-gaia\"\n",
		"src/big/__init__.py":            src,
		"../small/pyproject.toml":        "[project]\nname = \"small-gaia\"\n",
		"../small/src/small/__init__.py": "from gaia.engine.lang import claim\n",
	} {
		p = filepath.Join(dir, "big", p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		pkg  string
		kept int
	}{{"big", 0}, {"small", 1}} {
		if _, err := Lint([]string{filepath.Join(dir, tc.pkg)}, Options{}); err != nil {
			t.Fatal(err)
		}
		idle.mu.Lock()
		kept := len(idle.ps)
		idle.mu.Unlock()
		if kept != tc.kept {
			t.Errorf("after linting %s: %d parsers kept idle, want %d", tc.pkg, kept, tc.kept)
		}
	}
}

// A panic in the walk, before the workers start or once they run, ends
// the run with the internal error; the workers it started are not left
// waiting for jobs that will never come (a hang is this test's failure).
func TestWalkPanicEndsTheRun(t *testing.T) {
	defer func() { afterEmit = func(int) {} }()
	for _, at := range []int{0, 1, 2, 5} {
		afterEmit = func(seq int) {
			if seq == at {
				panic("walk broke")
			}
		}
		res, err := Lint([]string{filepath.Join("..", "fixtures", "lint")}, Options{Workers: 2})
		if err == nil || !strings.Contains(err.Error(), "internal error while discovering packages: walk broke") || res != nil {
			t.Errorf("panic at job %d: got %v, %v; want the internal error", at, res, err)
		}
	}
}

// TestParallelHook: Options.Parallel is called once when a run starts its
// workers, never by a run of one package, and its done function only
// after every worker has finished (every package counted in Finished).
func TestParallelHook(t *testing.T) {
	for _, c := range []struct {
		path  string
		calls int
	}{
		{filepath.Join("..", "fixtures", "lint"), 1},
		{filepath.Join("..", "fixtures", "lint", "good"), 0},
	} {
		var finished atomic.Int64
		calls, dones := 0, 0
		var atDone int64 = -1
		opts := Options{Workers: 2, Finished: &finished, Parallel: func() func() {
			calls++
			return func() { dones++; atDone = finished.Load() }
		}}
		if _, err := Lint([]string{c.path}, opts); err != nil {
			t.Fatal(err)
		}
		if calls != c.calls || dones != c.calls {
			t.Errorf("%s: Parallel called %d times, done %d; want %d", c.path, calls, dones, c.calls)
		}
		if c.calls > 0 && atDone != finished.Load() {
			t.Errorf("%s: done ran with %d of %d jobs finished", c.path, atDone, finished.Load())
		}
	}
}
