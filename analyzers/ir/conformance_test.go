package ir

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// The reference's test_extract.py rows 1–24, 64–65 (gaia-discipline.md
// §4.1) and the IR rows of the §6 appendix, one case per row. Rows 25–29
// (package_ref, project root) belong to pipeline/extract.

func TestSampleIsClean(t *testing.T) {
	ds, g := run(t, readFixture(t, "ir_sample.json"))
	if errs := errorCodes(ds); len(errs) != 0 {
		t.Fatalf("sample has errors:\n%s", dump(ds))
	}
	// The reference sample leaves four criteria without an infer edge: the
	// W10 review flag says so, as a warning only.
	if got := codes(ds, diag.Warning); !slices.Equal(got, []string{"GAIA507", "GAIA507", "GAIA507", "GAIA507"}) {
		t.Fatalf("warnings = %v\n%s", got, dump(ds))
	}
	if g.RootID != "github:trial_idea::worth" || g.Cyclic || len(g.Observations) != 2 {
		t.Fatalf("graph = %+v", g)
	}
	if g.ConnectedEvidenceCount() != 2 {
		t.Fatalf("connected = %d", g.ConnectedEvidenceCount())
	}
}

func loadBeliefs(t *testing.T, mutate func(m map[string]any)) *Beliefs {
	t.Helper()
	m := decode(t, readFixture(t, "beliefs_sample.json"))
	if mutate != nil {
		mutate(m)
	}
	b, ds := LoadBeliefs("beliefs.json", encode(t, m))
	if b == nil || len(ds) != 0 {
		t.Fatalf("LoadBeliefs: %v", ds)
	}
	return b
}

func setBelief(label string, v any) func(m map[string]any) {
	return func(m map[string]any) {
		for _, e := range m["beliefs"].([]any) {
			if em := e.(map[string]any); em["label"] == label {
				em["belief"] = v
			}
		}
	}
}

func TestExtractWorthBelief(t *testing.T) {
	for _, tc := range []struct {
		name   string // reference test or §6 row
		mutate func(m map[string]any)
		label  string
		want   float64
		code   string
		frag   []string
	}{
		{name: "row1_worth_belief_extracted_by_label", label: "worth", want: 0.8499370175790979},
		{name: "row2_custom_worth_label", label: "tension_resolution", want: 0.9374212719738726},
		{name: "row3_missing_worth_label_lists_available_labels", mutate: func(m map[string]any) {
			for _, e := range m["beliefs"].([]any) {
				if em := e.(map[string]any); em["label"] == "worth" {
					em["label"] = "renamed"
				}
			}
		}, label: "worth", code: "GAIA208", frag: []string{"ev_tension", "renamed", "expected exactly one belief labelled 'worth', found 0"}},
		{name: "row4_out_of_range_belief_rejected", mutate: setBelief("worth", json.Number("1.7")), label: "worth", code: "GAIA209", frag: []string{"not in", "1.7"}},
		{name: "appendix_int_one_is_float_one", mutate: setBelief("worth", json.Number("1")), label: "worth", want: 1.0},
		{name: "bool_is_not_a_belief", mutate: setBelief("worth", true), label: "worth", code: "GAIA209", frag: []string{"not in [0, 1]: True"}},
		{name: "string_is_not_a_belief", mutate: setBelief("worth", "0.8"), label: "worth", code: "GAIA209"},
		{name: "overflow_is_not_finite", mutate: setBelief("worth", json.Number("1e999")), label: "worth", code: "GAIA209"},
		{name: "negative", mutate: setBelief("worth", json.Number("-0.1")), label: "worth", code: "GAIA209"},
		{name: "duplicate_label", mutate: func(m map[string]any) {
			m["beliefs"] = append(m["beliefs"].([]any), map[string]any{"label": "worth", "belief": json.Number("0.1")})
		}, label: "worth", code: "GAIA208", frag: []string{"found 2"}},
		{name: "no_beliefs_list", mutate: func(m map[string]any) { m["beliefs"] = map[string]any{} }, label: "worth", code: "GAIA208", frag: []string{"no beliefs list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := loadBeliefs(t, tc.mutate)
			got, d := ExtractWorthBelief(b, tc.label)
			if tc.code == "" {
				if d != nil || got != tc.want {
					t.Fatalf("got %v, %v; want %v", got, d, tc.want)
				}
				return
			}
			if d == nil || d.Code != tc.code {
				t.Fatalf("got %v, %+v; want %s", got, d, tc.code)
			}
			for _, f := range tc.frag {
				if !strings.Contains(d.Message, f) {
					t.Errorf("message %q lacks %q", d.Message, f)
				}
			}
			if d.Path != "beliefs.json" || d.Line < 1 || d.Pointer == "" {
				t.Errorf("unlocated: %+v", d)
			}
		})
	}
}

