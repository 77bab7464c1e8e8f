package criteria

import "github.com/nullius-dev/nullius/internal/diag"

// Shared beginnings of the examples below.
const (
	hdr = "from gaia.engine.lang import claim, infer\n"
)

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("criteria")

// The rules of this family, reported by their variables.
var (
	GAIA013 = &diag.Rule{
		Code: "GAIA013", Name: "strong-reach-missing-domains", Severity: diag.Error,
		Title: "a strong downstream_reach raise names fewer than three domains",
		Text: `A strong raise (0.90/0.03) of downstream_reach claims broad reach, so its rationale must
name at least three distinct phenomenon domains in a "domains: a; b; c" clause before the
anchor (entries split on ';' or '|'). nullius ends the clause at its sentence (a '.' followed
by a space, or a blank line; a clause may continue across line breaks), compares entries
case-folded so repeats count once, and does not accept "subdomains:" (weaknesses W4, W16). The
target is the variable downstream_reach, one assigned a claim titled so, a plain alias of
either, or what a same-module helper receives as its hypothesis parameter (W3; the message
then names the helper call). The diagnostic sits at the rationale (or the call when it is
missing). Name three domains.`,
		Bad: hdr + "downstream_reach = claim(\"Results feed lattice and collider work.\")\n" +
			"infer(\"E.\", hypothesis=downstream_reach, p_e_given_h=0.90, p_e_given_not_h=0.03,\n" +
			"      rationale=\"reader_reasoning: domains: lattice; collider. The method transfers broadly. anchor: idea card\")\n",
		Good: hdr + "downstream_reach = claim(\"Results feed lattice, collider and cosmology work.\")\n" +
			"infer(\"E.\", hypothesis=downstream_reach, p_e_given_h=0.90, p_e_given_not_h=0.03,\n" +
			"      rationale=\"reader_reasoning: domains: lattice; collider; cosmology. The method transfers broadly. anchor: idea card\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA014 = &diag.Rule{
		Code: "GAIA014", Name: "tension-raise-missing-resolution-class", Severity: diag.Error,
		Title: "a raising tension_resolution update has no resolution class",
		Text: `Evidence that a tension exists, or that a check is planned, does not resolve it. A raising
update (p_e_given_h > p_e_given_not_h) of tension_resolution must say, before its anchor,
"resolution_evidence: mechanism", "discriminating_test" or "demonstrated_partial_resolution"
(lower case, colon right after the keyword, as the reference). The target is identified as
for GAIA013: the variable tension_resolution, a claim titled so, a plain alias, or a
same-module helper's hypothesis parameter. The diagnostic sits at the rationale (or the call
when it is missing); the message names the token found.`,
		Bad: hdr + "tension_resolution = claim(\"The idea resolves the mass puzzle.\")\n" +
			"infer(\"E.\", hypothesis=tension_resolution, p_e_given_h=0.90, p_e_given_not_h=0.09,\n" +
			"      rationale=\"reader_reasoning: the survey proves the tension exists. anchor: survey artifact\")\n",
		Good: hdr + "tension_resolution = claim(\"The idea resolves the mass puzzle.\")\n" +
			"infer(\"E.\", hypothesis=tension_resolution, p_e_given_h=0.90, p_e_given_not_h=0.09,\n" +
			"      rationale=\"reader_reasoning: the computed splitting matches the data. resolution_evidence: mechanism. anchor: run 7 report\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA013, GAIA014,
	}
}

var _ = family.Declare(ruleList)
