package coupling

import "github.com/nullius-dev/nullius/internal/diag"

// Shared beginnings of the examples below.
const (
	hdr = "from gaia.engine.lang import associate, claim, derive, exclusive\na = claim(\"A.\")\nb = claim(\"B.\")\n"
)

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("coupling")

// The rules of this family, reported by their variables.
var (
	GAIA502 = &diag.Rule{
		Code: "GAIA502", Name: "ungraded-coupling-to-worth", Severity: diag.Error,
		Title: "worth is coupled by a verb that carries no likelihood grade",
		Text: `associate, derive, compute, equal, contradict and exclusive move belief without one of
the three likelihood grades, and the compiled evidence-family audit does not see them
(weakness W2). With worth as an operand or as the conclusion they would move the result past
the discipline. The diagnostic sits at the worth argument. Update worth only through graded
infer statements from its criteria.`,
		Bad:   hdr + "worth = claim(\"The idea merits effort.\")\nderive(worth, given=[a])\n",
		Good:  hdr + "derive(b, given=[a])\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	GAIA503 = &diag.Rule{
		Code: "GAIA503", Name: "associate-off-grade", Severity: diag.Error,
		Title: "associate uses probabilities that are not grade values",
		Text: `associate(a, b, p_a_given_b=..., p_b_given_a=...) is a soft coupling whose numbers the
reference never checked (weakness W2). nullius requires both to be literal grade values
(0.03, 0.09, 0.25, 0.75, 0.90). The diagnostic sits at the value (or the call when one is
missing).`,
		Bad:   hdr + "associate(a, b, p_a_given_b=0.99, p_b_given_a=0.99)\n",
		Good:  hdr + "associate(a, b, p_a_given_b=0.90, p_b_given_a=0.75)\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	GAIA509 = &diag.Rule{
		Code: "GAIA509", Name: "operator-arity", Severity: diag.Error,
		Title: "equal, contradict or exclusive does not have exactly two operands",
		Text: `Gaia's structural operators take exactly two claims; a third operand or a *splat is a
TypeError inside gaia build compile, reported as a traceback (weakness W18). The diagnostic
sits at the call. Expand into pairwise exclusive() calls (or pairwise equal/contradict); a
call standing alone on its line comes with a fix that does so.`,
		Bad:   hdr + "c = claim(\"C.\")\nexclusive(a, b, c)\n",
		Good:  hdr + "c = claim(\"C.\")\nexclusive(a, b)\nexclusive(a, c)\nexclusive(b, c)\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA502, GAIA503, GAIA509,
	}
}

var _ = family.Declare(ruleList)