func TestExtractWorthBeliefLocation(t *testing.T) {
	// Located at the offending value in the untouched file layout.
	src := strings.Replace(string(readFixture(t, "beliefs_sample.json")), "0.8499370175790979", "1.7", 1)
	b, _ := LoadBeliefs("beliefs.json", []byte(src))
	_, d := ExtractWorthBelief(b, "worth")
	line := 1 + strings.Count(src[:strings.Index(src, "1.7")], "\n")
	if d == nil || d.Line != line || d.Column != 17 || d.Pointer != "/beliefs/0/belief" {
		t.Fatalf("got %+v, want line %d col 17", d, line)
	}
}

func TestCountObservations(t *testing.T) {
	ir, _ := Load("ir.json", readFixture(t, "ir_sample.json"))
	if n := CountObservations(ir); n != 2 { // row 5
		t.Fatalf("evidence_count = %d, want 2", n)
	}
	// Row 6: a non-observation support is not counted.
	src := sampleWith(t, func(m map[string]any) {
		sup := meta(m["knowledges"].([]any)[2].(map[string]any))["supported_by"].([]any)[0].(map[string]any)
		sup["pattern"] = "inference"
	})
	ir, _ = Load("ir.json", src)
	if n := CountObservations(ir); n != 1 {
		t.Fatalf("evidence_count = %d, want 1", n)
	}
	// §6 / W9: an extra disconnected observation reusing a family passes the
	// audit and is counted by the reference, but not as connected evidence.
	src = sampleWith(t, func(m map[string]any) {
		m["knowledges"] = append(m["knowledges"].([]any), map[string]any{
			"id": "github:trial_idea::ev_extra", "label": "ev_extra", "type": "claim", "exported": false, "content": "Extra.",
			"metadata": map[string]any{"supported_by": []any{map[string]any{"pattern": "observation",
				"rationale": "evidence_family: executed-check; correlation_model: single; anchor: another report"}}},
		})
	})
	ds, _ := run(t, src)
	if errs := errorCodes(ds); len(errs) != 0 {
		t.Fatalf("disconnected reuse refused:\n%s", dump(ds))
	}
	ir, _ = Load("ir.json", src)
	if n, c := CountObservations(ir), ConnectedEvidenceCount(ir); n != 3 || c != 2 {
		t.Fatalf("evidence_count = %d, connected = %d; want 3, 2", n, c)
	}
}

// irCase is one IR input with the exact error codes it must produce (sorted)
// and message fragments of the first finding of the first code.
type irCase struct {
	name string
	src  func(t *testing.T) []byte
	want []string
	frag []string
}

func sample(mutate func(m map[string]any)) func(t *testing.T) []byte {
	return func(t *testing.T) []byte { return sampleWith(t, mutate) }
}

func built(f func() *builder) func(t *testing.T) []byte {
	return func(t *testing.T) []byte { return f().bytes(t) }
}

func setRationale(label, text string) func(m map[string]any) {
	return func(m map[string]any) {
		meta(knowledge(m, label))["supported_by"].([]any)[0].(map[string]any)["rationale"] = text
	}
}

func runCases(t *testing.T, cases []irCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds, _ := run(t, tc.src(t))
			if got := errorCodes(ds); !slices.Equal(got, tc.want) {
				t.Fatalf("error codes = %v, want %v\n%s", got, tc.want, dump(ds))
			}
			if len(tc.want) == 0 {
				return
			}
			d := find(t, ds, tc.want[0])
			for _, f := range tc.frag {
				if !strings.Contains(d.Message, f) {
					t.Errorf("message %q lacks %q", d.Message, f)
				}
			}
			if d.Line < 1 || d.Column < 1 || d.Path != "ir.json" {
				t.Errorf("unlocated finding %+v", d)
			}
		})
	}
}

