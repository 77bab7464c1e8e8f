package driver_test

import (
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/internal/driver"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/analyzers/syntax"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/testrace"
	"github.com/nullius-dev/nullius/pyscan"
)

func writeFile(t testing.TB, dir, name string, src []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(p)
}

func TestRegistryValidates(t *testing.T) {
	if err := analysis.Validate(analyzers.All()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range analyzers.All() {
		if seen[a.Name] {
			t.Errorf("analyzer %s listed twice", a.Name)
		}
		seen[a.Name] = true
		title, _, _ := strings.Cut(a.Doc, "\n")
		if title == "" || strings.HasSuffix(title, ".") || strings.ToLower(title[:1]) != title[:1] {
			t.Errorf("analyzer %s: Doc title %q must be lowercase without a period", a.Name, title)
		}
	}
}

func TestRunRejectsBrokenAnalyzers(t *testing.T) {
	file := writeFile(t, t.TempDir(), "m.py", []byte("x = 1\n"))
	reportAt := func(code string) *analysis.Analyzer {
		return &analysis.Analyzer{
			Name: "reporter", Doc: "report something", Requires: []*analysis.Analyzer{pyparse.Analyzer},
			Run: func(pass *analysis.Pass) (any, error) {
				f := pass.ResultOf[pyparse.Analyzer].(*pyparse.Result).Files[0]
				pass.Report(analysis.Diagnostic{Pos: f.Pos(0), Category: code, Message: "m"})
				return nil, nil
			},
		}
	}
	tests := []struct {
		name string
		a    *analysis.Analyzer
		want string
	}{
		{"bad name", &analysis.Analyzer{Name: "bad-name", Doc: "d", Run: func(*analysis.Pass) (any, error) { return nil, nil }}, "invalid analyzer name"},
		{"unregistered code", reportAt("GAIA999"), `unregistered rule code "GAIA999"`},
		{"no code", reportAt(""), `unregistered rule code ""`},
		{"code of another analyzer", reportAt("GAIA011"), `analyzer reporter reported GAIA011, which belongs to "grades"`},
		{"wrong result type", &analysis.Analyzer{Name: "typed", Doc: "d", ResultType: reflect.TypeFor[int](),
			Run: func(*analysis.Pass) (any, error) { return "str", nil }}, "returned string"},
	}
	for _, tt := range tests {
		_, err := driver.Run(".", []string{file}, []*analysis.Analyzer{tt.a}, driver.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestUnreadableAndHugeFilesAreGAIA000(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "dir.py")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	huge := writeFile(t, dir, "huge.py", []byte("x = 1\n"+strings.Repeat("#", pyparse.MaxFileSize)))
	bad := writeFile(t, dir, "latin1.py", []byte("x = 1\ny = '\xe9'\n"))
	ds, err := driver.Run(dir, []string{filepath.ToSlash(sub), huge, bad}, []*analysis.Analyzer{syntax.Analyzer}, driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds = diag.SortDedup(ds)
	want := []struct {
		path, msg string
		line, col int
	}{
		{filepath.ToSlash(sub), "module cannot be read", 1, 1},
		{huge, "larger than the 8 MiB limit", 1, 1},
		{bad, "invalid UTF-8 byte 0xe9", 2, 6},
	}
	if len(ds) != len(want) {
		t.Fatalf("got %v", ds)
	}
	for i, w := range want {
		d := ds[i]
		if d.Code != "GAIA000" || d.Path != w.path || d.Line != w.line || d.Column != w.col || !strings.Contains(d.Message, w.msg) {
			t.Errorf("got %v, want %s:%d:%d %q", d, w.path, w.line, w.col, w.msg)
		}
	}
}

func TestReadFileIsRestrictedToThePackage(t *testing.T) {
	dir := t.TempDir()
	own := writeFile(t, dir, "own.py", []byte("x = 1\n"))
	other := writeFile(t, dir, "other.py", []byte("y = 2\n"))
	var readErr error
	a := &analysis.Analyzer{Name: "reader", Doc: "read another file", Run: func(pass *analysis.Pass) (any, error) {
		_, readErr = pass.ReadFile(other)
		return nil, nil
	}}
	if _, err := driver.Run(dir, []string{own}, []*analysis.Analyzer{a}, driver.Options{}); err != nil {
		t.Fatal(err)
	}
	if readErr == nil || !strings.Contains(readErr.Error(), "not a file of this package") {
		t.Errorf("ReadFile outside the package: %v", readErr)
	}
}

// FuzzRun runs every analyzer over arbitrary module text: the driver must
// never fail or panic, and every diagnostic must be registered and located.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"from gaia.engine.lang import infer\ninfer('E.', hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale='reader_reasoning: r. anchor: a')\n",
		"import gaia.engine.lang as lang\nx = lang.infer\nlang.observe(1, rationale=f'{x}')\n",
		"from gaia.engine.lang import *\nregister_prior(h, -1, justification=None)\n# nullius: ignore[GAIA020]\n",
		"def f(observe=None):\n    return observe\nfor i in range(3): print(i)\n",
		"infer(\n", "\xff\xfe", "x = '''\n", "exclusive(*a)\nassociate(a, b)\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		file := writeFile(t, dir, "m.py", src)
		ds, err := driver.Run(dir, []string{file}, analyzers.All(), driver.Options{Suppress: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if _, ok := diag.Lookup(d.Code); !ok || d.Line < 1 || d.Column < 1 || d.Path != file || strings.Contains(d.Message, "\n") {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
	})
}

// BenchmarkRunParsed runs every analyzer over the good fixture, parsed
// beforehand as the lint engine does: the driver's own cost per package
// on top of the rules. Its allocations guard that the analyzers of a
// package share one Pass, one Report and one results map (no map, closure
// or Pass apiece), all kept by a runner reused from package to package.
func BenchmarkRunParsed(b *testing.B) {
	dir := filepath.Join("..", "..", "..", "fixtures", "lint", "good")
	files := []string{filepath.ToSlash(filepath.Join(dir, "src", "sterile_neutrino", "__init__.py"))}
	p := pyscan.NewParser()
	defer p.Close()
	fset := token.NewFileSet()
	parsed := pyparse.ParseWith(p, fset, files, nil, nil)
	as := analyzers.All()
	if err := analysis.Validate(as); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := driver.RunParsed(dir, files, as, driver.Options{Parsed: parsed, Fset: fset, Validated: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunnerReuse runs packages one after another, as a lint worker does,
// with runners reused between them: a run sees only its own results (an
// analyzer that ran for the previous package runs again) and reports
// only its own findings, and the driver's allocations per run stay those
// that cannot be shared (the package, the findings).
func TestRunnerReuse(t *testing.T) {
	dir := t.TempDir()
	files := []string{writeFile(t, dir, "a.py", []byte("x = 1\n")), writeFile(t, dir, "b.py", []byte("\xff\n"))}
	runs := 0
	counter := &analysis.Analyzer{Name: "counter", Doc: "count runs", Requires: []*analysis.Analyzer{pyparse.Analyzer},
		ResultType: reflect.TypeFor[int](),
		Run: func(pass *analysis.Pass) (any, error) {
			runs++
			if pass.Analyzer.Name != "counter" {
				t.Errorf("counter's pass is %s's", pass.Analyzer.Name)
			}
			return runs, nil
		}}
	user := &analysis.Analyzer{Name: "user", Doc: "use the count", Requires: []*analysis.Analyzer{counter},
		Run: func(pass *analysis.Pass) (any, error) {
			if n := pass.ResultOf[counter].(int); n != runs {
				t.Errorf("ResultOf[counter] = %d, want this run's %d", n, runs)
			}
			if pass.Analyzer.Name != "user" || pass.Pkg == nil || pass.Pkg.Path() != filepath.ToSlash(dir) || pass.TypesSizes == nil || pass.TypesInfo == nil || pass.ReadFile == nil {
				t.Errorf("run %d: a pass lacks a field go/analysis documents: %+v", runs, pass)
			}
			return nil, nil
		}}
	as := []*analysis.Analyzer{syntax.Analyzer, user}
	for i := range 6 {
		f := files[i%2]
		ds, err := driver.Run(dir, []string{f}, as, driver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if runs != i+1 {
			t.Fatalf("run %d: counter ran %d times in all, want %d", i, runs, i+1)
		}
		if want := i % 2; len(ds) != want || want == 1 && ds[0].Path != f {
			t.Errorf("run %d over %s: %d findings %v, want %d of its own", i, f, len(ds), ds, want)
		}
	}
	if testrace.Enabled {
		return
	}
	p := pyscan.NewParser()
	defer p.Close()
	fset := token.NewFileSet()
	parsed := pyparse.ParseWith(p, fset, files[:1], nil, nil)
	opts := driver.Options{Parsed: parsed, Fset: fset, Validated: true}
	allocs := testing.AllocsPerRun(50, func() {
		if _, _, err := driver.RunParsed(dir, files[:1], as, opts); err != nil {
			t.Fatal(err)
		}
	})
	// types.NewPackage (its package, scope and scope name), the
	// converted findings, counter's boxed int.
	if allocs > 6 {
		t.Errorf("RunParsed allocates %v times per run, want at most 6: runners are not reused", allocs)
	}
}
