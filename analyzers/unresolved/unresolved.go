package unresolved

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

//go:embed doc.go
var doc string

// Analyzer is the unresolved analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "unresolved",
	Doc:      ruleutil.MustExtractDoc(doc, "unresolved"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("unresolved")

// The rules of this family, reported by their variables.
var (
	GAIA902 = &diag.Rule{
		Code: "GAIA902", Name: "unresolved-verb-call", Severity: diag.Warning,
		Title: "a call spelled like a gaia verb could not be resolved",
		Text: `nullius decides which calls are Gaia statements by resolving names to imports from gaia
modules. A call or reference spelled observe, infer or register_prior whose name is bound
nowhere (no import at all, or only a star import from a non-gaia module), or whose receiver
is a runtime value (obj().infer(...), an unknown global), cannot be proven not to be a Gaia
statement, so it is not checked and is flagged for review instead. The flag sits at the
callee. Import the verb from gaia.engine.lang so the statement is checked, or rename the
helper.`,
		Bad:    "infer(\"E.\", hypothesis=h, p_e_given_h=0.9, p_e_given_not_h=0.09)\n",
		Good:   "from gaia.engine.lang import claim\nh = claim(\"H.\")\n",
		Since:  "0.1.0",
		Origin: "nullius", Owner: string(family),
	}
)

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		for _, r := range f.Unresolved {
			what := "reference to"
			if r.Call != nil {
				what = "call of"
			}
			ruleutil.Report(pass, f.File, r.Span, GAIA902,
				"could not prove this %s %s is not a Gaia statement; import %s from gaia.engine.lang or rename it", what, pyfmt.Str(ruleutil.Short(r.Text)), r.Verb)
		}
	}
	return nil, nil
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA902,
	}
}

var _ = family.Declare(ruleList)
