package analyzers_test

import (
	"strings"
	"testing"
)

// hdr is HDR of the §6 appendix plus the claims its rows use.
const hdr = "from gaia.engine.lang import claim, infer, observe, register_prior\nh = claim('H.')\nev = claim('E.')\n"

// okR and okO are valid infer and observe rationales.
const (
	okR = `"reader_reasoning: r. anchor: a"`
	okO = `"evidence_family: f; correlation_model: single; anchor: a"`
)

// inf builds an infer call on h with the given probabilities and rationale.
func inf(h, nh, rationale string) string {
	return "infer(ev, hypothesis=h, p_e_given_h=" + h + ", p_e_given_not_h=" + nh + ", rationale=" + rationale + ")\n"
}

func obs(rationale string) string { return hdr + "observe(ev, rationale=" + rationale + ")\n" }

// reachMod and tensionMod put one update on the named criterion.
func reachMod(h, nh, rationale string) string {
	return hdr + "downstream_reach = claim('R.')\ninfer(ev, hypothesis=downstream_reach, p_e_given_h=" + h + ", p_e_given_not_h=" + nh + ", rationale=" + rationale + ")\n"
}

func tensionMod(h, nh, rationale string) string {
	return hdr + "tension_resolution = claim('T.')\ninfer(ev, hypothesis=tension_resolution, p_e_given_h=" + h + ", p_e_given_not_h=" + nh + ", rationale=" + rationale + ")\n"
}

// TestConformanceAppendixGrades: §6 rows on likelihood values.
func TestConformanceAppendixGrades(t *testing.T) {
	runRows(t, []row{
		{"not_h_omitted", hdr + "infer(ev, hypothesis=h, p_e_given_h=0.90, rationale=" + okR + ")\n", []string{"GAIA010"}},
		{"one_zero", hdr + inf("1", "0", okR), []string{"GAIA011"}},
		{"strings", hdr + inf(`"0.9"`, `"0.09"`, okR), []string{"GAIA011"}},
		{"unary_minus", hdr + inf("-0.9", "0.09", okR), []string{"GAIA010"}},
		{"exponent", hdr + inf("9e-1", "9e-2", okR), nil},
		{"trailing_zero", hdr + inf("0.900", ".09", okR), nil},
		{"underscores", hdr + inf("0.9_0", "0.0_9", okR), nil},
		{"bool", hdr + inf("True", "0.09", okR), []string{"GAIA011"}},
		{"nan", hdr + inf(`float("nan")`, "0.09", okR), []string{"GAIA010"}},
		{"kwargs_splat", hdr + "kw = {}\ninfer(ev, hypothesis=h, **kw, rationale=" + okR + ")\n", []string{"GAIA010"}},
		{"legacy_form", hdr + "infer([ev], h, rationale=" + okR + ")\n", []string{"GAIA010"}},
		{"evidence_keyword", hdr + "infer(evidence='E.', hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=" + okR + ")\n", nil},
		// W13: the reference passes given= and fails later on the IR.
		{"given_W13", hdr + "g = claim('G.')\ninfer(ev, hypothesis=h, given=g, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=" + okR + ")\n", []string{"GAIA508"}},
		{"two_on_one_line", hdr + "infer(ev, hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale=" + okR + "); infer(ev, hypothesis=h, p_e_given_h=0.7, p_e_given_not_h=0.1, rationale=" + okR + ")\n", []string{"GAIA011", "GAIA011"}},
		{"inside_def", hdr + "def build():\n    " + inf("0.8", "0.1", okR), []string{"GAIA011"}},
		{"inside_if_false", hdr + "if False:\n    " + inf("0.8", "0.1", okR), []string{"GAIA011"}},
		{"docstring_and_comment", hdr + "\"\"\"infer(e, p_e_given_h=0.8)\"\"\"\n# infer(e, p_e_given_h=0.8)\n", nil},
	})
}

