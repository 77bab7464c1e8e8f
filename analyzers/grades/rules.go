package grades

import "github.com/nullius-dev/nullius/internal/diag"

// Shared beginnings of the examples below.
const (
	hdr  = "from gaia.engine.lang import claim, infer\nh = claim(\"H.\")\n"
	note = `rationale="reader_reasoning: the measured shift favours the hypothesis over its rivals. anchor: lab notebook 12"`
)

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("grades")

// The rules of this family, reported by their variables.
var (
	GAIA010 = &diag.Rule{
		Code: "GAIA010", Name: "infer-probabilities-not-literal", Severity: diag.Error,
		Title: "infer probabilities are not literal numbers",
		Text: `Both p_e_given_h and p_e_given_not_h must be written as number literals in the call, so
the grade is auditable where the statement is. A missing p_e_given_not_h (Gaia silently uses
0.5), values from a **mapping, names, unary minus, float("nan") and the legacy
infer([premises], conclusion) form all fail. The diagnostic sits at the first value at fault,
or at the call when a keyword is missing. Write one of the three grades as literals.`,
		Bad:   hdr + "grade = 0.9\ninfer(\"E.\", hypothesis=h, p_e_given_h=grade, p_e_given_not_h=0.09, " + note + ")\n",
		Good:  hdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, " + note + ")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA011 = &diag.Rule{
		Code: "GAIA011", Name: "infer-off-grade-pair", Severity: diag.Error,
		Title: "infer uses a likelihood pair that is not one of the three grades",
		Text: `The discipline allows exactly three likelihood ratios: weak 3 (0.75/0.25), substantial
10 (0.90/0.09) and strong 30 (0.90/0.03), or their reversals for evidence against the
hypothesis. Values compare as Python floats (0.9, 0.90 and 9e-1 are equal); strings, bools and
(1, 0) are off-grade. The diagnostic spans both probability values. Pick the grade the
evidence supports.`,
		Bad:   hdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.85, p_e_given_not_h=0.15, " + note + ")\n",
		Good:  hdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.75, p_e_given_not_h=0.25, " + note + ")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA012 = &diag.Rule{
		Code: "GAIA012", Name: "strong-raise-hypothesis-not-plain", Severity: diag.Error,
		Title: "a strong raise does not name its hypothesis as a plain variable",
		Text: `A raising strong-grade infer (0.90/0.03) moves belief the most, so its target must be
auditable: the hypothesis must be a plain claim variable, not a subscript, attribute, call or
string, and must be given. The diagnostic sits at the hypothesis value (or the call when it
is missing). Bind the claim to a module variable and pass that.`,
		Bad:   hdr + "claims = {\"h\": h}\ninfer(\"E.\", hypothesis=claims[\"h\"], p_e_given_h=0.90, p_e_given_not_h=0.03, " + note + ")\n",
		Good:  hdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.03, " + note + ")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA508 = &diag.Rule{
		Code: "GAIA508", Name: "infer-given-unsupported", Severity: diag.Error,
		Title: "infer with given= is not supported by the posterior contract",
		Text: `Gaia 0.5 accepts infer(..., given=[...]) as a conditional likelihood table, but the
idea-posterior contract reads exactly one premise and two probabilities, so the compiled
check refuses it later with a misleading shape error (GAIA140, weakness W13). nullius refuses
it at the source, at the given= value. Model the condition as its own claim and infer on it.`,
		Bad:   hdr + "g = claim(\"G.\")\ninfer(\"E.\", hypothesis=h, given=[g], p_e_given_h=0.90, p_e_given_not_h=0.09, " + note + ")\n",
		Good:  hdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, " + note + ")\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	GAIA901 = &diag.Rule{
		Code: "GAIA901", Name: "infer-hypothesis-not-plain", Severity: diag.Warning,
		Title: "infer hypothesis is not a plain claim variable",
		Text: `A review flag, never blocking: an infer whose hypothesis is an attribute, subscript or
call (and which is not a strong raise, where this is GAIA012) updates a target the scan cannot
name. The flag sits at the hypothesis value. A reviewer should confirm the update target;
binding the claim to a variable removes the flag.`,
		Bad:   hdr + "ns = {\"h\": h}\ninfer(\"E.\", hypothesis=ns[\"h\"], p_e_given_h=0.90, p_e_given_not_h=0.09, " + note + ")\n",
		Good:  hdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, " + note + ")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA010, GAIA011, GAIA012, GAIA508, GAIA901,
	}
}

var _ = family.Declare(ruleList)
