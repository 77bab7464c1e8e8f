package notes

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the notes analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "notes",
	Doc:      ruleutil.MustExtractDoc(doc, "notes"),
	Requires: []*analysis.Analyzer{gaiaref.Analyzer},
	Run:      run,
}

// minReasoningWords is the GAIA505 threshold (W5 proposes about five).
const minReasoningWords = 5

func run(pass *analysis.Pass) (any, error) {
	for _, f := range ruleutil.Files(pass) {
		for _, s := range f.Stmts {
			if gaiaref.Scanned(s.Verb) {
				check(pass, f, s)
			}
		}
	}
	return nil, nil
}

// Have: observe(x, rationale="evidence_family: f; correlation_model: single; anchor: ref")
func check(pass *analysis.Pass, f *gaiaref.File, s *gaiaref.Stmt) {
	c, verb := s.Call, s.Verb
	kw := ruleutil.NoteKeyword(verb)
	k := c.Keyword(kw)
	switch {
	case k == nil:
		why := ""
		if c.KwSplat {
			why = " (a **mapping is not read; write it in the call)"
		} else if verb == "register_prior" && c.Keyword("rationale") != nil {
			why = " (register_prior takes justification=, not rationale=)"
		}
		ruleutil.Report(pass, f.File, c.Span, GAIA030, "%s has no %s%s", verb, kw, why)
		return
	case k.Value.Kind == pyscan.ExprFString && k.Value.ConstOnly:
		// An f-string without placeholders has a static value: offer the
		// plain literal of the same value (W14).
		ruleutil.ReportFix(pass, f.File, k.Value.Span, "Replace the f-string with a plain string literal",
			k.Value.Span, pyfmt.Str(k.Value.Str), GAIA031,
			"%s %s is not a literal string; the discipline requires a literal note ending with an anchor%s", verb, kw, hint(k.Value))
		return
	case k.Value.Kind != pyscan.ExprString:
		ruleutil.Report(pass, f.File, k.Value.Span, GAIA031,
			"%s %s is not a literal string; the discipline requires a literal note ending with an anchor%s", verb, kw, hint(k.Value))
		return
	}
	text := k.Value.Str
	at := k.Value.Span
	// Each check scans the note once on the passing path; the explanation
	// of a failure (which scans it again) is only built for a finding.
	ref, ok := sentinel.AnchorRef(text)
	if !ok {
		ruleutil.Report(pass, f.File, at, GAIA032, "%s %s does not end with an 'anchor: <reference>' note; %s", verb, kw, sentinel.AnchorProblem(text))
		return
	}
	if sentinel.IsPlaceholderAnchor(ref) {
		ruleutil.Report(pass, f.File, at, GAIA504,
			"%s %s anchors to placeholder %s; name the artifact, paper or file the note rests on (at least 3 characters, not TODO/TBD/none/n/a)", verb, kw, sentinel.Quote(ref))
	}
	switch verb {
	case "infer":
		checkReader(pass, f, at, text)
	case "observe":
		if why := sentinel.FamilyProblem(text); why != "" {
			ruleutil.Report(pass, f.File, at, GAIA034,
				"every observe rationale must declare exactly one 'evidence_family: <stable-token>' and exactly one 'correlation_model: single' before its anchor. Gaia 0.5.0a4 does not encode a joint likelihood for correlated observations; collapse a correlated family into one composite observation (%s)", why)
		}
	}
}

func checkReader(pass *analysis.Pass, f *gaiaref.File, at pyscan.Span, text string) {
	r, ok := sentinel.ReaderReasoning(text)
	if !ok {
		ruleutil.Report(pass, f.File, at, GAIA033,
			"infer rationale must declare an authored likelihood explanation before its trailing anchor using 'reader_reasoning: <why the evidence changes the hypothesis>'; an anchor or criterion label alone is not reader-facing reasoning (%s)", sentinel.ReaderProblem(text))
		return
	}
	if n := sentinel.WordCountUpTo(r, minReasoningWords); n < minReasoningWords {
		ruleutil.Report(pass, f.File, at, GAIA505,
			"infer reader_reasoning has %d word(s) (%s); say in at least %d words why the evidence changes the hypothesis", n, sentinel.Quote(r), minReasoningWords)
	}
}

// hint says how to turn a non-literal note into a literal one (W14).
func hint(e *pyscan.Expr) string {
	switch e.Kind {
	case pyscan.ExprFString:
		return "; write it as plain string literals, not an f-string"
	case pyscan.ExprBinary:
		return "; join the parts as adjacent string literals inside parentheses instead of an operator"
	case pyscan.ExprName:
		return "; write the note in the call instead of through the variable " + sentinel.Quote(e.Name)
	case pyscan.ExprCall:
		return "; write the note as a string literal, not a call result"
	case pyscan.ExprNone:
		return " (found None)"
	case pyscan.ExprBytes:
		return " (found a bytes literal; drop the b prefix)"
	}
	return ""
}
