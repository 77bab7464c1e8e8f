package ir

import (
	"encoding/json"
	"strings"
	"testing"
)

// The issue's variants and the IR backstop (W2, W3, W6, W8, W13).

func setCP(i int, nh, h string) func(m map[string]any) {
	return func(m map[string]any) {
		strategy(m, i)["conditional_probabilities"] = []any{json.Number(nh), json.Number(h)}
	}
}

func setReasoning(i int, text string) func(m map[string]any) {
	return func(m map[string]any) {
		strategy(m, i)["steps"] = []any{map[string]any{"reasoning": text}}
	}
}

// reachRaise makes strategy 2 a strong raise of downstream_reach by ev_cost.
func reachRaise(reasoning string) func(m map[string]any) {
	return func(m map[string]any) {
		s := strategy(m, 2)
		s["premises"] = []any{"github:trial_idea::downstream_reach"}
		s["conditional_probabilities"] = []any{json.Number("0.03"), json.Number("0.9")}
		s["steps"] = []any{map[string]any{"reasoning": reasoning}}
	}
}

func TestIssueVariants(t *testing.T) {
	runCases(t, []irCase{
		{name: "hand_edited_off_grade_probability", src: sample(setCP(1, "0.2", "0.75")),
			want: []string{"GAIA150"}, frag: []string{"'lcs_infer_tension_worth' uses off-grade pair (0.75, 0.2)", "allowed grades are 3 (0.75/0.25)"}},
		{name: "second_exported_node", src: sample(func(m map[string]any) { knowledge(m, "ev_cost")["exported"] = true }),
			want: []string{"GAIA110"}, frag: []string{"['worth', 'ev_cost']"}},
		{name: "repeated_family_reaching_worth_twice", src: sample(setRationale("ev_cost",
			"evidence_family: executed-check; correlation_model: single; anchor: the same executed comparison")),
			want: []string{"GAIA147"}, frag: []string{"evidence family 'executed-check' is reused by observed nodes ['github:trial_idea::ev_tension', 'github:trial_idea::ev_cost']"}},
	})
}

