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
// on top of the rules. Its allocations guard that the passes of a package
// share one array, one Report and one results map (no map, closure or
// Pass apiece).
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
