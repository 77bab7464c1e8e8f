// Package ruleutil holds the small helpers the rule analyzers share:
// reporting at a pyscan span, Python-style value rendering for messages,
// the likelihood grades (M7) and the note keyword of each verb.
package ruleutil

import (
	"fmt"
	"strings"

	"github.com/nullius-dev/nullius/internal/pyfmt"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// Report reports rule at span of file f. The rule is a registered value,
// never a code string, so a misspelt code does not compile; the driver
// reads it back from Category (x/tools meant Category for doc lookup).
func Report(pass *analysis.Pass, f *pyparse.File, span pyscan.Span, rule *diag.Rule, format string, args ...any) {
	pos, end := f.Span(span)
	pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: rule.Code, Message: fmt.Sprintf(format, args...)})
}

// ReportFix reports rule at span with one suggested fix replacing the
// bytes of edit with newText.
func ReportFix(pass *analysis.Pass, f *pyparse.File, span pyscan.Span, fixMsg string, edit pyscan.Span, newText string, rule *diag.Rule, format string, args ...any) {
	pos, end := f.Span(span)
	epos, eend := f.Span(edit)
	pass.Report(analysis.Diagnostic{
		Pos: pos, End: end, Category: rule.Code, Message: fmt.Sprintf(format, args...),
		SuggestedFixes: []analysis.SuggestedFix{{
			Message:   fixMsg,
			TextEdits: []analysis.TextEdit{{Pos: epos, End: eend, NewText: []byte(newText)}},
		}},
	})
}

// Short renders source text for a one-line message: whitespace runs
// (newlines included) collapsed to one space, cut at 60 characters.
func Short(text string) string {
	s := strings.Join(strings.Fields(text), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "..."
	}
	return s
}

// Files returns the resolved files of the pass (its gaiaref result).
func Files(pass *analysis.Pass) []*gaiaref.File {
	return pass.ResultOf[gaiaref.Analyzer].(*gaiaref.Result).Files
}

// ValueSpan is the span of a keyword's value, or of the call when the
// keyword is absent: findings point at the exact value at fault.
func ValueSpan(c *pyscan.Call, k *pyscan.Keyword) pyscan.Span {
	if k != nil && k.Value != nil {
		return k.Value.Span
	}
	return c.Span
}

// NoteKeyword is the keyword that carries a verb's note: `justification`
// for register_prior, `rationale` for the others.
func NoteKeyword(verb string) string {
	if verb == "register_prior" {
		return "justification"
	}
	return "rationale"
}

// NoteText returns the decoded note of a call, or "" when it is missing or
// not a string literal (the reference treats both as empty text).
func NoteText(c *pyscan.Call, verb string) string {
	if k := c.Keyword(NoteKeyword(verb)); k != nil && k.Value.Kind == pyscan.ExprString {
		return k.Value.Str
	}
	return ""
}

// Numeric returns the value of a number or bool constant (Python treats
// True as the int 1).
func Numeric(e *pyscan.Expr) (float64, bool) {
	switch {
	case e == nil:
		return 0, false
	case e.Kind == pyscan.ExprNumber:
		return e.Num, true
	case e.Kind == pyscan.ExprBool:
		if e.Bool {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// Grade names the grade of a (p_e_given_h, p_e_given_not_h) pair, or ""
// when the pair is not one of the six allowed (M7).
func Grade(h, nh float64) string {
	switch [2]float64{h, nh} {
	case [2]float64{0.75, 0.25}, [2]float64{0.25, 0.75}:
		return "weak"
	case [2]float64{0.90, 0.09}, [2]float64{0.09, 0.90}:
		return "substantial"
	case [2]float64{0.90, 0.03}, [2]float64{0.03, 0.90}:
		return "strong"
	}
	return ""
}

// Grades is the allowed-grades phrase of the reference's GAIA011 message.
const Grades = "allowed grades are 3 (0.75/0.25), 10 (0.90/0.09), 30 (0.90/0.03), or their reversals"

// Repr renders a constant as Python's repr would, the way the reference
// prints values in messages: 0.85, 1, True, '0.9'. Non-constants render as
// their source text.
func Repr(e *pyscan.Expr) string {
	switch e.Kind {
	case pyscan.ExprNumber:
		if e.IsInt {
			return e.Text
		}
		return pyfmt.Repr(e.Num)
	case pyscan.ExprBool:
		if e.Bool {
			return "True"
		}
		return "False"
	case pyscan.ExprNone:
		return "None"
	case pyscan.ExprString:
		return pyfmt.Str(e.Str)
	}
	return e.Text
}

// IsClaim reports whether e names the claim x: the bare name x, or a
// variable assigned a claim titled x (M6).
func IsClaim(f *gaiaref.File, e *pyscan.Expr, x string) bool {
	return f.Titles.Is(e, x)
}

// Pair is the literal likelihood pair of an infer call.
type Pair struct {
	H, NH       *pyscan.Keyword
	Literal     bool    // both present and constants (M5)
	Numeric     bool    // both numbers or bools
	Hv, NHv     float64 // values when Numeric
	StrongRaise bool    // exactly (0.90, 0.03)
}

// PairOf reads p_e_given_h and p_e_given_not_h of an infer call.
func PairOf(c *pyscan.Call) Pair {
	p := Pair{H: c.Keyword("p_e_given_h"), NH: c.Keyword("p_e_given_not_h")}
	p.Literal = p.H != nil && p.NH != nil && p.H.Value.IsConstant() && p.NH.Value.IsConstant()
	if !p.Literal {
		return p
	}
	var okH, okNH bool
	p.Hv, okH = Numeric(p.H.Value)
	p.NHv, okNH = Numeric(p.NH.Value)
	p.Numeric = okH && okNH
	p.StrongRaise = p.Numeric && p.Hv == 0.90 && p.NHv == 0.03
	return p
}