func TestBackstop(t *testing.T) {
	const domains = "reader_reasoning: domains: optics; acoustics; fluid flow. broad reach. anchor: idea card"
	runCases(t, []irCase{
		{name: "all_six_grades_pass", src: sample(func(m map[string]any) {
			setCP(0, "0.03", "0.9")(m) // strong raise of tension_resolution, class present
			setCP(1, "0.9", "0.09")(m)
			setCP(2, "0.9", "0.03")(m)
		}), want: nil},
		{name: "defaulted_p_e_given_not_h", src: sample(func(m map[string]any) {
			meta(strategy(m, 2))["p_e_given_not_h_defaulted"] = true
		}), want: []string{"GAIA150"}, frag: []string{"defaulted to 0.5"}},
		{name: "defaulted_false_is_fine", src: sample(func(m map[string]any) {
			meta(strategy(m, 2))["p_e_given_not_h_defaulted"] = false
		}), want: nil},
		{name: "0.90_is_0.9", src: sample(setCP(2, "0.90", "0.030")), want: nil},
		{name: "infer_anchor_not_on_last_line", src: sample(setReasoning(2, "reader_reasoning: r. anchor: a\nplus a second line of prose")),
			want: []string{"GAIA151"}, frag: []string{"does not end with an 'anchor: <reference>' note"}},
		{name: "infer_without_anchor", src: sample(setReasoning(2, "reader_reasoning: r without a source")), want: []string{"GAIA151"}},
		{name: "observation_anchor_not_last", src: sample(setRationale("ev_cost", "evidence_family: scope-limitation; correlation_model: single; anchor: a\nsecond line")),
			want: []string{"GAIA151"}, frag: []string{"observed knowledge 'github:trial_idea::ev_cost' rationale"}},
		{name: "strong_reach_without_domains", src: sample(reachRaise("reader_reasoning: broad reach. anchor: idea card")),
			want: []string{"GAIA152"}, frag: []string{"downstream_reach update without", "domains:"}},
		{name: "strong_reach_two_domains", src: sample(reachRaise("reader_reasoning: domains: first; second. anchor: idea card")),
			want: []string{"GAIA152"}},
		{name: "strong_reach_domains_after_anchor", src: sample(reachRaise("reader_reasoning: reach. anchor: idea card; domains: a; b; c")),
			want: []string{"GAIA152"}},
		{name: "strong_reach_with_domains", src: sample(reachRaise(domains)), want: nil},
		// The source scan's W4/W16 reading, so lint and the backstop agree.
		{name: "strong_reach_domains_across_lines_w16", src: sample(reachRaise("reader_reasoning: domains: optics;\n acoustics;\n fluid flow. anchor: idea card")), want: nil},
		{name: "strong_reach_repeated_domain_w4", src: sample(reachRaise("reader_reasoning: domains: optics; optics; Optics. anchor: idea card")),
			want: []string{"GAIA152"}},
		{name: "strong_reach_trailing_prose_w4", src: sample(reachRaise("reader_reasoning: domains: a; b. Broad impact; general. anchor: x")),
			want: []string{"GAIA152"}},
		{name: "strong_lowering_reach_needs_none", src: sample(func(m map[string]any) {
			reachRaise("reader_reasoning: narrow. anchor: idea card")(m)
			setCP(2, "0.9", "0.03")(m)
		}), want: nil},
		// W3: the source renamed the variable (`reach = claim(..., title=
		// "downstream_reach")`) while keeping a separate downstream_reach
		// variable; the IR title still identifies the target.
		{name: "strong_reach_identified_by_title", src: sample(func(m map[string]any) {
			m["knowledges"] = append(m["knowledges"].([]any), map[string]any{
				"id": "github:trial_idea::reach", "label": "reach", "type": "claim", "exported": false,
				"content": "Reach.", "metadata": map[string]any{"title": "downstream_reach"},
			})
			s := strategy(m, 2)
			s["premises"] = []any{"github:trial_idea::reach"}
			s["conditional_probabilities"] = []any{json.Number("0.03"), json.Number("0.9")}
		}), want: []string{"GAIA152"}},
		{name: "strong_raise_on_other_claim_needs_no_domains", src: sample(func(m map[string]any) {
			reachRaise("reader_reasoning: broad. anchor: idea card")(m)
			strategy(m, 2)["premises"] = []any{"github:trial_idea::mechanism_insight"}
		}), want: nil},
		{name: "tension_raise_without_class", src: sample(setReasoning(0, "reader_reasoning: The survey proves the tension exists. anchor: survey artifact")),
			want: []string{"GAIA153"}, frag: []string{"raising tension_resolution", "resolution_evidence:"}},
		{name: "tension_raise_planned_check", src: sample(setReasoning(0, "reader_reasoning: A future check is planned. anchor: compute plan")),
			want: []string{"GAIA153"}},
		{name: "tension_off_grade_raise", src: sample(func(m map[string]any) {
			setCP(0, "0.2", "0.8")(m)
			setReasoning(0, "reader_reasoning: r. anchor: a")(m)
		}), want: []string{"GAIA150", "GAIA153"}},
		{name: "tension_lowering_needs_no_class", src: sample(func(m map[string]any) {
			setCP(0, "0.9", "0.09")(m)
			setReasoning(0, "reader_reasoning: r. anchor: a")(m)
		}), want: nil},
		{name: "tension_class_after_anchor", src: sample(setReasoning(0, "reader_reasoning: r. anchor: a resolution_evidence: mechanism")),
			want: []string{"GAIA153"}},
	})
}

