// Package hover explains what is under an editor's cursor in a Gaia
// module: the grade of a likelihood literal ("substantial ×10: 0.90/0.09")
// and what the discipline requires of a verb call, with the rules that
// check it (their titles and links come from the rule registry). It reads
// one parsed module and reports nothing; the language server renders its
// Markdown.
package hover

import (
	"fmt"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/pyscan"
)

// Info is what a hover shows: Markdown and the span it describes.
type Info struct {
	Markdown string
	Span     pyscan.Span
}

// At describes what is at byte offset in m, or returns false. ruleURL
// gives the documentation link of a rule.
func At(m *pyscan.Module, offset int, ruleURL func(diag.Rule) string) (Info, bool) {
	if len(m.Syntax) > 0 {
		return Info{}, false
	}
	verbs := gaiaref.Verbs(m)
	// The innermost statement whose callee or argument holds the offset.
	var best *pyscan.Call
	for _, c := range m.Calls {
		if verbs[c] != "" && within(c.Span, offset) && (best == nil || c.Span.Start.Offset >= best.Span.Start.Offset) {
			best = c
		}
	}
	if best == nil {
		return Info{}, false
	}
	verb := verbs[best]
	if within(best.Func.Span, offset) {
		return Info{Markdown: requirements(verb, ruleURL), Span: best.Func.Span}, true
	}
	for _, k := range best.Keywords {
		if k.Value == nil || !within(k.Value.Span, offset) {
			continue
		}
		switch {
		case verb == "infer" && (k.Name == "p_e_given_h" || k.Name == "p_e_given_not_h"):
			return Info{Markdown: inferGrade(best), Span: k.Value.Span}, true
		case verb == "associate" && (k.Name == "p_a_given_b" || k.Name == "p_b_given_a"):
			return Info{Markdown: gradeValue(k.Value), Span: k.Value.Span}, true
		}
	}
	return Info{}, false
}

// within reports whether offset lies in s (its end included, where an
// editor's cursor sits after the last character).
func within(s pyscan.Span, offset int) bool {
	return int(s.Start.Offset) <= offset && offset <= int(s.End.Offset)
}

// grades are the three likelihood grades (M7): name, ratio, pair.
var grades = []struct {
	name  string
	ratio int
	h, nh float64
}{
	{"weak", 3, 0.75, 0.25},
	{"substantial", 10, 0.90, 0.09},
	{"strong", 30, 0.90, 0.03},
}

// inferGrade names the grade of an infer's likelihood pair.
func inferGrade(c *pyscan.Call) string {
	p := ruleutil.PairOf(c)
	if !p.Literal || !p.Numeric {
		return "**not a literal grade** (GAIA010): write both `p_e_given_h` and `p_e_given_not_h` as number literals, one of the three grades; " + ruleutil.Grades + "."
	}
	name := ruleutil.Grade(p.Hv, p.NHv)
	if name == "" {
		return fmt.Sprintf("**off-grade pair** (%s, %s) (GAIA011): %s.", pyfmt.Repr(p.Hv), pyfmt.Repr(p.NHv), ruleutil.Grades)
	}
	for _, g := range grades {
		if g.name != name {
			continue
		}
		if p.Hv > p.NHv {
			return fmt.Sprintf("**%s ×%d**: %.2f/%.2f — the evidence is %d times likelier if the hypothesis holds.", name, g.ratio, p.Hv, p.NHv, g.ratio)
		}
		return fmt.Sprintf("**%s ÷%d** (reversal): %.2f/%.2f — the evidence is %d times likelier if the hypothesis fails.", name, g.ratio, p.Hv, p.NHv, g.ratio)
	}
	return ""
}