func TestConformanceContract(t *testing.T) {
	runCases(t, []irCase{
		{name: "row7_rephrased_observations_from_one_family_are_not_independent_votes",
			src: built(func() *builder { return familyIR(false) }), want: []string{"GAIA147"},
			frag: []string{"evidence family 'reused-result' is reused", "['github:family_idea::ev_one', 'github:family_idea::ev_two']"}},
		{name: "row9_reused_evidence_family_still_fails_when_arrows_meet_at_one_claim",
			src: built(func() *builder { return familyIR(true) }), want: []string{"GAIA147"},
			frag: []string{"would multiply those likelihoods"}},
		{name: "row10a_duplicate_family", src: sample(setRationale("ev_tension", "evidence_family: good; evidence_family: BAD; correlation_model: single; anchor: fixture")),
			want: []string{"GAIA143"}, frag: []string{"exactly one", "observed knowledge 'github:trial_idea::ev_tension': "}},
		{name: "row10b_duplicate_model", src: sample(setRationale("ev_tension", "evidence_family: good; correlation_model: single; correlation_model: bogus; anchor: fixture")),
			want: []string{"GAIA143"}, frag: []string{"exactly one"}},
		{name: "row11a_valid_prefix_invalid_suffix", src: sample(setRationale("ev_tension", "evidence_family: good; correlation_model: single-extra; anchor: fixture")),
			want: []string{"GAIA143"}, frag: []string{"exactly one"}},
		{name: "row11b_invalid_family_token", src: sample(setRationale("ev_tension", "evidence_family: invalid-; correlation_model: single; anchor: fixture")),
			want: []string{"GAIA143"}, frag: []string{"exactly one"}},
		{name: "row12_spacing_around_colons", src: sample(setRationale("ev_tension", "evidence_family : spaced-token; correlation_model : single; anchor: fixture")),
			want: nil},
		{name: "row14a_no_anchor", src: sample(setRationale("ev_tension", "evidence_family: executed-check; correlation_model: single; no anchor")),
			want: []string{"GAIA144"}, frag: []string{"non-empty anchor"}},
		{name: "row14b_blank_anchor", src: sample(setRationale("ev_tension", "evidence_family: executed-check; correlation_model: single; anchor:   ")),
			want: []string{"GAIA144"}, frag: []string{"non-empty anchor"}},
		{name: "row15_shared_correlation_model", src: sample(setRationale("ev_tension", "evidence_family: executed-check; correlation_model: shared:missing; anchor: x")),
			want: []string{"GAIA143"}, frag: []string{"does not encode a joint likelihood"}},
		{name: "row16_one_observation_cannot_branch_into_multiple_worth_updates", src: built(func() *builder {
			b := familyIR(true)
			b.infer("shared_input", "mechanism_insight", "0.09", "0.9", okReasoning)
			return b
		}), want: []string{"GAIA146", "GAIA146"}, frag: []string{"more than one likelihood-bearing path"}},
		{name: "row17_reader_flow_cycle", src: built(func() *builder {
			b := familyIR(true)
			b.infer("tension_resolution", "shared_input", "0.09", "0.9", okReasoning)
			return b
		}), want: []string{"GAIA141"}, frag: []string{"contains a cycle"}},
		{name: "row18a_id_number", src: sample(func(m map[string]any) { m["knowledges"].([]any)[0].(map[string]any)["id"] = json.Number("123") }),
			want: []string{"GAIA103", "GAIA140", "GAIA140"}, frag: []string{"id must be a non-empty string"}},
		{name: "row18b_id_list", src: sample(func(m map[string]any) { m["knowledges"].([]any)[0].(map[string]any)["id"] = []any{"not", "scalar"} }),
			want: []string{"GAIA103", "GAIA140", "GAIA140"}, frag: []string{"id must be a non-empty string"}},
		{name: "row18c_id_empty", src: sample(func(m map[string]any) { m["knowledges"].([]any)[0].(map[string]any)["id"] = "" }),
			want: []string{"GAIA103", "GAIA140", "GAIA140"}, frag: []string{"id must be a non-empty string"}},
		{name: "row21_unchanged_scaffold_claim", src: sample(func(m map[string]any) {
			knowledge(m, "worth")["content"] = "The idea merits sustained verification effort."
		}), want: []string{"GAIA122"}, frag: []string{"generic axis text"}},
		{name: "row23_unmarked_infer_reasoning", src: sample(func(m map[string]any) {
			strategy(m, 0)["steps"] = []any{map[string]any{"reasoning": "The criterion is satisfied. anchor: fixture"}}
		}), want: []string{"GAIA130", "GAIA153"}, frag: []string{"reader_reasoning:", "'lcs_infer_tension'"}},
		{name: "row24_canonical_ir_hash", src: sample(func(m map[string]any) { delete(m, "ir_hash") }),
			want: []string{"GAIA101"}, frag: []string{"canonical Gaia ir_hash"}},
		{name: "row64_export_flag_flipped", src: sample(func(m map[string]any) { knowledge(m, "worth")["exported"] = false }),
			want: []string{"GAIA110"}, frag: []string{`__all__ = ["worth"]`, "found exported nodes []"}},
		{name: "row65_multiple_exported_conclusions", src: sample(func(m map[string]any) { knowledge(m, "tension_resolution")["exported"] = true }),
			want: []string{"GAIA110"}, frag: []string{"exactly one exported conclusion", "['worth', 'tension_resolution']"}},
	})
}

