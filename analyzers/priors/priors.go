package priors

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the priors analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "priors",
	Doc:      ruleutil.MustExtractDoc(doc, "priors"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

// Gaia's Cromwell bounds (gaia/engine/lang/dsl/register_prior.py).
const lo, hi = 0.001, 0.999

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		for _, s := range f.Stmts {
			switch s.Verb {
			case "register_prior":
				checkValue(pass, f, s.Call)
				checkWorth(pass, f, s.Call)
			case "claim", "parameter":
				checkInline(pass, f, s)
			}
		}
	}
	return nil, nil
}

// Have: register_prior(claim, 0.7, justification="... anchor: source")
func checkValue(pass *analysis.Pass, f *gaiaref.File, c *pyscan.Call) {
	v := arg(c, "value", 1)
	const base = "register_prior value must be a literal probability in [0, 1]; indirection defeats the audit"
	switch {
	case v == nil:
		ruleutil.Report(pass, f.File, c.Span, GAIA020, "%s (no value given)", base)
	case !v.IsConstant():
		ruleutil.Report(pass, f.File, v.Span, GAIA020, "%s (found %s)", base, ruleutil.Short(v.Text))
	case v.Kind != pyscan.ExprNumber:
		ruleutil.Report(pass, f.File, v.Span, GAIA020, "%s (found %s, which is not a number)", base, ruleutil.Repr(v))
	case v.Num < lo || v.Num > hi:
		ruleutil.Report(pass, f.File, v.Span, GAIA020,
			"register_prior value %s is outside [0.001, 0.999]; Gaia rejects priors outside the Cromwell bounds, so write a literal probability in [0.001, 0.999]", ruleutil.Short(v.Text))
	}
}

// arg returns keyword name, else the positional argument at index i.
func arg(c *pyscan.Call, name string, i int) *pyscan.Expr {
	if k := c.Keyword(name); k != nil {
		return k.Value
	}
	if i < len(c.Args) {
		return c.Args[i]
	}
	return nil
}

func checkWorth(pass *analysis.Pass, f *gaiaref.File, c *pyscan.Call) {
	if target := arg(c, "claim", 0); ruleutil.IsClaim(f, target, "worth") {
		ruleutil.Report(pass, f.File, target.Span, GAIA506,
			"worth gets no prior: its belief must come only from the graded evidence of the criteria; remove this register_prior")
	}
}

// Have: claim("H.", prior=0.9)
func checkInline(pass *analysis.Pass, f *gaiaref.File, s *gaiaref.Stmt) {
	k := s.Call.Keyword("prior")
	if k == nil || k.Value.Kind == pyscan.ExprNone {
		return
	}
	ruleutil.Report(pass, f.File, k.Value.Span, GAIA501,
		"%s(prior=%s) records an unanchored inline prior; drop prior= and call register_prior(claim, value, justification=\"... anchor: <source>\")", s.Verb, ruleutil.Short(k.Value.Text))
	if s.Verb == "claim" && isWorthAssign(f, s.Call) {
		ruleutil.Report(pass, f.File, k.Value.Span, GAIA506,
			"worth gets no prior: its belief must come only from the graded evidence of the criteria; remove prior=")
	}
}

// isWorthAssign reports whether the claim call is assigned to worth or
// titled worth.
func isWorthAssign(f *gaiaref.File, c *pyscan.Call) bool {
	if k := c.Keyword("title"); k != nil && k.Value.Kind == pyscan.ExprString && k.Value.Str == "worth" {
		return true
	}
	for _, a := range f.Module.Assigns {
		if a.Value != nil && a.Value.Call == c {
			for _, t := range a.Targets {
				if t.Kind == pyscan.ExprName && t.Name == "worth" {
					return true
				}
			}
		}
	}
	return false
}