func priorRecord(label string, rec map[string]any) func(m map[string]any) {
	return func(m map[string]any) {
		md := meta(knowledge(m, label))
		md["prior_records"] = append(asList(md["prior_records"]), rec)
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

func TestPriorRules(t *testing.T) {
	good := map[string]any{"value": json.Number("0.7"), "justification": "external estimate. anchor: cited source", "source_id": "user_priors"}
	with := func(k string, v any) map[string]any {
		r := map[string]any{}
		for kk, vv := range good {
			r[kk] = vv
		}
		r[k] = v
		return r
	}
	runCases(t, []irCase{
		{name: "good_record", src: sample(priorRecord("mechanism_insight", good)), want: nil},
		{name: "justification_without_anchor", src: sample(priorRecord("mechanism_insight", with("justification", "just a feeling"))),
			want: []string{"GAIA154"}, frag: []string{"register_prior justification of 'mechanism_insight'", "anchor"}},
		{name: "value_zero", src: sample(priorRecord("mechanism_insight", with("value", json.Number("0")))),
			want: []string{"GAIA154"}, frag: []string{"[0.001, 0.999]"}},
		{name: "value_one", src: sample(priorRecord("mechanism_insight", with("value", json.Number("1.0")))), want: []string{"GAIA154"}},
		{name: "value_bool", src: sample(priorRecord("mechanism_insight", with("value", true))), want: []string{"GAIA154"}},
		{name: "value_string", src: sample(priorRecord("mechanism_insight", with("value", "0.5"))), want: []string{"GAIA154"}},
		{name: "bounds_inclusive", src: sample(func(m map[string]any) {
			priorRecord("mechanism_insight", with("value", json.Number("0.001")))(m)
			priorRecord("testability_timing", with("value", json.Number("0.999")))(m)
		}), want: nil},
		{name: "inline_prior_w2", src: sample(priorRecord("mechanism_insight", with("source_id", "claim_inline"))),
			want: []string{"GAIA501"}, frag: []string{"claim_inline", "register_prior"}},
		{name: "worth_prior_record_w8", src: sample(priorRecord("worth", good)),
			want: []string{"GAIA506"}, frag: []string{"worth gets no prior"}},
		{name: "worth_metadata_prior_w8", src: sample(func(m map[string]any) { meta(knowledge(m, "worth"))["prior"] = json.Number("0.9") }),
			want: []string{"GAIA506"}},
		{name: "observed_pin_is_not_a_prior", src: sample(func(m map[string]any) {
			// ev_tension carries the observation pin 0.999; only worth is refused.
			meta(knowledge(m, "ev_tension"))["prior"] = json.Number("0.999")
		}), want: nil},
		{name: "prior_records_not_a_list", src: sample(func(m map[string]any) { meta(knowledge(m, "mechanism_insight"))["prior_records"] = "x" }),
			want: []string{"GAIA105"}},
	})
}

func TestUngradedCoupling(t *testing.T) {
	deduction := func(conclusion string, premises ...any) func(m map[string]any) {
		return func(m map[string]any) {
			m["strategies"] = append(m["strategies"].([]any), map[string]any{
				"type": "deduction", "conclusion": conclusion, "premises": premises, "strategy_id": "lcs_derive",
			})
		}
	}
	runCases(t, []irCase{
		{name: "derive_into_worth", src: sample(deduction("github:trial_idea::worth", "github:trial_idea::mechanism_insight")),
			want: []string{"GAIA502"}, frag: []string{"deduction strategy 'lcs_derive' couples 'github:trial_idea::worth' to worth"}},
		{name: "derive_into_connected_evidence", src: sample(deduction("github:trial_idea::ev_tension", "github:trial_idea::mechanism_insight")),
			want: []string{"GAIA502"}},
		{name: "derive_between_disconnected_claims", src: sample(deduction("github:trial_idea::mechanism_insight", "github:trial_idea::testability_timing")),
			want: nil},
		{name: "operator_on_worth", src: sample(func(m map[string]any) {
			m["operators"] = []any{map[string]any{"operator": "equivalence", "variables": []any{"github:trial_idea::worth", "github:trial_idea::ev_cost"}}}
		}), want: []string{"GAIA502"}, frag: []string{"equivalence operator"}},
		{name: "compose_into_connected_claim", src: sample(func(m map[string]any) {
			m["composes"] = []any{map[string]any{"inputs": []any{"github:trial_idea::mechanism_insight"}, "conclusion": "github:trial_idea::tension_resolution"}}
		}), want: []string{"GAIA502"}, frag: []string{"compose couples 'github:trial_idea::tension_resolution'"}},
		{name: "operator_between_disconnected_claims", src: sample(func(m map[string]any) {
			m["operators"] = []any{map[string]any{"operator": "complement", "variables": []any{"github:trial_idea::mechanism_insight", "github:trial_idea::testability_timing"}}}
		}), want: nil},
	})
}

func TestLoadFailures(t *testing.T) {
	sampleText := func(t *testing.T) string { return string(readFixture(t, "ir_sample.json")) }
	for _, tc := range []struct {
		name      string
		src       func(t *testing.T) []byte
		want      []string
		line, col int
		frag      string
	}{
		{name: "not_json", src: func(*testing.T) []byte { return []byte("not json") }, want: []string{"GAIA100"}, line: 1, col: 1, frag: "not valid UTF-8 JSON"},
		{name: "array", src: func(*testing.T) []byte { return []byte("[1, 2]") }, want: []string{"GAIA100"}, line: 1, col: 1, frag: "not a JSON object"},
		{name: "empty", src: func(*testing.T) []byte { return nil }, want: []string{"GAIA100"}, line: 1, col: 1},
		{name: "truncated", src: func(t *testing.T) []byte { s := sampleText(t); return []byte(s[:len(s)/2]) }, want: []string{"GAIA100"}, frag: "truncated"},
		{name: "invalid_utf8", src: func(t *testing.T) []byte {
			return []byte(strings.Replace(sampleText(t), "deserves", "deserves \xff", 1))
		}, want: []string{"GAIA100"}, line: 5, frag: "UTF-8"},
		{name: "nan", src: func(t *testing.T) []byte { return []byte(strings.Replace(sampleText(t), "0.999", "NaN", 1)) }, want: []string{"GAIA100"}, line: 30},
		{name: "bom_accepted", src: func(t *testing.T) []byte { return append([]byte("\xef\xbb\xbf"), readFixture(t, "ir_sample.json")...) }},
		{name: "duplicate_key", src: func(t *testing.T) []byte {
			return []byte(strings.Replace(sampleText(t), `"exported": true,`, `"exported": false, "exported": true,`, 1))
		}, want: []string{"GAIA104"}, line: 6, col: 26, frag: `'/knowledges/0/exported'`},
		{name: "knowledges_missing", src: func(*testing.T) []byte {
			return []byte(`{"ir_hash": "sha256:` + strings.Repeat("0", 64) + `"}`)
		}, want: []string{"GAIA102"}, line: 1, col: 1, frag: "no knowledges list (found none)"},
		{name: "knowledges_removed_no_cascade", src: func(t *testing.T) []byte {
			return sampleWith(t, func(m map[string]any) { delete(m, "knowledges") })
		}, want: []string{"GAIA102"}, line: 1, col: 1},
		{name: "knowledges_object", src: func(*testing.T) []byte {
			return []byte(`{"ir_hash": "sha256:` + strings.Repeat("0", 64) + `",` + "\n" + `"knowledges": {}}`)
		}, want: []string{"GAIA102"}, line: 2, col: 15, frag: "found an object"},
		{name: "ir_hash_uppercase", src: func(t *testing.T) []byte {
			return []byte(strings.Replace(sampleText(t), "sha256:3f1c", "sha256:3F1C", 1))
		}, want: []string{"GAIA101"}, line: 2, col: 14, frag: `found 'sha256:3F1C`},
		{name: "knowledge_not_object", src: func(t *testing.T) []byte {
			return sampleWith(t, func(m map[string]any) { m["knowledges"] = append(m["knowledges"].([]any), "x") })
		}, want: []string{"GAIA103"}, frag: "knowledge[9] is not an object"},
		{name: "duplicate_id", src: func(t *testing.T) []byte {
			return sampleWith(t, func(m map[string]any) { knowledge(m, "ev_cost")["id"] = "github:trial_idea::ev_tension" })
		}, want: []string{"GAIA103", "GAIA140"}, frag: "duplicate compiled knowledge id 'github:trial_idea::ev_tension'"},
		{name: "strategies_object", src: func(t *testing.T) []byte {
			return sampleWith(t, func(m map[string]any) { m["strategies"] = map[string]any{} })
		}, want: []string{"GAIA105"}, frag: "strategies must be a list"},
		{name: "strategy_not_object", src: func(t *testing.T) []byte {
			return sampleWith(t, func(m map[string]any) { m["strategies"] = append(m["strategies"].([]any), json.Number("3")) })
		}, want: []string{"GAIA105"}, frag: "strategy[3] must be an object"},
		{name: "wrong_types_everywhere", src: func(t *testing.T) []byte {
			return sampleWith(t, func(m map[string]any) {
				knowledge(m, "worth")["metadata"] = "x"
				knowledge(m, "mechanism_insight")["label"] = json.Number("7") // label lost: GAIA120
				strategy(m, 2)["steps"] = []any{"bare string step"}           // no reasoning: GAIA130/151
				meta(knowledge(m, "ev_cost"))["supported_by"] = map[string]any{}
			})
		}, want: []string{"GAIA105", "GAIA105", "GAIA105", "GAIA105", "GAIA120", "GAIA130", "GAIA151"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, _ := run(t, tc.src(t))
			got := errorCodes(ds)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("codes = %v, want %v\n%s", got, tc.want, dump(ds))
			}
			if len(tc.want) == 0 {
				return
			}
			d := find(t, ds, tc.want[0])
			if tc.line != 0 && d.Line != tc.line || tc.col != 0 && d.Column != tc.col {
				t.Errorf("at %d:%d, want %d:%d (%s)", d.Line, d.Column, tc.line, tc.col, d.Message)
			}
			if !strings.Contains(d.Message, tc.frag) {
				t.Errorf("message %q lacks %q", d.Message, tc.frag)
			}
		})
	}
}

// TestPositions checks line:col and pointers of findings against the
// untouched layout of the sample file.
func TestPositions(t *testing.T) {
	src := string(readFixture(t, "ir_sample.json"))
	lineOf := func(needle string, nth int) int {
		off := -1
		for range nth + 1 {
			off += 1 + strings.Index(src[off+1:], needle)
		}
		return 1 + strings.Count(src[:off], "\n")
	}
	for _, tc := range []struct {
		name, from, to string
		code, ptr      string
		line, col      int
	}{
		// ev_cost infer at [0.75, 0.25] edited to [0.7, 0.25]: at the array.
		{"off_grade", "0.75,\n        0.25", "0.7,\n        0.25", "GAIA150", "/strategies/2/conditional_probabilities", lineOf(`"conditional_probabilities"`, 2), 36},
		{"ir_hash", `"sha256:3f1c`, `"sha256:zz1c`, "GAIA101", "/ir_hash", 2, 14},
		{"second_export", `"exported": false`, `"exported": true`, "GAIA110", "/knowledges/1/exported", lineOf(`"exported"`, 1), 19},
		{"reader_reasoning", "reader_reasoning: Limited", "Limited", "GAIA130", "/strategies/2/steps", lineOf(`"steps"`, 2), 16},
		{"family", "evidence_family: scope-limitation;", "evidence_family: Scope;", "GAIA143", "/knowledges/5/metadata/supported_by/0/rationale", lineOf(`"rationale"`, 1), 26},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edited := strings.Replace(src, tc.from, tc.to, 1)
			if edited == src {
				t.Fatalf("edit %q not applied", tc.from)
			}
			ds, _ := run(t, []byte(edited))
			d := find(t, ds, tc.code)
			if d.Pointer != tc.ptr || d.Line != tc.line || d.Column != tc.col {
				t.Fatalf("got %s at %d:%d, want %s at %d:%d", d.Pointer, d.Line, d.Column, tc.ptr, tc.line, tc.col)
			}
		})
	}
}