func TestConformanceInferProbabilities(t *testing.T) {
	// Row 19: strategies[0].conditional_probabilities[0] set to a non-probability.
	set := func(v any) func(m map[string]any) {
		return func(m map[string]any) { strategy(m, 0)["conditional_probabilities"].([]any)[0] = v }
	}
	runCases(t, []irCase{
		{name: "row19a_string", src: sample(set("0.9")), want: []string{"GAIA140"}, frag: []string{"finite conditional probabilities", `conditional_probabilities[0] is '0.9'`}},
		{name: "row19b_true", src: sample(set(true)), want: []string{"GAIA140"}, frag: []string{"finite conditional probabilities", "is True"}},
		{name: "row19c_negative", src: sample(set(json.Number("-0.1"))), want: []string{"GAIA140"}, frag: []string{"finite conditional probabilities"}},
		{name: "row19d_above_one", src: sample(set(json.Number("1.1"))), want: []string{"GAIA140"}, frag: []string{"finite conditional probabilities"}},
		// Row 19e: Python writes inf as Infinity, which strict JSON refuses
		// (GAIA100, a deviation); an overflowing literal is the JSON way to
		// say inf and lands in GAIA140 as the reference row expects.
		{name: "row19e_overflow_is_inf", src: sample(set(json.Number("1e999"))), want: []string{"GAIA140"}, frag: []string{"finite conditional probabilities"}},
		{name: "row19e_infinity_literal", src: func(t *testing.T) []byte {
			return []byte(strings.Replace(string(readFixture(t, "ir_sample.json")), "0.09,", "Infinity,", 1))
		}, want: []string{"GAIA100"}, frag: []string{"not valid UTF-8 JSON", "NaN and Infinity"}},
	})
}

