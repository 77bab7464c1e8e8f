package coupling

import (
	_ "embed"

	"bytes"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the coupling analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "coupling",
	Doc:      ruleutil.MustExtractDoc(doc, "coupling"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		for _, s := range f.Stmts {
			switch s.Verb {
			case "equal", "contradict", "exclusive":
				checkArity(pass, f, s)
				checkWorth(pass, f, s, operands(s.Call))
			case "associate":
				checkAssociate(pass, f, s.Call)
				checkWorth(pass, f, s, operands(s.Call))
			case "derive", "compute":
				checkWorth(pass, f, s, conclusion(s.Call))
			}
		}
	}
	return nil, nil
}

// operands returns the a/b operands, positional or keyword.
func operands(c *pyscan.Call) []*pyscan.Expr {
	ops := append([]*pyscan.Expr(nil), c.Args...)
	for _, name := range []string{"a", "b"} {
		if k := c.Keyword(name); k != nil {
			ops = append(ops, k.Value)
		}
	}
	return ops
}

// conclusion returns the conclusion of derive/compute.
func conclusion(c *pyscan.Call) []*pyscan.Expr {
	if k := c.Keyword("conclusion"); k != nil {
		return []*pyscan.Expr{k.Value}
	}
	if len(c.Args) > 0 {
		return c.Args[:1]
	}
	return nil
}

// Have: exclusive(a, b, c)
func checkArity(pass *analysis.Pass, f *gaiaref.File, s *gaiaref.Stmt) {
	n := len(operands(s.Call))
	if n == 2 && !s.Call.StarArgs {
		return
	}
	found := "found " + strconv.Itoa(n)
	if s.Call.StarArgs {
		found = "found a *splat"
	}
	const format = "%s takes exactly two operands, %s; Gaia raises TypeError at compile time: expand into pairwise %s() calls"
	if text, ok := pairwise(f, s); ok {
		ruleutil.ReportFix(pass, f.File, s.Call.Span, "Expand into pairwise "+s.Verb+"() calls",
			s.Call.Span, text, GAIA509, format, s.Verb, found, s.Verb)
		return
	}
	ruleutil.Report(pass, f.File, s.Call.Span, GAIA509, format, s.Verb, found, s.Verb)
}

// pairwise rewrites `v(a, b, c)` standing alone on its line as one call
// per pair, each on its own line at the same indentation. Calls with
// keywords other than rationale/background, or used inside an
// expression, get no fix.
//
//	Have: exclusive(a, b, c)
//	Want: exclusive(a, b)
//	      exclusive(a, c)
//	      exclusive(b, c)
func pairwise(f *gaiaref.File, s *gaiaref.Stmt) (string, bool) {
	c := s.Call
	if c.StarArgs || c.KwSplat || len(c.Args) < 3 {
		return "", false
	}
	var kws []string
	for _, k := range c.Keywords {
		if k.Name != "rationale" && k.Name != "background" {
			return "", false
		}
		kws = append(kws, string(f.Src[k.NameSpan.Start.Offset:k.Value.Span.End.Offset]))
	}
	src := f.Src
	lineStart := bytes.LastIndexByte(src[:c.Span.Start.Offset], '\n') + 1
	indent := src[lineStart:c.Span.Start.Offset]
	if len(bytes.TrimLeft(indent, " \t")) != 0 {
		return "", false
	}
	rest := src[c.Span.End.Offset:]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	if t := bytes.TrimSpace(rest); len(t) != 0 && t[0] != '#' {
		return "", false
	}
	var calls []string
	for i := range c.Args {
		for j := i + 1; j < len(c.Args); j++ {
			args := append([]string{c.Args[i].Text, c.Args[j].Text}, kws...)
			calls = append(calls, c.Func.Text+"("+strings.Join(args, ", ")+")")
		}
	}
	return strings.Join(calls, "\n"+string(indent)), true
}

// isGradeValue reports the probabilities the three grades use.
func isGradeValue(v float64) bool {
	switch v {
	case 0.03, 0.09, 0.25, 0.75, 0.90:
		return true
	}
	return false
}

// Have: associate(a, b, p_a_given_b=0.9, p_b_given_a=0.9)
func checkAssociate(pass *analysis.Pass, f *gaiaref.File, c *pyscan.Call) {
	for _, name := range []string{"p_a_given_b", "p_b_given_a"} {
		k := c.Keyword(name)
		if k == nil {
			ruleutil.Report(pass, f.File, c.Span, GAIA503, "associate has no literal %s; write one of the grade values 0.03, 0.09, 0.25, 0.75, 0.90", name)
			continue
		}
		v, ok := ruleutil.Numeric(k.Value)
		if !ok || k.Value.Kind != pyscan.ExprNumber || !isGradeValue(v) {
			ruleutil.Report(pass, f.File, k.Value.Span, GAIA503,
				"associate uses off-grade %s=%s; write a literal grade value 0.03, 0.09, 0.25, 0.75 or 0.90", name, ruleutil.Short(k.Value.Text))
		}
	}
}

// Have: derive(worth, given=[ev]) / equal(worth, x)
func checkWorth(pass *analysis.Pass, f *gaiaref.File, s *gaiaref.Stmt, exprs []*pyscan.Expr) {
	for _, e := range exprs {
		if ruleutil.IsClaim(f, e, "worth") {
			ruleutil.Report(pass, f.File, e.Span, GAIA502,
				"%s couples worth without a likelihood grade; worth must move only through graded infer updates of its criteria, so replace this with infer(..., hypothesis=worth) at a grade", s.Verb)
		}
	}
}
