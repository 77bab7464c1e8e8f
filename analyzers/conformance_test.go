package analyzers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
)

// scan lints one module as the whole of a package and returns the codes
// it produced, sorted, with multiplicity. GAIA504/GAIA505 (anchor and
// reasoning content, beyond the reference), GAIA507 (criteria with no path
// to worth: the reference's inputs wire only what a test needs) and
// NULLIUS codes are left out: the reference's inputs use terse anchors
// such as "anchor: a", and those rules have their own fixtures.
func scan(t *testing.T, src string) []string {
	t.Helper()
	var codes []string
	for _, d := range lintSource(t, src) {
		if d.Code != "GAIA504" && d.Code != "GAIA505" && d.Code != "GAIA507" && !strings.HasPrefix(d.Code, "NULLIUS") {
			codes = append(codes, d.Code)
		}
	}
	slices.Sort(codes)
	return codes
}

// lintSource lints src as the only module of a package.
func lintSource(t *testing.T, src string) []diag.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	mod := filepath.Join(dir, "src", "conf")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"conf-gaia\"\n")
	write(t, filepath.Join(mod, "__init__.py"), src)
	res, err := analyzers.Lint([]string{dir}, analyzers.Options{NoIR: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Diagnostics
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

type row struct {
	name string
	src  string
	want []string // sorted codes; nil = clean
}

func runRows(t *testing.T, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := scan(t, r.src)
			want := slices.Clone(r.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("codes = %v, want %v\nsource:\n%s", got, want, r.src)
			}
		})
	}
}

// cleanModule is CLEAN_MODULE of the reference's test_extract.py (§4).
const cleanModule = `from gaia.engine.lang import claim, infer, observe, register_prior

worth = claim("The idea is worth pursuing.", title="worth")
sub = claim("A sub-criterion holds.", title="sub")
ev = claim("An anchored fact.")
grade = 0.9
observe(ev, rationale="evidence_family: anchored-fact; correlation_model: single; context. anchor: survey artifact")
infer(ev, hypothesis=sub, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale="reader_reasoning: the fact is far likelier if the sub-criterion holds; substantial grade. anchor: survey artifact")
register_prior(sub, value=0.7, justification="external estimate. anchor: cited source")
`

const cleanReasoning = "reader_reasoning: the fact is far likelier if the sub-criterion holds; substantial grade. anchor: survey artifact"

// strongReach is STRONG_REACH with its {clause} placeholder.
const strongReach = `from gaia.engine.lang import claim, infer, observe

worth = claim("The idea is worth pursuing.", title="worth")
downstream_reach = claim("Results feed many problems.", title="downstream_reach")
ev = claim("An anchored fact.")
observe(ev, rationale="evidence_family: reach-fact; correlation_model: single; context. anchor: idea card")
infer(ev, hypothesis=downstream_reach, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale="reader_reasoning: {clause}broad reach. anchor: idea card")
`

func clean(old, new string) string { return strings.Replace(cleanModule, old, new, 1) }

func reach(clause string) string { return strings.Replace(strongReach, "{clause}", clause, 1) }

// tension is the module of rows 36-37 with a rationale placeholder.
func tension(rationale string) string {
	return `from gaia.engine.lang import claim, infer
tension = claim("The tension is resolved.", title="tension_resolution")
ev = claim("An executed check.")
infer(ev, hypothesis=tension, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale="` + rationale + `")
`
}

// scaffoldTemplate is a facsimile of the raw gaia_package_scaffold.py
// template (§3.7): docstring, imports, __all__, six stock claims and
// commented wiring recipes.
const scaffoldTemplate = `"""Gaia argument graph for the idea example-idea.

Grades: p_e_given_h=0.75, p_e_given_not_h=0.25 (weak); p_e_given_h=0.90, p_e_given_not_h=0.09
(substantial); p_e_given_h=0.90, p_e_given_not_h=0.03 (strong). Every rationale ends with an
anchor: note. exclusive() is pairwise. Pinned to gaia-lang 0.5.0a4.
"""

from gaia.engine.lang import claim, infer, observe

__all__ = ["worth"]

worth = claim("The idea merits sustained verification effort.", title="worth", reader_role="conclusion")
tension_resolution = claim("The idea resolves an anchored open tension.", title="tension_resolution", reader_role="criterion")
downstream_reach = claim("The idea's results feed an anchored chain of downstream problems.", title="downstream_reach", reader_role="criterion")
mechanism_insight = claim("The idea supplies a new, testable mechanistic understanding.", title="mechanism_insight", reader_role="criterion")
testability_timing = claim("The idea is testable within an open verification window.", title="testability_timing", reader_role="criterion")
verification_cost = claim("A bounded, decisive first check of the idea exists.", title="verification_cost", reader_role="criterion")

# ev = claim("...")
# observe(ev, rationale="evidence_family: <token>; correlation_model: single; ... anchor: <source>")
# infer(ev, hypothesis=tension_resolution, p_e_given_h=0.90, p_e_given_not_h=0.09,
#       rationale="reader_reasoning: ... resolution_evidence: mechanism. anchor: <source>")
`