func TestConformanceAppendix(t *testing.T) {
	runCases(t, []irCase{
		{name: "exported_string_true", src: sample(func(m map[string]any) { knowledge(m, "worth")["exported"] = "true" }),
			want: []string{"GAIA105", "GAIA110"}, frag: []string{"exported must be a JSON boolean"}},
		{name: "duplicate_infer_fans_out", src: sample(func(m map[string]any) {
			m["strategies"] = append(m["strategies"].([]any), decode(t, encode(t, strategy(m, 0))))
		}), want: []string{"GAIA145"}, frag: []string{"supplies 2 independent likelihood updates"}},
		{name: "criterion_typed_note_passes_120_122", src: sample(func(m map[string]any) { knowledge(m, "mechanism_insight")["type"] = "note" }),
			want: nil},
		// W10 deviation: the reference accepts the stock sentence minus its
		// final period; nullius normalizes before comparing.
		{name: "stock_sentence_minus_period_w10", src: sample(func(m map[string]any) {
			knowledge(m, "worth")["content"] = "the idea merits   sustained verification effort"
		}), want: []string{"GAIA122"}, frag: []string{"generic axis text"}},
		{name: "legacy_verification_cost_sentence", src: sample(func(m map[string]any) {
			knowledge(m, "worth")["content"] = "A bounded next check or executed first check is recorded."
		}), want: []string{"GAIA122"}},
		// W13 deviation: a conditional infer gets its own clear message
		// instead of the misleading GAIA140 shape message.
		{name: "given_infer_w13", src: sample(func(m map[string]any) {
			s := strategy(m, 2)
			s["premises"] = append(s["premises"].([]any), "github:trial_idea::testability_timing")
			s["conditional_probabilities"] = []any{json.Number("0.25"), json.Number("0.75"), json.Number("0.25"), json.Number("0.75")}
		}), want: []string{"GAIA508"}, frag: []string{"given= premises", "not supported"}},
		// W6: all reference IR checks pass an off-grade pair; the backstop refuses it.
		{name: "off_grade_cp_w6", src: sample(func(m map[string]any) {
			strategy(m, 2)["conditional_probabilities"] = []any{json.Number("0.01"), json.Number("0.99")}
		}), want: []string{"GAIA150"}, frag: []string{"off-grade pair (0.99, 0.01)"}},
		{name: "no_steps", src: sample(func(m map[string]any) { delete(strategy(m, 2), "steps") }),
			want: []string{"GAIA130", "GAIA151"}, frag: []string{"reader_reasoning:"}},
		{name: "steps_joined", src: sample(func(m map[string]any) {
			strategy(m, 2)["steps"] = []any{map[string]any{"reasoning": "  "}, map[string]any{"reasoning": "reader_reasoning: a"}, map[string]any{"reasoning": "anchor: x"}}
		}), want: nil},
	})
}

func TestFamilyRecords(t *testing.T) {
	// Row 8: the generative infer is inverted for the reader evidence flow.
	b := familyIR(false)
	b.ks = slices.DeleteFunc(b.ks, func(k any) bool { return k.(map[string]any)["label"] == "ev_two" })
	b.ss = slices.DeleteFunc(b.ss, func(s any) bool { return s.(map[string]any)["conclusion"] == id("ev_two") })
	ds, g := run(t, b.bytes(t))
	if errs := errorCodes(ds); len(errs) != 0 {
		t.Fatalf("errors:\n%s", dump(ds))
	}
	want := []Observation{{ID: id("ev_one"), Family: "reused-result", CorrelationModel: "single", RootTarget: id("tension_resolution"), PathCount: 1, ReuseCount: 1}}
	if !slices.Equal(g.Observations, want) {
		t.Fatalf("records = %v, want %v", g.Observations, want)
	}
	if g.PathCount[id("worth")] != 1 || g.PathCount[id("mechanism_insight")] != 1 {
		t.Fatalf("path counts = %v", g.PathCount)
	}
}

func TestObservationParts(t *testing.T) {
	// Row 13.
	fam, model, ctx, anchor, ok := ObservationParts("evidence_family: checked-result; correlation_model: single; The calculation resolves the scoped comparison. anchor: report.md")
	if !ok || fam != "checked-result" || model != "single" || ctx != "The calculation resolves the scoped comparison." || anchor != "report.md" {
		t.Fatalf("got %q %q %q %q %v", fam, model, ctx, anchor, ok)
	}
	// Rows 14a/b: no or blank anchor.
	for _, bad := range []string{
		"evidence_family: x; correlation_model: single; no anchor",
		"evidence_family: x; correlation_model: single; anchor:   ",
		"evidence_family: BAD; correlation_model: single; anchor: a",
	} {
		if _, _, _, _, ok := ObservationParts(bad); ok {
			t.Errorf("ObservationParts(%q) accepted", bad)
		}
	}
}
