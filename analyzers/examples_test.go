package analyzers_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
)

// sourceRules are the codes the source scan owns; each rule's Bad example
// must produce its code and its Good example must not, so `nullius
// explain` never shows an example the analyzer disagrees with.
var sourceRules = []string{
	"GAIA000", "GAIA001", "GAIA010", "GAIA011", "GAIA012", "GAIA013", "GAIA014",
	"GAIA020", "GAIA030", "GAIA031", "GAIA032", "GAIA033", "GAIA034",
	"GAIA501", "GAIA502", "GAIA503", "GAIA504", "GAIA505", "GAIA506", "GAIA508", "GAIA509",
	"GAIA901", "GAIA902", "NULLIUS001", "NULLIUS002",
}

func codesOf(t *testing.T, src string) []string {
	t.Helper()
	dir := t.TempDir()
	mod := filepath.Join(dir, "src", "ex")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"ex-gaia\"\n")
	write(t, filepath.Join(mod, "__init__.py"), src)
	res, err := analyzers.Lint([]string{dir}, analyzers.Options{NoIR: true})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range res.Diagnostics {
		codes = append(codes, d.Code)
	}
	return codes
}

func TestRuleExamples(t *testing.T) {
	for _, code := range sourceRules {
		r, ok := diag.Lookup(code)
		if !ok {
			t.Errorf("%s is not registered", code)
			continue
		}
		t.Run(code, func(t *testing.T) {
			if r.Title == "" || r.Text == "" || r.Bad == "" || r.Good == "" || r.Since == "" || r.Origin == "" {
				t.Fatalf("%s has incomplete docs: %+v", code, r)
			}
			if got := codesOf(t, r.Bad); !slices.Contains(got, code) {
				t.Errorf("Bad example does not report %s (got %v):\n%s", code, got, r.Bad)
			}
			if got := codesOf(t, r.Good); slices.Contains(got, code) {
				t.Errorf("Good example reports %s:\n%s", code, r.Good)
			}
		})
	}
}
