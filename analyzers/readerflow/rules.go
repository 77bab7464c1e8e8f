package readerflow

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("readerflow")

// The rules of this family, reported by their variables.
var (
	GAIA507 = &diag.Rule{
		Code: "GAIA507", Name: "criterion-disconnected", Severity: diag.Warning,
		Title: "criterion has no reader-flow path to worth",
		Text: `A review flag: a required criterion (tension_resolution, downstream_reach,
mechanism_insight, testability_timing, verification_cost) with no chain of infers into worth
cannot move the posterior, however well its own evidence is graded (weakness W10). Each
infer(evidence, hypothesis=h) leads a reader from the evidence to h; the criterion needs a
chain of them ending at worth. nullius reads the chain from the source, as far as names
resolve, and again from the compiled IR; the flag sits at the criterion's declaration.
Connect the criterion with an infer into worth (or into a criterion that reaches worth), or
say in review why it stays open.`,
		Bad: `from gaia.engine.lang import claim, infer

__all__ = ["worth"]

worth = claim("Matching the two published widths at two loops is worth a month of work.")
mechanism_insight = claim("The gap is traced to a dropped scale-dependent term.")
`,
		Good: `from gaia.engine.lang import claim, infer

__all__ = ["worth"]

worth = claim("Matching the two published widths at two loops is worth a month of work.")
mechanism_insight = claim("The gap is traced to a dropped scale-dependent term.")
infer(
    mechanism_insight,
    hypothesis=worth,
    p_e_given_h=0.75,
    p_e_given_not_h=0.25,
    rationale="reader_reasoning: a traced mechanism makes the month of work likelier to pay off. anchor: idea card",
)
`,
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA507,
	}
}

var _ = family.Declare(ruleList)
