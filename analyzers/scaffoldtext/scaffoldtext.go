package scaffoldtext

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the scaffoldtext analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "scaffoldtext",
	Doc:      ruleutil.MustExtractDoc(doc, "scaffoldtext"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

// StockSentences are the seven stock sentences (gaia-discipline.md §2.4),
// shared with the compiled-IR check GAIA122.
var StockSentences = sentinel.StockSentences

// IsStock reports whether content is a stock sentence after sentinel.NormalizeSentence.
func IsStock(content string) bool {
	_, ok := sentinel.StockSentence(content)
	return ok
}

// Shared beginnings of the examples below.
const (
	hdr = "from gaia.engine.lang import claim\n\n"
)

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("scaffoldtext")

// The rules of this family, reported by their variables.
var (
	GAIA510 = &diag.Rule{
		Code: "GAIA510", Name: "scaffold-sentence-unchanged", Severity: diag.Error,
		Title: "a claim still holds a stock sentence of the scaffold",
		Text: `The scaffold gives worth and the five criteria generic sentences ("The idea merits
sustained verification effort." and the like). A posterior over generic sentences says
nothing about the idea, so each must be replaced with a sentence specific to it. The
reference refuses them only after compile (GAIA122, "generic axis text", exact match only);
nullius reports them in the source, comparing case-folded with whitespace collapsed and
final punctuation stripped, so a dropped period or changed case does not slip through (W10).
The diagnostic sits at the sentence. Write what this idea claims instead.`,
		Bad:   hdr + "worth = claim(\"The idea merits sustained verification effort.\", title=\"worth\")\n",
		Good:  hdr + "worth = claim(\"Matching the two published widths at two loops is worth a month of work.\", title=\"worth\")\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
)

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		var names map[*pyscan.Call]string // built on the first finding: most files have none
		for _, s := range f.Stmts {
			if s.Verb != "claim" {
				continue
			}
			content := contentOf(s.Call)
			if content == nil || !IsStock(content.Str) {
				continue
			}
			if names == nil {
				names = assignedNames(f.Module)
			}
			name := names[s.Call]
			if name == "" {
				name = "a claim"
			}
			ruleutil.Report(pass, f.File, content.Span, GAIA510,
				"%s still holds the scaffold's stock sentence %s (generic axis text); replace it with a sentence specific to this idea",
				name, pyfmt.Str(content.Str))
		}
	}
	return nil, nil
}

// contentOf is the literal content of a claim call: its first positional
// argument or content= keyword, when a string constant (or an f-string
// without placeholders, whose value is static).
func contentOf(c *pyscan.Call) *pyscan.Expr {
	var e *pyscan.Expr
	if len(c.Args) > 0 {
		e = c.Args[0]
	} else if k := c.Keyword("content"); k != nil {
		e = k.Value
	}
	if e == nil || !(e.Kind == pyscan.ExprString || e.Kind == pyscan.ExprFString && e.ConstOnly) {
		return nil
	}
	return e
}

// assignedNames maps each call assigned to a single name (`x = claim(...)`,
// annotated or not) to that name, for the message.
func assignedNames(m *pyscan.Module) map[*pyscan.Call]string {
	out := map[*pyscan.Call]string{}
	for _, a := range m.Assigns {
		if a.Value == nil || a.Value.Kind != pyscan.ExprCall || a.Augmented || len(a.Targets) != 1 {
			continue
		}
		if t := a.Targets[0]; t.Kind == pyscan.ExprName {
			out[a.Value.Call] = t.Name
		}
	}
	return out
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA510,
	}
}

var _ = family.Declare(ruleList)