// TestConformanceAppendixNotes: §6 rows on rationales and justifications.
func TestConformanceAppendixNotes(t *testing.T) {
	runRows(t, []row{
		{"fstring_placeholder", hdr + "x = 1\n" + inf("0.9", "0.09", `f"reader_reasoning: r{x}. anchor: a"`), []string{"GAIA031"}},
		{"fstring_constant", hdr + inf("0.9", "0.09", `f"reader_reasoning: r. anchor: a"`), []string{"GAIA031"}},
		{"plus_concatenation", hdr + inf("0.9", "0.09", `"reader_reasoning: r. " + "anchor: a"`), []string{"GAIA031"}},
		{"implicit_concatenation", hdr + inf("0.9", "0.09", `("reader_reasoning: r. " "anchor: a")`), nil},
		{"none", hdr + inf("0.9", "0.09", "None"), []string{"GAIA031"}},
		{"bytes", hdr + inf("0.9", "0.09", `b"reader_reasoning: r. anchor: a"`), []string{"GAIA031"}},
		{"infer_no_rationale", hdr + "infer(ev, hypothesis=h, p_e_given_h=0.9, p_e_given_not_h=0.09)\n", []string{"GAIA030"}},
		{"observe_no_rationale", hdr + "observe(ev)\n", []string{"GAIA030"}},
		{"empty", hdr + inf("0.9", "0.09", `""`), []string{"GAIA032"}},
		{"empty_reference", hdr + inf("0.9", "0.09", `"reader_reasoning: r. anchor:   "`), []string{"GAIA032"}},
		{"trailing_blank_lines", hdr + inf("0.9", "0.09", `"reader_reasoning: r. anchor: a\n\n  "`), nil},
		{"same_line_prose", hdr + inf("0.9", "0.09", `"reader_reasoning: r. anchor: a and then more prose"`), nil},
		{"keyword_on_penultimate_line", hdr + inf("0.9", "0.09", `"reader_reasoning: r. anchor:\n   ref here"`), nil},
		{"crlf", hdr + inf("0.9", "0.09", `"reader_reasoning: r. anchor: a\r\nnext"`), []string{"GAIA032"}},
		{"cr_only", hdr + inf("0.9", "0.09", `"reader_reasoning: r. anchor: a\rnext"`), nil},
		{"capital_anchor", hdr + inf("0.9", "0.09", `"reader_reasoning: r. Anchor: a"`), []string{"GAIA032"}},
		{"reanchor", hdr + inf("0.9", "0.09", `"reader_reasoning: r. reanchor: a"`), nil},
		{"anchor_twice", hdr + inf("0.9", "0.09", `"reader_reasoning: see anchor: x. anchor: a"`), nil},
		{"prefix_sentence", hdr + inf("0.9", "0.09", `"prefix. reader_reasoning: r. anchor: a"`), []string{"GAIA033"}},
		{"intro_line", hdr + inf("0.9", "0.09", `"intro line\nreader_reasoning: r. anchor: a"`), []string{"GAIA033"}},
		{"capital_sentinel", hdr + inf("0.9", "0.09", `"Reader_Reasoning: r. anchor: a"`), []string{"GAIA033"}},
		{"empty_reasoning", hdr + inf("0.9", "0.09", `"reader_reasoning: anchor: a"`), []string{"GAIA033"}},
		{"leading_newline", hdr + inf("0.9", "0.09", `"\n  reader_reasoning: r.\n anchor: a"`), nil},
		{"family_bad_token", obs(`"evidence_family: BadToken; correlation_model: single; anchor: a"`), []string{"GAIA034"}},
		{"family_unterminated", obs(`"evidence_family: tok correlation_model: single; anchor: a"`), []string{"GAIA034"}},
		{"model_unterminated", obs(`"evidence_family: tok; correlation_model: single anchor: a"`), []string{"GAIA034"}},
		{"family_after_anchor", obs(`"anchor: a; evidence_family: tok; correlation_model: single;"`), []string{"GAIA034"}},
		{"family_x", obs(`"evidence_family: x; correlation_model: single; anchor: a"`), nil},
		{"family_64", obs(`"evidence_family: ` + strings.Repeat("a", 64) + `; correlation_model: single; anchor: a"`), nil},
		{"family_punct", obs(`"evidence_family: a.b_c-d; correlation_model: single; anchor: a"`), nil},
		{"family_65", obs(`"evidence_family: ` + strings.Repeat("a", 65) + `; correlation_model: single; anchor: a"`), []string{"GAIA034"}},
		{"model_upper", obs(`"evidence_family: f; correlation_model: SINGLE; anchor: a"`), []string{"GAIA034"}},
		{"family_no_boundary", obs(`"myevidence_family: f; correlation_model: single; anchor: a"`), []string{"GAIA034"}},
		{"family_between_anchors", obs(`"anchor: pre. evidence_family: f; correlation_model: single; anchor: a"`), []string{"GAIA034"}},
		{"observe_given", hdr + "observe('E.', given=h, rationale=" + okO + ")\n", nil},
	})
}

