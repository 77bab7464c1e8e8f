// Package report holds the report tools of the idea-posterior workflow
// (close-prior-and-writeback.md §4–§5): the posterior display normalizer,
// the report link normalizer and checker, and the portfolio status report.
// The normalizers are idempotent; their check modes report located REPORT
// findings instead of writing.
package report

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the rules of the report tools.
const family = diag.Family("report")

// The rules of the report tools, each declared once with its
// documentation; the checks report these values.
var (
	CodeUnrounded = rule("REPORT001", "posterior-display-unrounded", "posterior value display is not rounded to three decimals",
		"A `Posterior value:` line shows the posterior rounded half-up to exactly three decimals; the exact number lives in the JSON. Run `nullius report posteriors FILE` to rewrite it.",
		"Posterior value: `0.9255435028366992`\n", "Posterior value: `0.926`\n", "reference")
	CodeOutOfRange = rule("REPORT002", "posterior-display-out-of-range", "posterior value display is outside [0, 1]",
		"A displayed posterior must be in [0, 1]. The number was typed or copied wrong; take it from the extraction output.",
		"Posterior value: 1.234\n", "Posterior value: 0.850\n", "reference")
	CodeLinkNotNorm = rule("REPORT010", "report-link-not-normalized", "report link or reference is not a normalized clickable link",
		"Local links are written relative to the report's own directory, and repo-local paths and arXiv/DOI/INSPIRE identifiers are clickable links. Run `nullius report links --project-root ROOT FILE` to rewrite them.",
		"The measured width is from arXiv:2308.06230.\n", "The measured width is from [arXiv:2308.06230](https://arxiv.org/abs/2308.06230).\n", "reference")
	CodeLinkBroken = rule("REPORT011", "report-link-broken", "local link target does not exist",
		"A local link must resolve from the report's directory or the project root. Fix the path or drop the link.",
		"The first check is in [the results](results/first-check.md).\n",
		"-- posterior_report.md --\nThe first check is in [the results](results/first-check.md).\n-- results/first-check.md --\n# First check\n", "reference")
	CodeLinkEscapes = rule("REPORT012", "report-link-escapes-root", "local link escapes the project root",
		"Reports are read inside the project; a link that leaves the project root (including project://../x, which the reference skips) is refused.",
		"The referee notes are in [the notes](project://../referee/notes.md).\n",
		"-- posterior_report.md --\nThe referee notes are in [the notes](referee/notes.md).\n-- referee/notes.md --\n# Referee notes\n", "nullius")
	// codeBareLiteratureID is retired: documented, never reported, never
	// reused.
	codeBareLiteratureID = &diag.Rule{Code: "REPORT013", Name: "report-bare-literature-id", Severity: diag.Error,
		Title:   "literature identifier is not a link",
		Text:    "arXiv, DOI and INSPIRE identifiers are clickable links in a report.",
		Retired: "Registered with the report checks but never reported: the link check reports a bare literature identifier, like every line the link normalizer would change, as REPORT010 (the reference's one 'links are not normalized/clickable' refusal, fixed by one `nullius report links` run), so a second code for the same line had no check of its own.",
		Since:   "0.1.0", Origin: "reference", Owner: string(family)}
)

// rule is an error rule of this family added in 0.1.0. The call inlines
// to a literal the linker lays out, so declaring a rule runs nothing at
// start. Its examples are posterior reports, checked as writeback checks
// them.
func rule(code, name, title, text, bad, good, origin string) *diag.Rule {
	return &diag.Rule{Code: code, Name: name, Severity: diag.Error, Title: title, Text: text,
		Bad: bad, Good: good, Since: "0.1.0", Origin: origin, Input: "posterior_report.md", Owner: string(family)}
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		CodeUnrounded, CodeOutOfRange, CodeLinkNotNorm, CodeLinkBroken, CodeLinkEscapes,
		codeBareLiteratureID,
	}
}

var _ = family.Declare(ruleList)
