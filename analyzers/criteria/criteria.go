package criteria

import (
	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/pyscan"
)

// Analyzer reports GAIA013 and GAIA014.
var Analyzer = &analysis.Analyzer{
	Name:     "criteria",
	Doc:      "check the clauses raising reach and tension updates must carry (GAIA013, GAIA014)",
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
	// GAIA013 runs only on on-grade strong raises with a plain hypothesis
	// (after GAIA010/011/012, §1.4); a missing or non-literal rationale
	// counts as empty text.
	if p.StrongRaise && ruleutil.IsClaim(f, hyp.Value, "downstream_reach") {
		if why := sentinel.DomainsProblem(text); why != "" {
			ruleutil.Report(pass, f.File, at, "GAIA013",
				"strong-grade downstream_reach update without a 'domains: <one>; <two>; <three>' clause naming at least three independently anchored phenomenon domains; %s", why)
		}
	}
	// GAIA014 needs only numbers with h > nh, on-grade or not.
	if p.Hv > p.NHv && ruleutil.IsClaim(f, hyp.Value, "tension_resolution") {
		if why := sentinel.ResolutionProblem(text); why != "" {
			ruleutil.Report(pass, f.File, at, "GAIA014",
				"a raising tension_resolution update must classify idea-specific 'resolution_evidence: mechanism|discriminating_test|demonstrated_partial_resolution' before its anchor; evidence that a tension exists or that a check is planned is not resolution (%s)", why)
		}
	}
}