// TestConformanceExtract holds the static-scan rows 30-61 of
// test_extract.py (gaia-discipline.md §4.1), named after the reference
// tests. Rows whose behaviour nullius changes on purpose assert the new
// behaviour and say which weakness (docs/deviations.md).
func TestConformanceExtract(t *testing.T) {
	runRows(t, []row{
		{"30_test_discipline_scan_passes_clean_module", cleanModule, nil},
		{"31_test_discipline_scan_flags_off_grade_pair", clean("p_e_given_h=0.90", "p_e_given_h=0.85"), []string{"GAIA011"}},
		{"32_test_discipline_scan_flags_missing_anchor_note", clean(`"evidence_family: anchored-fact; correlation_model: single; context. anchor: survey artifact"`, `"context with no note"`), []string{"GAIA032"}},
		{"33_test_discipline_scan_rejects_anchor_only_infer_rationale", clean(cleanReasoning, "anchor: survey artifact"), []string{"GAIA033"}},
		{"34_test_discipline_scan_rejects_unmarked_generic_criterion_as_reasoning", clean(cleanReasoning, "The sub-criterion holds. anchor: survey artifact"), []string{"GAIA033"}},
		{"35_test_discipline_scan_requires_observation_family_and_correlation_model", clean("evidence_family: anchored-fact; correlation_model: single; ", ""), []string{"GAIA034"}},
		// 36: the reference test asserts GAIA014; these rationales also lack reader_reasoning.
		{"36a_test_tension_existence_or_plan_cannot_raise_resolution", tension("The survey proves the tension exists. anchor: survey artifact"), []string{"GAIA014", "GAIA033"}},
		{"36b_test_tension_existence_or_plan_cannot_raise_resolution", tension("A future check is planned. anchor: compute plan"), []string{"GAIA014", "GAIA033"}},
		{"37a_test_raising_tension_resolution_requires_explicit_resolution_class", tension("reader_reasoning: the check discriminates. resolution_evidence: mechanism. anchor: executed result"), nil},
		{"37b_test_raising_tension_resolution_requires_explicit_resolution_class", tension("reader_reasoning: the check discriminates. resolution_evidence: discriminating_test. anchor: executed result"), nil},
		{"37c_test_raising_tension_resolution_requires_explicit_resolution_class", tension("reader_reasoning: the check discriminates. resolution_evidence: demonstrated_partial_resolution. anchor: executed result"), nil},
		{"38_test_discipline_scan_requires_anchor_on_the_last_line", clean("context. anchor: survey artifact", `context. anchor: survey artifact\nplus a second line of prose`), []string{"GAIA032"}},
		{"39_test_discipline_scan_flags_missing_justification_anchor", clean("external estimate. anchor: cited source", "just a feeling"), []string{"GAIA032"}},
		{"40_test_discipline_scan_rejects_non_literal_note", cleanModule + "note = 'anchor: x'\nobserve('More.', rationale=note)\n", []string{"GAIA031"}},
		{"41_test_discipline_scan_rejects_non_literal_probabilities", clean("p_e_given_h=0.90", "p_e_given_h=grade"), []string{"GAIA010"}},
		{"42_test_discipline_scan_resolves_import_aliases", "from gaia.engine.lang import claim, infer as i\nh = claim('H.')\ni('E.', hypothesis=h, p_e_given_h=0.85, p_e_given_not_h=0.15, rationale='" + cleanReasoning + "')\n", []string{"GAIA011"}},
		{"43_test_discipline_scan_resolves_module_aliases", "import gaia.engine.lang as lang\nlang.observe('Fact.', rationale='no note here')\n", []string{"GAIA032"}},
		{"44_test_strong_reach_requires_domains_clause", reach(""), []string{"GAIA013"}},
		{"45_test_strong_reach_with_three_domains_passes", reach("domains: first domain; second domain; third domain. "), nil},
		{"46_test_strong_reach_with_two_domains_is_rejected", reach("domains: first domain; second domain. "), []string{"GAIA013"}},
		{"47a_test_domains_clause_does_not_count_the_anchor_as_a_domain", strings.Replace(strongReach, "{clause}broad reach. anchor: idea card", "domains: first domain; second domain; anchor: idea card", 1), []string{"GAIA013"}},
		{"47b_test_domains_clause_does_not_count_the_anchor_as_a_domain", strings.Replace(strongReach, "{clause}broad reach. anchor: idea card", "domains: first domain; second domain; third domain. anchor: idea card", 1), nil},
		// 48, 56: the reference only reports the alias; nullius also
		// resolves i(...) through the alias and checks it (W12).
		{"48_test_scan_rejects_assignment_aliases", "from gaia.engine.lang import claim, infer\nh = claim('H.')\ni = infer\ni('E.', hypothesis=h, p_e_given_h=0.85, p_e_given_not_h=0.15, rationale='" + cleanReasoning + "')\n", []string{"GAIA001", "GAIA011"}},
		{"49_test_scan_rejects_passing_statements_as_values", "from gaia.engine.lang import observe\nhelpers = {'obs': observe}\n", []string{"GAIA001"}},
		{"50_test_scan_rejects_non_literal_prior_value", clean("value=0.7", "value=prior_guess"), []string{"GAIA020"}},
		{"51_test_strong_grade_on_other_claims_needs_no_domains", strings.ReplaceAll(reach(""), "downstream_reach", "mechanism_insight"), nil},
		{"52_test_strong_raise_requires_plain_hypothesis_variable", reach("") + "claims = {'reach': downstream_reach}\ninfer(ev, hypothesis=claims['reach'], p_e_given_h=0.90, p_e_given_not_h=0.03, rationale='reader_reasoning: r. anchor: a')\n", []string{"GAIA012", "GAIA013"}},
		{"53_test_non_strong_indirect_hypothesis_is_a_review_flag", clean("hypothesis=sub", "hypothesis=graph['sub']"), []string{"GAIA901"}},
		{"54_test_discipline_scan_accepts_reversed_grades", clean("p_e_given_h=0.90, p_e_given_not_h=0.09", "p_e_given_h=0.09, p_e_given_not_h=0.90"), nil},
		// Deliberate deviation (issue 4, W10): the reference's raw template scans
		// clean; nullius names each of the six stock sentences to replace.
		{"55_test_discipline_scan_covers_generated_template_W10", scaffoldTemplate, []string{"GAIA510", "GAIA510", "GAIA510", "GAIA510", "GAIA510", "GAIA510"}},
		{"56_test_scan_rejects_module_attribute_assignment_alias", "import gaia.engine.lang as lang\nfrom gaia.engine.lang import claim\nh = claim('H.')\ni = lang.infer\ni('E.', hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale='no anchor')\n", []string{"GAIA001", "GAIA011", "GAIA032"}},
		{"57_test_scan_still_allows_direct_module_attribute_call", "import gaia.engine.lang as lang\nh = lang.claim('H.')\nlang.observe('Fact.', rationale='evidence_family: f; correlation_model: single; anchor: x')\nlang.infer('E.', hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale='reader_reasoning: r. anchor: x')\n", nil},
		{"58_test_strong_reach_identified_by_claim_title_needs_domains", "from gaia.engine.lang import claim, infer\nreach = claim('Reach.', title='downstream_reach')\ninfer('E.', hypothesis=reach, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale='broad reach. anchor: idea card')\n", []string{"GAIA013", "GAIA033"}},
		{"59_test_strong_reach_by_title_with_domains_passes", "from gaia.engine.lang import claim, infer\nreach = claim('Reach.', title='downstream_reach')\ninfer('E.', hypothesis=reach, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale='reader_reasoning: domains: first; second; third. broad reach. anchor: idea card')\n", nil},
		{"60_test_domains_clause_inside_anchor_note_does_not_count", strings.Replace(strongReach, "{clause}broad reach. anchor: idea card", "broad reach. anchor: idea card; domains: first; second; third", 1), []string{"GAIA013"}},
		{"61_test_strong_reach_with_domains_hidden_in_anchor_is_rejected", "from gaia.engine.lang import claim, infer\ndownstream_reach = claim('R.')\ninfer('E.', hypothesis=downstream_reach, p_e_given_h=0.90, p_e_given_not_h=0.03, rationale='reach. anchor: idea card; domains: a; b; c')\n", []string{"GAIA013", "GAIA033"}},
	})
}
