// Package suppress applies inline suppressions to a package's diagnostics:
//
//	x = infer(...)  # nullius: ignore[GAIA011] reason the reviewer accepted
//	# nullius: ignore[GAIA032,GAIA504] reason
//	observe(...)
//
// A trailing directive covers its own line and every call spanning it; an
// own-line directive covers the next line of code and every call starting
// there; so a multi-line statement is covered whole (a logical statement,
// not a physical line; ecosystem.md §9).
// `# nullius: file-ignore[CODE] reason` covers the whole file. Suppressed
// diagnostics are marked Suppressed, never dropped: the gate still sees
// them. A directive without a reason, with an unknown code or in another
// form is NULLIUS001; a code that suppressed nothing is NULLIUS002.
package suppress

import (
	"fmt"
	"math"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/pyscan"
)

const family = diag.Family("suppress")

// The rules of inline suppressions, reported by their variables.
var (
	ruleMalformed = &diag.Rule{
		Code: "NULLIUS001", Name: "suppression-malformed", Severity: diag.Error,
		Title: "an inline suppression is malformed or has no reason",
		Text: `An inline suppression reads "# nullius: ignore[CODE] reason" (several codes separated by
commas; "# nullius: file-ignore[CODE] reason" covers the whole file). The reason is required: a suppressed finding is still a finding, and the reviewer
needs to know why it was accepted. A directive with no reason, an unknown rule code, or any
other "# nullius:" form suppresses nothing and is reported here, at the comment. Write the
codes it should silence and a one-line reason.`,
		Bad:    "from gaia.engine.lang import claim\nworth = claim(\"Matching the two widths is worth a month.\")  # nullius: ignore[GAIA510]\n",
		Good:   legacyInfer + "  # nullius: ignore[GAIA011] legacy grade kept for the comparison, see review 12\n",
		Since:  "0.1.0",
		Origin: "nullius", Owner: string(family),
	}
	ruleUnused = &diag.Rule{
		Code: "NULLIUS002", Name: "suppression-unused", Severity: diag.Error,
		Title: "an inline suppression matched no diagnostic",
		Text: `A "# nullius: ignore[CODE] reason" directive whose code silenced nothing on the lines it
covers is stale: the problem was fixed or moved, and a leftover suppression would silently
hide the next one. It is reported at the comment; remove the code (or the whole directive; a
directive naming one code comes with a fix that removes it).`,
		Bad:    "from gaia.engine.lang import claim\nworth = claim(\"The idea works.\")  # nullius: ignore[GAIA011] old grade\n",
		Good:   "from gaia.engine.lang import claim\nworth = claim(\"The idea works.\")\n",
		Since:  "0.1.0",
		Origin: "nullius", Owner: string(family),
	}
)

// legacyInfer is an off-grade statement for the rule examples.
const legacyInfer = "from gaia.engine.lang import claim, infer\nh = claim(\"H.\")\n" +
	"infer(\"E.\", hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale=\"reader_reasoning: the legacy grade stays for the comparison. anchor: review 12\")"

// directiveRE matches the directive body after "nullius:".
var directiveRE = lazyre.New(`^(ignore|file-ignore)\[([A-Za-z0-9_, -]*)\](.*)$`)

// directive is one parsed suppression comment.
type directive struct {
	file     *pyparse.File
	c        pyscan.Comment
	codes    []string
	used     map[string]bool
	from, to int  // covered lines
	whole    bool // a file-ignore directive
}

// Apply marks the diagnostics covered by suppressions and appends the
// findings about the suppressions themselves.
func Apply(ds []diag.Diagnostic, parsed *pyparse.Result) []diag.Diagnostic {
	return ApplyPartial(ds, parsed, nil)
}

// ApplyPartial is Apply for a run that skipped some checks: a suppression
// of a code for which notRun is true is never called unused (NULLIUS002),
// since the check that would have used it did not run.
func ApplyPartial(ds []diag.Diagnostic, parsed *pyparse.Result, notRun func(code string) bool) []diag.Diagnostic {
	var dirs []*directive
	for _, f := range parsed.Files {
		if f.Module == nil {
			continue
		}
		for _, c := range f.Module.Comments {
			d, bad := parse(f, c)
			if bad != "" {
				ds = append(ds, at(ruleMalformed, f, c, "%s", bad))
			}
			if d != nil {
				dirs = append(dirs, d)
			}
		}
	}
	for i := range ds {
		if strings.HasPrefix(ds[i].Code, "NULLIUS") {
			continue
		}
		for _, d := range dirs {
			if d.covers(ds[i]) {
				ds[i].Suppressed = true
				d.used[ds[i].Code] = true
			}
		}
	}
	for _, d := range dirs {
		for _, code := range d.codes {
			if !d.used[code] && (notRun == nil || !notRun(code)) {
				where := fmt.Sprintf("on lines %d-%d", d.from, d.to)
				if d.whole {
					where = "in the file"
				}
				dg := at(ruleUnused, d.file, d.c, "suppression of %s matched no diagnostic %s; remove it", code, where)
				if len(d.codes) == 1 {
					dg.Fixes = []diag.Fix{{Message: "Remove the unused suppression", Edits: []diag.Edit{removal(d.file.Src, d.c)}}}
				}
				ds = append(ds, dg)
			}
		}
	}
	return ds
}

