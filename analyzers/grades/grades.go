package grades

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the grades analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "grades",
	Doc:      ruleutil.MustExtractDoc(doc, "grades"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		for _, s := range f.Stmts {
			if s.Verb == "infer" {
				check(pass, f, s.Call)
			}
		}
	}
	return nil, nil
}

// Have: infer(ev, hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=...)
func check(pass *analysis.Pass, f *gaiaref.File, c *pyscan.Call) {
	p := ruleutil.PairOf(c)
	hyp := c.Keyword("hypothesis")
	plain := hyp != nil && hyp.Value.Kind == pyscan.ExprName
	switch {
	case !p.Literal:
		notLiteral(pass, f, c, p)
	case !p.Numeric || ruleutil.Grade(p.Hv, p.NHv) == "":
		ruleutil.Report(pass, f.File, pairSpan(p), GAIA011, "infer uses off-grade pair (%s, %s); %s",
			ruleutil.Repr(p.H.Value), ruleutil.Repr(p.NH.Value), ruleutil.Grades)
	case p.StrongRaise && !plain:
		what := "no hypothesis= keyword"
		if hyp != nil {
			what = "hypothesis " + ruleutil.Short(hyp.Value.Text)
		}
		ruleutil.Report(pass, f.File, ruleutil.ValueSpan(c, hyp), GAIA012,
			"a raising strong-grade infer must name its hypothesis as a plain claim variable; anything less is not auditable at the strongest grade (found %s)", what)
	}
	if g := c.Keyword("given"); g != nil {
		ruleutil.Report(pass, f.File, g.Value.Span, GAIA508,
			"infer with given= is a conditional likelihood, which the idea-posterior contract does not support (the compiled check refuses it as GAIA140); model the condition as its own claim and infer on it")
	}
	if hyp != nil && !plain && !p.StrongRaise {
		ruleutil.Report(pass, f.File, hyp.Value.Span, GAIA901,
			"infer hypothesis is not a plain claim variable; reviewer should confirm the update target (found %s)", ruleutil.Short(hyp.Value.Text))
	}
}

// notLiteral reports GAIA010 at the first probability at fault.
func notLiteral(pass *analysis.Pass, f *gaiaref.File, c *pyscan.Call, p ruleutil.Pair) {
	at, why := c.Span, ""
	switch {
	case p.H == nil && p.NH == nil:
		why = "p_e_given_h and p_e_given_not_h are missing"
		if c.KwSplat {
			why += " (a **mapping is not read)"
		}
	case p.H == nil:
		why = "p_e_given_h is missing"
	case !p.H.Value.IsConstant():
		at, why = p.H.Value.Span, "p_e_given_h is "+ruleutil.Short(p.H.Value.Text)
	case p.NH == nil:
		why = "p_e_given_not_h is missing (Gaia would silently use 0.5)"
	default:
		at, why = p.NH.Value.Span, "p_e_given_not_h is "+ruleutil.Short(p.NH.Value.Text)
	}
	ruleutil.Report(pass, f.File, at, GAIA010,
		"infer probabilities are not literal numbers; the discipline requires one of the three grades written as literals (%s)", why)
}

// pairSpan covers both probability values, whichever order they are in.
func pairSpan(p ruleutil.Pair) pyscan.Span {
	a, b := p.H.Value.Span, p.NH.Value.Span
	if b.Start.Offset < a.Start.Offset {
		a, b = b, a
	}
	if b.End.Offset < a.End.Offset {
		b = a
	}
	return pyscan.Span{Start: a.Start, End: b.End}
}
