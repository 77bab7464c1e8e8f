package ir

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

func TestReasoningClaimsAndObservations(t *testing.T) {
	runCases(t, []irCase{
		{name: "criterion_missing", src: sample(func(m map[string]any) { knowledge(m, "mechanism_insight")["label"] = "mechanism" }),
			want: []string{"GAIA120"}, frag: []string{"expected exactly one reasoning claim labelled 'mechanism_insight', found 0"}},
		{name: "criterion_twice", src: sample(func(m map[string]any) { knowledge(m, "testability_timing")["label"] = "mechanism_insight" }),
			want: []string{"GAIA120", "GAIA120"}, frag: []string{"labelled 'testability_timing', found 0"}},
		{name: "blank_content", src: sample(func(m map[string]any) { knowledge(m, "verification_cost")["content"] = " \n\t" }),
			want: []string{"GAIA121"}, frag: []string{"'verification_cost' has empty content"}},
		{name: "missing_content", src: sample(func(m map[string]any) { delete(knowledge(m, "verification_cost"), "content") }),
			want: []string{"GAIA121"}},
		{name: "stock_sentence_on_other_label", src: sample(func(m map[string]any) {
			knowledge(m, "verification_cost")["content"] = "  The idea is testable within an open verification window!  "
		}), want: []string{"GAIA122"}},
		{name: "stock_sentence_with_extra_word_passes", src: sample(func(m map[string]any) {
			knowledge(m, "verification_cost")["content"] = "The idea is testable within an open verification window soon."
		}), want: nil},
		{name: "two_observations_on_one_node", src: sample(func(m map[string]any) {
			md := meta(knowledge(m, "ev_cost"))
			sups := md["supported_by"].([]any)
			md["supported_by"] = append(sups, sups[0])
		}), want: []string{"GAIA142"}, frag: []string{"must carry exactly one observation record", "found 2"}},
		{name: "non_observation_supports_ignored", src: sample(func(m map[string]any) {
			md := meta(knowledge(m, "ev_cost"))
			md["supported_by"] = append(md["supported_by"].([]any), map[string]any{"pattern": "inference"})
		}), want: nil},
		{name: "missing_observation_rationale", src: sample(func(m map[string]any) {
			delete(meta(knowledge(m, "ev_cost"))["supported_by"].([]any)[0].(map[string]any), "rationale")
		}), want: []string{"GAIA143", "GAIA144"}},
	})
}

func TestConnectedCriteriaAreQuiet(t *testing.T) {
	src := sampleWith(t, func(m map[string]any) {
		for _, l := range []string{"downstream_reach", "mechanism_insight", "testability_timing", "verification_cost"} {
			m["strategies"] = append(m["strategies"].([]any), map[string]any{
				"type": "infer", "premises": []any{"github:trial_idea::worth"}, "conclusion": "github:trial_idea::" + l,
				"conditional_probabilities": []any{json.Number("0.25"), json.Number("0.75")},
				"steps":                     []any{map[string]any{"reasoning": okReasoning}},
			})
		}
	})
	ds, g := run(t, src)
	if len(ds) != 0 {
		t.Fatalf("findings on a fully connected sample:\n%s", dump(ds))
	}
	if g.PathCount["github:trial_idea::mechanism_insight"] != 1 {
		t.Fatal(g.PathCount)
	}
}

// TestDeepGraph proves the cycle search and path counting iterate: a chain
// far deeper than any recursion limit the reference could survive.
func TestDeepGraph(t *testing.T) {
	const n = 5000 // Python's default recursion limit is 1000
	b := &builder{}
	b.criteria()
	prev := "tension_resolution"
	b.infer("tension_resolution", "worth", "0.25", "0.75", okReasoning)
	for i := range n {
		node := fmt.Sprintf("c%d", i)
		b.claim(node, "Chain link.", false)
		b.infer(node, prev, "0.25", "0.75", okReasoning)
		prev = node
	}
	ds, g := run(t, b.bytes(t))
	if diag.HasBlocking(ds) || g.PathCount[id(prev)] != 1 {
		t.Fatalf("deep chain: %d findings, path count %d", len(ds), g.PathCount[id(prev)])
	}
	b.infer("tension_resolution", prev, "0.25", "0.75", okReasoning) // close the loop
	ds, g = run(t, b.bytes(t))
	if !g.Cyclic || !slices.Equal(errorCodes(ds), []string{"GAIA141"}) {
		t.Fatalf("deep cycle: %v", errorCodes(ds))
	}
	if d := find(t, ds, "GAIA141"); !strings.Contains(d.Message, "contains a cycle") {
		t.Fatal(d.Message)
	}
}

