package criteria

import (
	_ "embed"

	"fmt"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the criteria analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "criteria",
	Doc:      ruleutil.MustExtractDoc(doc, "criteria"),
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

func check(pass *analysis.Pass, f *gaiaref.File, c *pyscan.Call) {
	p := ruleutil.PairOf(c)
	hyp := c.Keyword("hypothesis")
	if hyp == nil || !p.Numeric {
		return
	}
	note := c.Keyword("rationale")
	text := ruleutil.NoteText(c, "infer")
	at := ruleutil.ValueSpan(c, note)
	var one [1]target // most hypotheses have one target: no allocation for it
	for _, tg := range targets(one[:0], f, c, hyp.Value) {
		// GAIA013 runs only on on-grade strong raises with a plain
		// hypothesis (after GAIA010/011/012, §1.4); a missing or
		// non-literal rationale counts as empty text.
		if p.StrongRaise && ruleutil.IsClaim(f, tg.expr, "downstream_reach") {
			if why := sentinel.DomainsProblem(text); why != "" {
				ruleutil.Report(pass, f.File, at, GAIA013,
					"strong-grade downstream_reach update without a 'domains: <one>; <two>; <three>' clause naming at least three independently anchored phenomenon domains; %s%s", why, tg.via)
			}
		}
		// GAIA014 needs only numbers with h > nh, on-grade or not.
		if p.Hv > p.NHv && ruleutil.IsClaim(f, tg.expr, "tension_resolution") {
			if why := sentinel.ResolutionProblem(text); why != "" {
				ruleutil.Report(pass, f.File, at, GAIA014,
					"a raising tension_resolution update must classify idea-specific 'resolution_evidence: mechanism|discriminating_test|demonstrated_partial_resolution' before its anchor; evidence that a tension exists or that a check is planned is not resolution (%s)%s", why, tg.via)
			}
		}
	}
}

// target is a claim an infer updates: its own hypothesis, or an argument
// a helper receives as that hypothesis (via names the helper call).
type target struct {
	expr *pyscan.Expr
	via  string
}

// targets returns the hypothesis and, when it is a parameter of the
// enclosing function, every argument passed for that parameter by the
// module's calls of the function (W3):
//
//	Have: def strong_raise(h): infer(ev, hypothesis=h, ...)
//	      strong_raise(downstream_reach)
//
// The targets are appended to out.
func targets(out []target, f *gaiaref.File, c *pyscan.Call, hyp *pyscan.Expr) []target {
	out = append(out, target{expr: hyp})
	if hyp.Kind != pyscan.ExprName || c.Scope == nil {
		return out
	}
	scope, bs := c.Scope.Lookup(hyp.Name)
	if len(bs) != 1 || bs[0].Kind != pyscan.BindParam {
		return out
	}
	def := defOf(f.Module, scope)
	if def == nil || def.Scope.Kind == pyscan.ClassScope {
		return out // methods take self first; their callers are out of reach
	}
	idx := slices.Index(def.Params, hyp.Name)
	for _, call := range f.Module.Calls {
		if call.Func.Kind != pyscan.ExprName || call.Func.Name != def.Name || call.Scope == nil {
			continue
		}
		if _, cb := call.Scope.Lookup(def.Name); len(cb) == 0 || cb[len(cb)-1].Def != def {
			continue
		}
		arg := argFor(call, hyp.Name, idx)
		if arg != nil {
			out = append(out, target{expr: arg, via: fmt.Sprintf(", through %s(%s) on line %d", def.Name, ruleutil.Short(arg.Text), call.Span.Start.Line)})
		}
	}
	return out
}

// defOf returns the function definition whose body is scope.
func defOf(m *pyscan.Module, scope *pyscan.Scope) *pyscan.Def {
	for _, d := range m.Defs {
		if d.Body == scope && d.Kind == pyscan.FuncDef {
			return d
		}
	}
	return nil
}

// argFor returns the argument a call passes for parameter name at index.
func argFor(c *pyscan.Call, name string, index int) *pyscan.Expr {
	if k := c.Keyword(name); k != nil {
		return k.Value
	}
	if index >= 0 && index < len(c.Args) && !c.StarArgs {
		return c.Args[index]
	}
	return nil
}