// TestConformanceAppendixPriors: §6 rows on register_prior and priors.
func TestConformanceAppendixPriors(t *testing.T) {
	const j = `justification="j. anchor: a"`
	runRows(t, []row{
		{"positional_value", hdr + "register_prior(h, 0.7, " + j + ")\n", nil},
		{"no_value", hdr + "register_prior(h, " + j + ")\n", []string{"GAIA020"}},
		{"bool", hdr + "register_prior(h, True, " + j + ")\n", []string{"GAIA020"}},
		{"negative", hdr + "register_prior(h, -0.1, " + j + ")\n", []string{"GAIA020"}},
		{"expression", hdr + "register_prior(h, 1/2, " + j + ")\n", []string{"GAIA020"}},
		// W18: the reference passes 0 and 1, which Gaia rejects when it compiles.
		{"one_W18", hdr + "register_prior(h, 1, " + j + ")\n", []string{"GAIA020"}},
		{"zero_float_W18", hdr + "register_prior(h, 0.0, " + j + ")\n", []string{"GAIA020"}},
		{"zero_W18", hdr + "register_prior(h, 0, " + j + ")\n", []string{"GAIA020"}},
		{"cromwell_edges", hdr + "register_prior(h, 0.001, " + j + ")\nregister_prior(ev, 0.999, " + j + ")\n", nil},
		{"rationale_not_justification", hdr + "register_prior(h, 0.5, rationale=\"j. anchor: a\")\n", []string{"GAIA030"}},
		{"anchor_only", hdr + "register_prior(h, 0.5, justification='anchor: x')\n", nil},
		{"name_justification", hdr + "jj = 'j. anchor: a'\nregister_prior(h, 0.5, justification=jj)\n", []string{"GAIA031"}},
		// W2: inline priors are refused (the reference passed them).
		{"inline_prior_W2", hdr + "c = claim('H.', prior=0.99)\n", []string{"GAIA501"}},
		// W8: worth gets no prior.
		{"worth_prior_W8", hdr + "worth = claim('W.')\nregister_prior(worth, 0.9, " + j + ")\n", []string{"GAIA506"}},
		// W2: ungraded couplings into worth and off-grade associate.
		{"associate_derive_W2", "from gaia.engine.lang import associate, claim, derive\nworth = claim('W.')\nx = claim('X.')\nassociate(worth, x, p_a_given_b=0.99, p_b_given_a=0.99)\nderive(worth, given=[x])\n", []string{"GAIA502", "GAIA502", "GAIA503", "GAIA503"}},
		// W18: exclusive with three operands.
		{"exclusive_three_W18", "from gaia.engine.lang import claim, exclusive\na = claim('A.')\nb = claim('B.')\nc = claim('C.')\nexclusive(a, b, c)\n", []string{"GAIA509"}},
	})
}