// removal deletes a comment: the whole line when the comment stands
// alone, else the comment and the blanks before it.
func removal(src []byte, c pyscan.Comment) diag.Edit {
	start, end := int(c.Span.Start.Offset), int(c.Span.End.Offset)
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start == 0 || src[start-1] == '\n' {
		if end < len(src) && src[end] == '\n' {
			end++
		}
	}
	return diag.Edit{Start: start, End: end}
}

// parse reads one comment. It returns the directive (nil when the comment
// is not a valid one) and a problem to report ("" when there is none).
func parse(f *pyparse.File, c pyscan.Comment) (*directive, string) {
	body := strings.TrimSpace(strings.TrimPrefix(c.Text, "#"))
	rest, ok := strings.CutPrefix(body, "nullius:")
	if !ok {
		return nil, ""
	}
	rest = strings.TrimSpace(rest)
	m := directiveRE.FindStringSubmatch(rest)
	if m == nil {
		return nil, "unknown nullius directive " + pyfmt.Str(rest) + "; write '# nullius: ignore[CODE] reason' or '# nullius: file-ignore[CODE] reason'"
	}
	var codes []string
	for _, code := range strings.Split(m[2], ",") {
		code = strings.ToUpper(strings.TrimSpace(code))
		if code == "" {
			continue
		}
		r, ok := diag.Lookup(code)
		if !ok {
			return nil, "suppression names unknown rule " + pyfmt.Str(code) + "; see `nullius rules` for the codes"
		}
		codes = append(codes, r.Code)
	}
	if len(codes) == 0 {
		return nil, "suppression names no rule; write '# nullius: ignore[CODE] reason'"
	}
	// A second '#' starts another comment (a fixture's `# want`), not
	// the reason.
	reason, _, _ := strings.Cut(m[3], "#")
	if strings.TrimSpace(reason) == "" {
		return nil, "suppression of " + strings.Join(codes, ",") + " has no reason; add one after the closing bracket"
	}
	d := &directive{file: f, c: c, codes: codes, used: map[string]bool{}}
	if m[1] == "file-ignore" {
		d.from, d.to, d.whole = 1, math.MaxInt, true
	} else {
		d.from, d.to = coverage(f, c)
	}
	return d, ""
}

// covers reports whether the directive silences d.
func (d *directive) covers(dg diag.Diagnostic) bool {
	if dg.Path != d.file.Path || dg.Line < d.from || dg.Line > d.to {
		return false
	}
	for _, code := range d.codes {
		if code == dg.Code {
			return true
		}
	}
	return false
}

// coverage returns the lines a directive covers. A trailing directive
// covers its line and every call whose span contains that line (so it
// works on the first line, an argument line or the closing line of a
// multi-line statement); an own-line directive covers the next line of
// code and every call starting there.
func coverage(f *pyparse.File, c pyscan.Comment) (int, int) {
	lines := strings.Split(string(f.Src), "\n")
	line := int(c.Span.Start.Line)
	trailing := strings.TrimSpace(lines[line-1][:min(len(lines[line-1]), int(c.Span.Start.Col)-1)]) != ""
	if !trailing {
		for line++; line <= len(lines); line++ {
			if t := strings.TrimSpace(lines[line-1]); t != "" && !strings.HasPrefix(t, "#") {
				break
			}
		}
	}
	from, to := line, line
	for _, call := range f.Module.Calls {
		s, e := int(call.Span.Start.Line), int(call.Span.End.Line)
		if s == line || (trailing && s <= line && line <= e) {
			from, to = min(from, s), max(to, e)
		}
	}
	return from, to
}

// at builds a diagnostic positioned at a comment.
func at(r *diag.Rule, f *pyparse.File, c pyscan.Comment, format string, args ...any) diag.Diagnostic {
	return r.New(f.Path, int(c.Span.Start.Line), int(c.Span.Start.Col), int(c.Span.End.Line), int(c.Span.End.Col), format, args...)
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		ruleMalformed, ruleUnused,
	}
}

var _ = family.Declare(ruleList)
