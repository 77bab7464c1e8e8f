package notes

import "github.com/nullius-dev/nullius/internal/diag"

// Shared beginnings of the examples below.
const (
	hdr  = "from gaia.engine.lang import claim, observe\nfact = claim(\"The measured width is 12 MeV.\")\n"
	ihdr = "from gaia.engine.lang import claim, infer\nh = claim(\"H.\")\n"
	fam  = "evidence_family: width-measurement; correlation_model: single; "
)

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("notes")

// The rules of this family, reported by their variables.
var (
	GAIA030 = &diag.Rule{
		Code: "GAIA030", Name: "note-missing", Severity: diag.Error,
		Title: "a statement has no rationale or justification",
		Text: `observe and infer need a rationale= keyword and register_prior a justification= keyword,
written in the call (a **mapping is not read; rationale= on register_prior does not count).
The diagnostic sits at the call. Add the note, ending with an anchor to its source.`,
		Bad:   hdr + "observe(fact)\n",
		Good:  hdr + "observe(fact, rationale=\"" + fam + "measured in run 7. anchor: run 7 logbook\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA031 = &diag.Rule{
		Code: "GAIA031", Name: "note-not-literal", Severity: diag.Error,
		Title: "a statement's note is not a literal string",
		Text: `The note must be a string literal (adjacent literals inside parentheses are fine) so the
audit reads exactly what compiles. Names, f-strings (even without placeholders), '+'
concatenation, calls, None and bytes fail. The diagnostic sits at the note value and says how
to rewrite it; an f-string without placeholders comes with a fix that rewrites it as the plain
literal of the same value.`,
		Bad:   hdr + "note = \"" + fam + "anchor: run 7 logbook\"\nobserve(fact, rationale=note)\n",
		Good:  hdr + "observe(fact, rationale=(\"" + fam + "\"\n                        \"measured in run 7. anchor: run 7 logbook\"))\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA032 = &diag.Rule{
		Code: "GAIA032", Name: "anchor-not-trailing", Severity: diag.Error,
		Title: "a note does not end with an 'anchor: <reference>' line",
		Text: `Every note must end with "anchor: <reference>" on its last line (trailing blank lines
are ignored; the keyword may end the previous line). "Anchor:" (capitalised), an empty
reference or prose after the anchor's line fail. The diagnostic sits at the note; the message
names the token at fault (W15). GAIA033 and GAIA034 run only once this passes.`,
		Bad:   hdr + "observe(fact, rationale=\"" + fam + "anchor: run 7 logbook\\nplus more prose\")\n",
		Good:  hdr + "observe(fact, rationale=\"" + fam + "measured in run 7. anchor: run 7 logbook\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA033 = &diag.Rule{
		Code: "GAIA033", Name: "infer-missing-reader-reasoning", Severity: diag.Error,
		Title: "an infer rationale does not open with reader_reasoning:",
		Text: `The stripped text before the anchor of an infer rationale must begin with
"reader_reasoning:" followed by the authored explanation of why the evidence changes the
hypothesis. An anchor alone, a criterion label, a capitalised sentinel, or a sentence before
the sentinel fail. The diagnostic sits at the rationale and names what it found.`,
		Bad:   ihdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=\"anchor: survey artifact\")\n",
		Good:  ihdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=\"reader_reasoning: the survey finds the effect in every cohort studied. anchor: survey artifact\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA034 = &diag.Rule{
		Code: "GAIA034", Name: "observe-evidence-family", Severity: diag.Error,
		Title: "an observe rationale lacks one evidence_family and correlation_model",
		Text: `Gaia 0.5.0a4 multiplies likelihoods of observations as if independent, so every observe
rationale must declare, before its anchor, exactly one "evidence_family: <token>;" (1-64
characters of [a-z0-9._-], starting and ending with a letter or digit) and exactly one
"correlation_model: single;". The diagnostic sits at the rationale and names the wrong token.
Collapse correlated observations into one composite observation.`,
		Bad:   hdr + "observe(fact, rationale=\"evidence_family: Width; measured in run 7. anchor: run 7 logbook\")\n",
		Good:  hdr + "observe(fact, rationale=\"" + fam + "measured in run 7. anchor: run 7 logbook\")\n",
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	GAIA504 = &diag.Rule{
		Code: "GAIA504", Name: "anchor-placeholder", Severity: diag.Error,
		Title: "a note anchors to a placeholder instead of a reference",
		Text: `The anchor is what a reviewer follows to check the note. "anchor: TODO", "TBD", "?", "x",
"none", "n/a" or anything shorter than three characters passes the trailing-anchor rule but
points nowhere (weakness W5). The diagnostic sits at the note. Name the artifact, paper, file
or run the note rests on.`,
		Bad:   hdr + "observe(fact, rationale=\"" + fam + "measured in run 7. anchor: TODO\")\n",
		Good:  hdr + "observe(fact, rationale=\"" + fam + "measured in run 7. anchor: run 7 logbook\")\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	GAIA505 = &diag.Rule{
		Code: "GAIA505", Name: "reasoning-too-short", Severity: diag.Warning,
		Title: "an infer's reader_reasoning is shorter than five words",
		Text: `A review flag: one character after "reader_reasoning:" satisfies GAIA033, but a reader
learns nothing from "r." (weakness W5). Explanations under five words (a Han, Kana or Hangul
character counts as a word) are flagged at the rationale. Say why the evidence changes the
hypothesis.`,
		Bad:   ihdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=\"reader_reasoning: holds. anchor: survey artifact\")\n",
		Good:  ihdr + "infer(\"E.\", hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=\"reader_reasoning: the survey finds the effect in every cohort studied. anchor: survey artifact\")\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA030, GAIA031, GAIA032, GAIA033, GAIA034, GAIA504, GAIA505,
	}
}

var _ = family.Declare(ruleList)