// BenchmarkCheckSample measures load + every IR check on the sample (a
// typical package): the budget for a whole lint run is 20 ms.
func BenchmarkCheckSample(b *testing.B) {
	src := readFixture(b, "ir_sample.json")
	for b.Loop() {
		ir, _ := Load("ir.json", src)
		Check(ir, CheckOptions{})
	}
}

// TestSourceMapObservationsAndCycles maps observation findings through the
// support's action_label and knowledge findings through the label.
func TestSourceMapObservationsAndCycles(t *testing.T) {
	b := familyIR(false)
	src := b.bytes(t)
	ir, _ := Load("ir.json", src)
	sm := fakeMap{"k:ev_two": 40, "a:" + id("action::observe_ev_one"): 7}
	ds, _ := Check(ir, CheckOptions{SourceMap: sm})
	d := find(t, ds, "GAIA147")
	if d.Path != "src/trial_idea/__init__.py" || d.Line != 40 || d.Pointer != "" {
		t.Fatalf("GAIA147 not mapped to ev_two's declaration: %+v", d)
	}
	// A bad observation rationale maps to the observe() call.
	m := decode(t, src)
	setRationale("ev_one", "no family here. anchor: x")(m)
	ir, _ = Load("ir.json", encode(t, m))
	ds, _ = Check(ir, CheckOptions{SourceMap: sm})
	if d := find(t, ds, "GAIA143"); d.Line != 7 || d.Column != 5 {
		t.Fatalf("GAIA143 not mapped to the observe call: %+v", d)
	}
	// The cycle is reported at the strategy that closes it.
	b.infer("tension_resolution", "ev_one", "0.09", "0.9", okReasoning)
	ds, _ = run(t, b.bytes(t))
	d = find(t, ds, "GAIA141")
	cycle := id("tension_resolution") + " -> " + id("ev_one") + " -> " + id("tension_resolution")
	if d.Pointer != "/strategies/2" || !strings.Contains(d.Message, cycle) || !strings.Contains(d.Message, "'lcs_ev_one_tension_resolution'") {
		t.Fatalf("GAIA141 = %+v", d)
	}
}

func TestDescribe(t *testing.T) {
	_, g := run(t, readFixture(t, "ir_sample.json"))
	want := "github:trial_idea::ev_tension: evidence_family executed-check (1 observation(s)), 1 path(s): github:trial_idea::ev_tension -> github:trial_idea::tension_resolution -> github:trial_idea::worth\n" +
		"github:trial_idea::ev_cost: evidence_family scope-limitation (1 observation(s)), 1 path(s): github:trial_idea::ev_cost -> github:trial_idea::worth\n"
	if got := g.Describe(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if p := g.PathToRoot("github:trial_idea::mechanism_insight"); p != nil {
		t.Fatalf("disconnected criterion has path %v", p)
	}
}

// TestPathCountCapped: path counts stop at 2 (only uniqueness matters), even
// on a ladder of diamonds with 2^40 distinct paths.
func TestPathCountCapped(t *testing.T) {
	b := &builder{}
	b.criteria()
	b.infer("tension_resolution", "worth", "0.25", "0.75", okReasoning)
	prev := "tension_resolution"
	for i := range 40 {
		top, left, right := fmt.Sprintf("t%d", i), fmt.Sprintf("l%d", i), fmt.Sprintf("r%d", i)
		for _, n := range []string{top, left, right} {
			b.claim(n, "Ladder node.", false)
		}
		b.infer(left, prev, "0.25", "0.75", okReasoning)
		b.infer(right, prev, "0.25", "0.75", okReasoning)
		b.infer(top, left, "0.25", "0.75", okReasoning)
		b.infer(top, right, "0.25", "0.75", okReasoning)
		prev = top
	}
	_, g := run(t, b.bytes(t))
	if g.PathCount[id("t0")] != 2 || g.PathCount[id("t39")] != 2 || g.PathCount[id("l0")] != 1 {
		t.Fatalf("path counts t0=%d t39=%d l0=%d", g.PathCount[id("t0")], g.PathCount[id("t39")], g.PathCount[id("l0")])
	}
}