// TestConformanceAppendixResolution: §6 rows on name resolution. The rows
// marked W12 are the reference's false positives; nullius resolves names
// through bindings and reports unresolvable receivers as GAIA902.
func TestConformanceAppendixResolution(t *testing.T) {
	runRows(t, []row{
		{"star_import", "from gaia.engine.lang import *\nh = claim('H.')\ninfer('E.', hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale='reader_reasoning: r.')\n", []string{"GAIA011", "GAIA032"}},
		{"mylib_W12", "from mylib import infer\ninfer(1, 2)\n", nil},
		{"logger_observe_W12", "import logging\nlogging.getLogger().observe('x')\n", []string{"GAIA902"}},
		{"instance_observe_W12", "class A:\n    pass\nA().observe()\n", []string{"GAIA902"}},
		{"bare_infer_no_import_W12", "infer('E.', hypothesis=1, p_e_given_h=0.8)\n", []string{"GAIA902"}},
		{"self_observe_W12", "class Telescope:\n    def observe(self, event):\n        return event\n    def run(self):\n        return self.observe(1)\n", nil},
		{"model_infer_param_W12", "def predict(model, batch):\n    return model.infer(batch)\n", nil},
		{"local_def", "def infer(x):\n    return x\n", nil},
		{"dotted_module", "import gaia.engine.lang\nh = gaia.engine.lang.claim('H.')\ngaia.engine.lang.infer(1, hypothesis=ns.h, p_e_given_h=0.9, p_e_given_not_h=0.09, rationale=" + okR + ")\n", []string{"GAIA901"}},
		{"dsl_alias", "from gaia.engine.lang.dsl import infer as I\nI('E.', hypothesis=ns.h, p_e_given_h=0.8, p_e_given_not_h=0.09, rationale=" + okR + ")\n", []string{"GAIA011", "GAIA901"}},
		{"somewhere_alias", "from somewhere import infer as I\nI('E.', hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.09)\n", nil},
		{"relative_alias", "from .helpers import infer as I\nI('E.', hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.09)\n", nil},
		{"wrapper", "from gaia.engine.lang import infer\ndef up(e, h, a, b, r):\n    return infer(e, hypothesis=h, p_e_given_h=a, p_e_given_not_h=b, rationale=r)\n", []string{"GAIA010", "GAIA031"}},
		{"getattr", "import gaia.engine.lang as g\nf = getattr(g, 'in' + 'fer')\nf(1)\n", nil},
		{"print_alias", "from gaia.engine.lang import infer as i\nprint(i)\n", []string{"GAIA001"}},
		{"unknown_attr_load_W12", "x = obj.infer\n", []string{"GAIA902"}},
		{"module_attr_load", "import gaia.engine.lang as lang\nx = lang.infer\n", []string{"GAIA001"}},
		{"attr_store_and_del", "from gaia.engine.lang import infer\nclass O:\n    pass\nobj = O()\nobj.infer = 3\ndel infer\n", nil},
		{"decorator", "from gaia.engine.lang import observe\n@observe\ndef f():\n    pass\n", []string{"GAIA001"}},
		{"rebound_W12", "from gaia.engine.lang import infer\ninfer = 3\nprint(infer)\n", nil},
		{"loop_shadow_W12", "from gaia.engine.lang import infer as i\nfor i in range(3):\n    print(i)\n", nil},
		{"parameter_W12", "from gaia.engine.lang import observe\ndef f(observe=None):\n    return observe\n", nil},
		{"syntax_error", "from gaia.engine.lang import infer\ninfer(ev, p_e_given_h=0.8\ndef\n", []string{"GAIA000"}},
		{"not_utf8", "from gaia.engine.lang import infer\nx = '\xff'\n", []string{"GAIA000"}},
	})
}

