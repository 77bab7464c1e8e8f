package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/scaffoldtext"
)

// freshFixture is the scaffold's output checked in for the analyzers'
// tests (analyzers/scaffoldtext lints it); it must never drift from what
// Create writes. Regenerate with:
//
//	rm -r fixtures/extract/fresh-scaffold/example-idea-gaia &&
//	go run ./cmd/nullius scaffold --slug example-idea --dest fixtures/extract/fresh-scaffold
const freshFixture = "../../fixtures/extract/fresh-scaffold/example-idea-gaia"

func TestFreshScaffoldFixtureIsCurrent(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":               Pyproject("example-idea"),
		".python-version":              PythonVersion,
		"src/example_idea/__init__.py": Template("example-idea"),
	}
	for rel, want := range files {
		got, err := os.ReadFile(filepath.Join(freshFixture, rel))
		if err != nil || string(got) != want {
			t.Errorf("%s is stale (err %v); regenerate it (see freshFixture)", rel, err)
		}
	}
	if got := tree(t, freshFixture); len(got) != 5 {
		t.Errorf("fixture tree = %v, want exactly the three files", got)
	}
}

// TestStockSentencesAreDetected: every sentence the template writes is one
// GAIA510 (source) reports, so a fresh scaffold lints to exactly them.
func TestStockSentencesAreDetected(t *testing.T) {
	for _, s := range StockSentences {
		if !slices.Contains(scaffoldtext.StockSentences, s) || !scaffoldtext.IsStock(s) {
			t.Errorf("template sentence %q is not a GAIA510 stock sentence", s)
		}
	}
	if len(StockSentences) != 1+len(Criteria) {
		t.Errorf("%d stock sentences for %d claims", len(StockSentences), 1+len(Criteria))
	}
}
