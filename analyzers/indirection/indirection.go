package indirection

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/internal/diag"
)

//go:embed doc.go
var doc string

// Analyzer is the indirection analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "indirection",
	Doc:      ruleutil.MustExtractDoc(doc, "indirection"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("indirection")

// The rules of this family, reported by their variables.
var (
	GAIA001 = &diag.Rule{
		Code: "GAIA001", Name: "statement-referenced-without-call", Severity: diag.Error,
		Title: "a gaia verb is referenced without being called",
		Text: `observe, infer and register_prior must be called directly where the statement is
written. Binding a verb to another name (i = infer), storing it (helpers = {"obs": observe}),
using it as a bare decorator, or reading its attributes lets statements escape the scan:
the later call i(...) carries no visible verb. The diagnostic sits at the reference as
written. Only references that resolve to a verb imported from a gaia module count (the
reference flagged any name spelled like a verb, W12). Call the verb directly.`,
		Bad:    "from gaia.engine.lang import infer\ni = infer\n",
		Good:   "from gaia.engine.lang import infer\n",
		Since:  "0.1.0",
		Origin: "reference", Owner: string(family),
	}
)

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		for _, r := range f.Refs {
			ruleutil.Report(pass, f.File, r.Span, GAIA001,
				"%s is referenced without being called (aliasing or indirection); call observe/infer/register_prior directly so every statement is auditable in place", ruleutil.Short(r.Text))
		}
	}
	return nil, nil
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA001,
	}
}

var _ = family.Declare(ruleList)