// TestConformanceAppendixCriteria: §6 rows on reach and tension identity.
func TestConformanceAppendixCriteria(t *testing.T) {
	const r = `"reader_reasoning: r. anchor: a"`
	runRows(t, []row{
		{"pipes", reachMod("0.90", "0.03", `"reader_reasoning: domains: a | b | c. anchor: x"`), nil},
		{"strong_lowering", reachMod("0.03", "0.90", r), nil},
		// W16: nullius joins the clause across the line break; the reference counted two.
		{"across_lines_W16", reachMod("0.90", "0.03", `"reader_reasoning: domains: a; b\nc; d. anchor: x"`), nil},
		{"empty_pieces", reachMod("0.90", "0.03", `"reader_reasoning: domains: a;;; b; ; c. anchor: x"`), nil},
		// W4: the clause ends with its sentence; the reference counted the next sentence.
		{"trailing_sentence_W4", reachMod("0.90", "0.03", `"reader_reasoning: domains: a; b. Another sentence; with semicolon. anchor: x"`), []string{"GAIA013"}},
		{"duplicates_W4", reachMod("0.90", "0.03", `"reader_reasoning: domains: a; a; A. anchor: x"`), []string{"GAIA013"}},
		{"subdomains_W4", reachMod("0.90", "0.03", `"reader_reasoning: subdomains: a; b; c. anchor: x"`), []string{"GAIA013"}},
		{"attribute_hypothesis", hdr + "infer(ev, hypothesis=ns.downstream_reach, p_e_given_h=0.9, p_e_given_not_h=0.09, rationale=" + r + ")\n", []string{"GAIA901"}},
		{"strong_no_hypothesis", hdr + "infer(ev, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\n", []string{"GAIA012"}},
		{"reassigned_W3", hdr + "reach = claim('R.', title='downstream_reach')\nreach = claim('R2.', title='downstream_reach')\ninfer(ev, hypothesis=reach, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\n", nil},
		// W3: a plain alias names the same claim (Gaia labels it by its first variable).
		{"alias_W3", hdr + "downstream_reach = claim('R.')\nr2 = downstream_reach\ninfer(ev, hypothesis=r2, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\n", []string{"GAIA013"}},
		{"alias_reassigned_W3", hdr + "downstream_reach = claim('R.')\nr2 = downstream_reach\nr2 = h\ninfer(ev, hypothesis=r2, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\n", nil},
		{"titled_suffix_var", hdr + "downstream_reach_x = claim('R.', title='downstream_reach')\ninfer(ev, hypothesis=downstream_reach_x, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\n", []string{"GAIA013"}},
		// W3: a helper that forwards only the hypothesis is followed to its call sites.
		{"helper_W3", hdr + "downstream_reach = claim('R.')\ntension_resolution = claim('T.')\ndef strong_raise(hh):\n    infer(ev, hypothesis=hh, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\nstrong_raise(downstream_reach)\nstrong_raise(hh=tension_resolution)\nstrong_raise(h)\n", []string{"GAIA013", "GAIA014"}},
		{"strong_on_worth", hdr + "worth = claim('W.')\ninfer(ev, hypothesis=worth, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale=" + r + ")\n", nil},
		{"weak_tension", tensionMod("0.75", "0.25", r), []string{"GAIA014"}},
		{"tension_lowering", tensionMod("0.25", "0.75", r), nil},
		{"tension_off_grade", tensionMod("0.8", "0.2", r), []string{"GAIA011", "GAIA014"}},
		{"tension_capital", tensionMod("0.75", "0.25", `"reader_reasoning: r. Resolution_Evidence: mechanism. anchor: a"`), []string{"GAIA014"}},
		{"tension_plural", tensionMod("0.75", "0.25", `"reader_reasoning: r. resolution_evidence: mechanisms. anchor: a"`), []string{"GAIA014"}},
		{"tension_space", tensionMod("0.75", "0.25", `"reader_reasoning: r. resolution_evidence : mechanism. anchor: a"`), []string{"GAIA014"}},
		{"tension_negated", tensionMod("0.75", "0.25", `"reader_reasoning: no resolution_evidence: mechanism exists yet. anchor: a"`), nil},
		{"tension_after_anchor", tensionMod("0.75", "0.25", `"reader_reasoning: r. anchor: a resolution_evidence: mechanism"`), []string{"GAIA014"}},
		{"tension_nonliteral", hdr + "tension_resolution = claim('T.')\ng = 0.75\ninfer(ev, hypothesis=tension_resolution, p_e_given_h=g, p_e_given_not_h=0.25, rationale=" + r + ")\n", []string{"GAIA010"}},
		{"tension_no_rationale", hdr + "tension_resolution = claim('T.')\ninfer(ev, hypothesis=tension_resolution, p_e_given_h=0.75, p_e_given_not_h=0.25)\n", []string{"GAIA014", "GAIA030"}},
		{"tension_by_title", hdr + "t = claim('T.', title='tension_resolution')\ninfer(ev, hypothesis=t, p_e_given_h=0.75, p_e_given_not_h=0.25, rationale=" + r + ")\n", []string{"GAIA014"}},
		{"reach_no_rationale", reachMod("0.90", "0.03", "note") + "", []string{"GAIA013", "GAIA031"}},
	})
}

// TestMessagesAreOneLine: values written across lines are collapsed in
// messages, which must stay one line.
func TestMessagesAreOneLine(t *testing.T) {
	src := hdr + "infer(ev,\n    hypothesis=ns[\n        'h'],\n    p_e_given_h=f(\n        1),\n    p_e_given_not_h=0.09,\n    rationale=(\"a\"\n        \"b\"))\nregister_prior(h, g(\n  1), justification='j. anchor: ok source')\n"
	for _, code := range []string{"GAIA010", "GAIA901", "GAIA020", "GAIA032"} {
		found := false
		for _, d := range lintSource(t, src) {
			if strings.Contains(d.Message, "\n") {
				t.Errorf("multi-line message: %q", d.Message)
			}
			found = found || d.Code == code
		}
		if !found {
			t.Errorf("%s not reported", code)
		}
	}
}