// gradeValue describes one associate probability.
func gradeValue(e *pyscan.Expr) string {
	if v, ok := ruleutil.Numeric(e); ok && e.Kind == pyscan.ExprNumber {
		switch v {
		case 0.03, 0.09, 0.25, 0.75, 0.90:
			return fmt.Sprintf("**grade value %.2f**: one of 0.03, 0.09, 0.25, 0.75, 0.90.", v)
		}
		return fmt.Sprintf("**off-grade value %s** (GAIA503): write one of the grade values 0.03, 0.09, 0.25, 0.75, 0.90.", pyfmt.Repr(v))
	}
	return "**not a literal grade value** (GAIA503): write one of 0.03, 0.09, 0.25, 0.75, 0.90."
}

// requirement is what the discipline asks of one verb and the rules that
// check it.
type requirement struct {
	text  string
	codes []string
}

// requirements of each verb a rule looks at (gaia-discipline.md §1.3).
// It is built on first use, not at every process start (issue 15).
var byVerb = lazy.New(buildByVerb)

// buildByVerb builds byVerb on first use.
func buildByVerb() map[string]requirement {
	return map[string]requirement{
		"infer": {"a graded likelihood update: both `p_e_given_h` and `p_e_given_not_h` are number literals forming one of the three grades — " +
			"weak ×3 (0.75/0.25), substantial ×10 (0.90/0.09), strong ×30 (0.90/0.03) — or a reversal; a strong raise names its hypothesis as a plain variable; " +
			"the rationale is a literal string that opens with `reader_reasoning:` and ends with `anchor: <reference>`; no `given=`.",
			[]string{"GAIA010", "GAIA011", "GAIA012", "GAIA013", "GAIA014", "GAIA030", "GAIA031", "GAIA032", "GAIA033", "GAIA504", "GAIA505", "GAIA508", "GAIA901"}},
		"observe": {"an observation: the rationale is a literal string that declares exactly one `evidence_family: <token>;` and `correlation_model: single;` and ends with `anchor: <reference>`.",
			[]string{"GAIA030", "GAIA031", "GAIA032", "GAIA034", "GAIA504"}},
		"register_prior": {"a prior: the value is a number literal in [0.001, 0.999]; the justification is a literal string ending with `anchor: <reference>`; worth never gets one.",
			[]string{"GAIA020", "GAIA030", "GAIA031", "GAIA032", "GAIA504", "GAIA506"}},
		"associate": {"a graded association: `p_a_given_b` and `p_b_given_a` are grade values 0.03, 0.09, 0.25, 0.75 or 0.90; it never couples worth.",
			[]string{"GAIA502", "GAIA503"}},
		"derive":     {"a deterministic step with no probability: it must not couple worth, which moves only through graded infer updates.", []string{"GAIA502"}},
		"compute":    {"a deterministic step with no probability: it must not couple worth, which moves only through graded infer updates.", []string{"GAIA502"}},
		"equal":      {"a structural operator over exactly two claims; it must not couple worth.", []string{"GAIA502", "GAIA509"}},
		"contradict": {"a structural operator over exactly two claims; it must not couple worth.", []string{"GAIA502", "GAIA509"}},
		"exclusive":  {"a structural operator over exactly two claims; it must not couple worth.", []string{"GAIA502", "GAIA509"}},
		"claim":      {"a proposition: no inline `prior=` (register priors with register_prior); the reasoning claims carry idea-specific text, not the scaffold's.", []string{"GAIA501", "GAIA510"}},
		"parameter":  {"a parameter: no inline `prior=`.", []string{"GAIA501"}},
	}
}

// requirements renders the hover of a verb call.
func requirements(verb string, ruleURL func(diag.Rule) string) string {
	req, ok := byVerb.Get()[verb]
	if !ok {
		return fmt.Sprintf("**%s** (Gaia): no discipline rule looks at its arguments.", verb)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (Gaia) — %s\n\nChecked by:\n", verb, req.text)
	for _, code := range req.codes {
		r, ok := diag.Lookup(code)
		if !ok {
			fmt.Fprintf(&b, "- %s (unknown rule)\n", code)
			continue
		}
		fmt.Fprintf(&b, "- [%s](%s) %s\n", r.Code, ruleURL(r), r.Title)
	}
	return b.String()
}
