package scaffold

import (
	"fmt"
	"strings"
)

// Criteria are the five sub-criterion claims every idea package carries, in
// the order the compiled-IR check requires them after worth (§2.4).
var Criteria = []string{"tension_resolution", "downstream_reach", "mechanism_insight", "testability_timing", "verification_cost"}

// StockSentences are the placeholder contents the template gives worth and
// the five criteria, in that order. They are the reference's own sentences
// (data the compiled-IR check GAIA122 matches verbatim), so an unchanged
// scaffold is refused both by `nullius lint` and after compile.
var StockSentences = []string{
	"The idea merits sustained verification effort.",
	"The idea resolves an anchored open tension.",
	"The idea's results feed an anchored chain of downstream problems.",
	"The idea supplies a new, testable mechanistic understanding.",
	"The idea is testable within an open verification window.",
	"A bounded, decisive first check of the idea exists.",
}

// ModuleName is the Python import name of the package for slug, as Gaia
// derives it from the project name "<slug>-gaia": hyphens become
// underscores.
func ModuleName(slug string) string { return strings.ReplaceAll(slug, "-", "_") }

// ProjectName is the [project].name of the package for slug.
func ProjectName(slug string) string { return slug + "-gaia" }

// Pyproject is the pyproject.toml of a new package: pinned to the release
// the discipline is written for and to Python 3.12.
func Pyproject(slug string) string {
	return fmt.Sprintf(`[project]
name = "%s"
version = "0.1.0"
description = "Gaia argument graph for the idea %s"
requires-python = ">=3.12"
dependencies = ["gaia-lang==0.5.0a4"]

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.hatch.build.targets.wheel]
packages = ["src/%s"]
`, ProjectName(slug), slug, ModuleName(slug))
}

// PythonVersion is the .python-version of a new package.
const PythonVersion = "3.12\n"

// Template renders src/<module>/__init__.py for slug: worth and the five
// criteria with stock sentences the author must replace, the export of worth
// alone, and the wiring recipes as comments (so the fresh file lints to
// exactly the stock-sentence findings).
func Template(slug string) string {
	var b strings.Builder
	fmt.Fprintf(&b, templateHead, slug)
	b.WriteString("\n# The conclusion. Its belief is the posterior `nullius extract` reports.\n")
	writeClaim(&b, "worth", StockSentences[0], "conclusion")
	b.WriteString("\n# The five criteria. Each one moves worth only through an infer() you add below.\n")
	for i, c := range Criteria {
		writeClaim(&b, c, StockSentences[i+1], "criterion")
	}
	b.WriteString(templateRecipes)
	return b.String()
}

func writeClaim(b *strings.Builder, name, sentence, role string) {
	fmt.Fprintf(b, "%s = claim(\n    %q,\n    title=%q,\n    reader_role=%q,\n)\n", name, sentence, name, role)
}

const templateHead = `"""Gaia argument graph for the idea %s (gaia-lang 0.5.0a4, Python 3.12).

How to finish it:

1. Replace every stock sentence below with one sentence about this idea.
   ` + "`nullius lint`" + ` names each sentence that still reads as the stock text.
2. worth is the only exported claim. It gets no prior of its own: its belief
   comes from the criteria and the evidence wired into them.
3. Every observe() and infer() carries a literal rationale whose last line is
   an anchor: note saying where a reader can check the statement.
4. Every infer() uses one of three likelihood grades; swap the two numbers to
   lower the hypothesis instead of raising it:
       weak (ratio 3)          p_e_given_h=0.75, p_e_given_not_h=0.25
       substantial (ratio 10)  p_e_given_h=0.90, p_e_given_not_h=0.09
       strong (ratio 30)       p_e_given_h=0.90, p_e_given_not_h=0.03
5. exclusive() takes exactly two claims. Three rival alternatives a, b, c
   become the pairwise exclusive() calls (a, b), (a, c) and (b, c).
"""

from gaia.engine.lang import claim, infer, observe

__all__ = ["worth"]
`

const templateRecipes = `
# Wiring recipes: copy one below the claims, remove the leading "# ", then
# fill in the angle brackets. Rationales must be literal strings; adjacent
# string literals inside parentheses are fine.
#
# One observation per independent source. Results that share a source belong
# to one evidence family; Gaia 0.5.0a4 has no joint likelihood for correlated
# observations, so merge such results into one composite observation.
#
# ev_first_check = claim("<what the first check found>")
# observe(
#     ev_first_check,
#     rationale=(
#         "evidence_family: <token>; correlation_model: single; "
#         "<what was observed and how>. anchor: <file or citation>"
#     ),
# )
#
# A likelihood update says, after reader_reasoning:, why the evidence is more
# (or less) expected when the hypothesis holds. Showing that a tension exists,
# or planning to test it, is not evidence that the idea resolves it: a raising
# update into tension_resolution names its class before the anchor, one of
# resolution_evidence: mechanism, resolution_evidence: discriminating_test or
# resolution_evidence: demonstrated_partial_resolution.
#
# infer(
#     ev_first_check,
#     hypothesis=tension_resolution,
#     p_e_given_h=0.90, p_e_given_not_h=0.09,
#     rationale=(
#         "reader_reasoning: <why this evidence changes the hypothesis>. "
#         "resolution_evidence: demonstrated_partial_resolution. anchor: <where to check>"
#     ),
# )
#
# A strong raise of downstream_reach also lists at least three independently
# anchored domains before the anchor: "reader_reasoning: domains: <one>;
# <two>; <three>. <why>. anchor: <where to check>".
#
# Each criterion then moves worth:
#
# infer(
#     tension_resolution,
#     hypothesis=worth,
#     p_e_given_h=0.75, p_e_given_not_h=0.25,
#     rationale="reader_reasoning: <why the criterion bears on worth>. anchor: <idea card>",
# )
`
