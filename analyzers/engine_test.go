package analyzers

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
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
