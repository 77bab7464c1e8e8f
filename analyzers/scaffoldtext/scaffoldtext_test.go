package scaffoldtext_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/internal/driver"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/analyzers/scaffoldtext"
)

// withAll is every registered analyzer plus this one (once, whether or not
// the registry already lists it), so the fixtures also prove that nothing
// else fires.
func withAll() []*analysis.Analyzer {
	as := analyzers.All()
	if !slices.Contains(as, scaffoldtext.Analyzer) {
		as = append(as, scaffoldtext.Analyzer)
	}
	return as
}

func TestVariants(t *testing.T) {
	ruletest.Run(t, "testdata/variants", withAll()...)
}

// TestFreshScaffold: `nullius lint` on a fresh `nullius scaffold` reports
// exactly the six stock sentences to replace and the five criteria not yet
// wired into worth (GAIA507, before any compile), and nothing else. The fixture
// is the scaffold's own output (pipeline/scaffold tests keep it current).
func TestFreshScaffold(t *testing.T) {
	pkgs, ds, err := analyzers.Discover([]string{"../../fixtures/extract/fresh-scaffold/example-idea-gaia"})
	if err != nil || len(pkgs) != 1 || len(ds) != 0 {
		t.Fatalf("Discover = %v, %v, %v", pkgs, ds, err)
	}
	got, err := driver.Run(pkgs[0].Dir, pkgs[0].Files, withAll(), driver.Options{Suppress: true})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Code, strings.SplitN(d.Message, " (", 2)[0]))
	}
	want := []string{
		`26:5 GAIA510 worth still holds the scaffold's stock sentence 'The idea merits sustained verification effort.'`,
		`33:5 GAIA510 tension_resolution still holds the scaffold's stock sentence 'The idea resolves an anchored open tension.'`,
		`38:5 GAIA510 downstream_reach still holds the scaffold's stock sentence "The idea's results feed an anchored chain of downstream problems."`,
		`43:5 GAIA510 mechanism_insight still holds the scaffold's stock sentence 'The idea supplies a new, testable mechanistic understanding.'`,
		`48:5 GAIA510 testability_timing still holds the scaffold's stock sentence 'The idea is testable within an open verification window.'`,
		`53:5 GAIA510 verification_cost still holds the scaffold's stock sentence 'A bounded, decisive first check of the idea exists.'`,
		`32:1 GAIA507 criterion 'tension_resolution' has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth`,
		`37:1 GAIA507 criterion 'downstream_reach' has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth`,
		`42:1 GAIA507 criterion 'mechanism_insight' has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth`,
		`47:1 GAIA507 criterion 'testability_timing' has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth`,
		`52:1 GAIA507 criterion 'verification_cost' has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("fresh scaffold findings:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"The idea merits sustained verification effort.", true},
		{"The idea merits sustained verification effort", true},
		{"  THE IDEA MERITS SUSTAINED\tVERIFICATION EFFORT ...", true},
		{"The idea\u2019s results feed an anchored chain of downstream problems.", true},
		{"A bounded next check or executed first check is recorded.", true},
		{"The idea merits sustained verification effort today.", false},
		{"The idea merits sustained verification.", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := scaffoldtext.IsStock(tt.in); got != tt.want {
			t.Errorf("IsStock(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if err := analysis.Validate([]*analysis.Analyzer{scaffoldtext.Analyzer}); err != nil {
		t.Error(err)
	}
}

// FuzzIsStock: normalization is idempotent and never matches text that
// has a letter or digit a stock sentence lacks.
func FuzzIsStock(f *testing.F) {
	for _, s := range scaffoldtext.StockSentences {
		f.Add(s)
	}
	f.Add("x")
	f.Fuzz(func(t *testing.T, s string) {
		n := sentinel.NormalizeSentence(s)
		if sentinel.NormalizeSentence(n) != n {
			t.Fatalf("Normalize not idempotent on %q: %q", s, n)
		}
		if scaffoldtext.IsStock(s) != scaffoldtext.IsStock(n) {
			t.Fatalf("IsStock differs on %q and its normal form", s)
		}
	})
}
