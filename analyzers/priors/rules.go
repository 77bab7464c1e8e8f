package priors

import "github.com/nullius-dev/nullius/internal/diag"

// Shared beginnings of the examples below.
const (
	hdr = "from gaia.engine.lang import claim, register_prior\nh = claim(\"H.\")\n"
)

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("priors")

// The rules of this family, reported by their variables.
var (
	GAIA020 = &diag.Rule{
		Code: "GAIA020", Name: "prior-value-not-literal", Severity: diag.Error,
		Title: "a register_prior value is not a literal probability in bounds",
		Text: `The value of register_prior (value= or the second positional argument) must be a number
literal. nullius also requires Gaia's own Cromwell bounds [0.001, 0.999]: the reference
accepted 0 and 1, which Gaia then rejects at compile time (weakness W18). Names, bools,
negative numbers (unary minus) and expressions fail. The diagnostic sits at the value (or the
call when it is missing).`,
		Bad:   hdr + "register_prior(h, 1.0, justification=\"Certain by construction. anchor: design note 3\")\n",
		Good:  hdr + "register_prior(h, 0.7, justification=\"External estimate from the survey. anchor: survey table 2\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA501 = &diag.Rule{
		Code: "GAIA501", Name: "inline-prior-forbidden", Severity: diag.Error,
		Title: "a claim or parameter carries an inline prior",
		Text: `claim(..., prior=p) and parameter(..., prior=p) register a prior with a canned
justification and no anchor, so the number escapes the audit that register_prior gets
(weakness W2). The diagnostic sits at the prior= value. Remove it and call
register_prior(claim, p, justification="... anchor: <source>").`,
		Bad:   "from gaia.engine.lang import claim\nh = claim(\"The idea works.\", prior=0.95)\n",
		Good:  hdr + "register_prior(h, 0.7, justification=\"External estimate from the survey. anchor: survey table 2\")\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	GAIA506 = &diag.Rule{
		Code: "GAIA506", Name: "worth-has-prior", Severity: diag.Error,
		Title: "the top-level claim worth is given a prior",
		Text: `worth is the exported conclusion whose posterior is the result; it gets no prior, so its
belief moves only through graded evidence on the criteria (SKILL.md; weakness W8). A
register_prior on worth, or prior= on the claim assigned to worth, is refused at the claim
argument or the prior= value.`,
		Bad:   "from gaia.engine.lang import claim, register_prior\nworth = claim(\"The idea merits effort.\")\nregister_prior(worth, 0.9, justification=\"Promising. anchor: idea card\")\n",
		Good:  "from gaia.engine.lang import claim\nworth = claim(\"The idea merits effort.\")\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA020, GAIA501, GAIA506,
	}
}

var _ = family.Declare(ruleList)
