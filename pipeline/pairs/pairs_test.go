package pairs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func f(v float64) *float64 { return &v }

func TestProposeRules(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.80)},
		{ID: "bbbbbbbb", State: "admitted", Posterior: f(0.78)},
		{ID: "cccccccc", State: "admitted", Posterior: f(0.40)},
		{ID: "dddddddd", State: "candidate"}, // cold start: plays at the median 0.78
		{ID: "eeeeeeee", State: "archived", Posterior: f(0.79)},
		{ID: "ffffffff", State: "waiting_activation", Posterior: f(0.41)},
		{ID: "gggggggg", State: "admission_blocked"},
	}
	matched := [][2]string{key("bbbbbbbb", "aaaaaaaa")}
	plan := Propose(nodes, matched, false)
	if plan.Median != 0.78 || plan.Warm != 3 || plan.Cold != 1 {
		t.Fatalf("median %v warm %d cold %d", plan.Median, plan.Warm, plan.Cold)
	}
	var got []string
	for _, p := range plan.Pairs {
		got = append(got, p.A+"-"+p.B)
	}
	// a-b already matched; b-d distance 0 (d cold at the median) first; a-c is what remains.
	want := []string{"bbbbbbbb-dddddddd", "aaaaaaaa-cccccccc"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	var skipped []string
	for _, s := range plan.Skipped {
		skipped = append(skipped, s.ID+":"+s.Reason)
	}
	wantSkip := []string{"eeeeeeee:archived", "ffffffff:parked (waiting_activation)", "gggggggg:blocked (admission_blocked)"}
	if !reflect.DeepEqual(skipped, wantSkip) {
		t.Fatalf("skipped %v, want %v", skipped, wantSkip)
	}
}

func TestProposeAllRanksEveryUnmatchedPair(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.9)},
		{ID: "bbbbbbbb", State: "admitted", Posterior: f(0.5)},
		{ID: "cccccccc", State: "admitted", Posterior: f(0.6)},
	}
	plan := Propose(nodes, nil, true)
	if len(plan.Pairs) != 3 || plan.Pairs[0].A != "bbbbbbbb" || plan.Pairs[0].B != "cccccccc" {
		t.Fatalf("pairs %+v", plan.Pairs)
	}
}

func TestMedianWithoutWarmNodes(t *testing.T) {
	plan := Propose([]Node{{ID: "aaaaaaaa"}, {ID: "bbbbbbbb"}}, nil, false)
	if plan.Median != 0.5 || len(plan.Pairs) != 1 {
		t.Fatalf("plan %+v", plan)
	}
}

func TestLoadNodesShapes(t *testing.T) {
	dir := t.TempDir()
	native := `{"bbbbbbbb": {"lifecycle_state": "admitted", "posterior": {"value": 0.7, "evidence_count": 2}},
	            "aaaaaaaa": {"node_id": "aaaaaaaa", "lifecycle_state": "candidate", "posterior": null}}`
	wrapped := `{"campaign_id": "cccccccc", "nodes": [{"node_id": "bbbbbbbb", "lifecycle_state": "admitted", "posterior": {"value": 1}}]}`
	for name, src := range map[string]string{"native.json": native, "wrapped.json": wrapped} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		nodes, err := LoadNodes(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if nodes[len(nodes)-1].ID != "bbbbbbbb" || *nodes[len(nodes)-1].Posterior <= 0.5 {
			t.Fatalf("%s: %+v", name, nodes)
		}
	}
	bad := map[string]string{
		"list.json":  `[1]`,
		"id.json":    `{"NOT-SHORT": {"lifecycle_state": "admitted"}}`,
		"value.json": `{"aaaaaaaa": {"posterior": {"value": 1.5}}}`,
		"node.json":  `{"nodes": [3]}`,
		"mismatch":   `{"aaaaaaaa": {"node_id": "bbbbbbbb"}}`,
	}
	for name, src := range bad {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		if _, err := LoadNodes(p); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestLoadMatchedRefusesCorruptArtifacts(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "match-11111111.json"), []byte(`{"idea_a_node_id": "bbbbbbbb", "idea_b_node_id": "aaaaaaaa"}`), 0o644)
	got, err := LoadMatched(dir)
	if err != nil || len(got) != 1 || got[0] != [2]string{"aaaaaaaa", "bbbbbbbb"} {
		t.Fatalf("LoadMatched = %v, %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, "match-22222222.json"), []byte(`[]`), 0o644)
	if _, err := LoadMatched(dir); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("corrupt artifact: err = %v", err)
	}
}

// FuzzLoadNodes: arbitrary bytes never panic the loader or the planner.
func FuzzLoadNodes(f *testing.F) {
	f.Add([]byte(`{"aaaaaaaa": {"lifecycle_state": "admitted", "posterior": {"value": 0.5}}}`))
	f.Add([]byte(`{"nodes": [{"node_id": "bbbbbbbb"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "n.json")
		os.WriteFile(p, data, 0o644)
		nodes, err := LoadNodes(p)
		if err == nil {
			Propose(nodes, nil, false)
		}
	})
}
