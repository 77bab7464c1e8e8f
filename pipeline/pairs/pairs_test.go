package pairs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
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
	plan := Propose([]Node{{ID: "aaaaaaaa", State: "candidate"}, {ID: "bbbbbbbb", State: "candidate"}}, nil, false)
	if plan.Median != 0.5 || len(plan.Pairs) != 1 || !plan.Pairs[0].ColdA || plan.Pairs[0].ScoreB != 0.5 {
		t.Fatalf("plan %+v", plan)
	}
}

// TestColdStartsServedFirst: a cold start takes the warm node at the median
// even when that node has a warm neighbour at distance 0; two cold starts
// take the two warm nodes nearest the median, not each other.
func TestColdStartsServedFirst(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.5)},
		{ID: "bbbbbbbb", State: "admitted", Posterior: f(0.5)},
		{ID: "cccccccc", State: "admitted", Posterior: f(0.9)},
		{ID: "dddddddd", State: "admitted", Posterior: f(0.1)},
		{ID: "eeeeeeee", State: "candidate"},
		{ID: "ffffffff", State: "needs_refresh"},
	}
	plan := Propose(nodes, [][2]string{key("eeeeeeee", "aaaaaaaa")}, false)
	got := pairIDs(plan)
	// median 0.5; e already met a, so e takes b; f takes a; c-d remain.
	want := []string{"bbbbbbbb-eeeeeeee", "aaaaaaaa-ffffffff", "cccccccc-dddddddd"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	if p := plan.Pairs[2]; p.Distance != 0.8 || p.ColdA || p.ColdB {
		t.Fatalf("c-d pair %+v", p)
	}
}

// TestColdStartsMeetEachOtherLast: cold starts outnumbering warm nodes pair
// among themselves once every warm node is taken.
func TestColdStartsMeetEachOtherLast(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.6)},
		{ID: "bbbbbbbb", State: "candidate"},
		{ID: "cccccccc", State: "candidate"},
		{ID: "dddddddd", State: "candidate"},
	}
	got := pairIDs(Propose(nodes, nil, false))
	want := []string{"aaaaaaaa-bbbbbbbb", "cccccccc-dddddddd"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
}

// TestAllRanksColdPairsLast: with --all, two cold starts (distance 0 only
// because both stand at the median) come after every pair with a warm node.
func TestAllRanksColdPairsLast(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.6)},
		{ID: "bbbbbbbb", State: "admitted", Posterior: f(0.1)},
		{ID: "cccccccc", State: "candidate"},
		{ID: "dddddddd", State: "candidate"},
	}
	got := pairIDs(Propose(nodes, nil, true))
	// median 0.35: every warm-cold pair is at 0.25, a-b at 0.5, c-d last.
	want := []string{"aaaaaaaa-cccccccc", "aaaaaaaa-dddddddd", "bbbbbbbb-cccccccc", "bbbbbbbb-dddddddd", "aaaaaaaa-bbbbbbbb", "cccccccc-dddddddd"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pairs %v, want %v", got, want)
	}
}

func TestUnknownStatesAreSkipped(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.6)},
		{ID: "bbbbbbbb", State: "Admitted", Posterior: f(0.6)},
		{ID: "cccccccc", Posterior: f(0.6)},
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.6)},
	}
	plan := Propose(nodes, nil, false)
	var skipped []string
	for _, s := range plan.Skipped {
		skipped = append(skipped, s.ID+":"+s.Reason)
	}
	want := []string{`bbbbbbbb:unknown lifecycle_state "Admitted"`, "cccccccc:no lifecycle_state", "aaaaaaaa:listed twice"}
	if !reflect.DeepEqual(skipped, want) || len(plan.Pairs) != 0 {
		t.Fatalf("skipped %v pairs %v", skipped, plan.Pairs)
	}
}

// TestDistanceRounding: float noise neither reorders equal gaps nor shows.
func TestDistanceRounding(t *testing.T) {
	nodes := []Node{
		{ID: "aaaaaaaa", State: "admitted", Posterior: f(0.8)},
		{ID: "bbbbbbbb", State: "admitted", Posterior: f(0.78)},
		{ID: "cccccccc", State: "admitted", Posterior: f(0.5)},
		{ID: "dddddddd", State: "admitted", Posterior: f(0.48)},
	}
	plan := Propose(nodes, nil, true)
	if plan.Pairs[0].Distance != 0.02 || plan.Pairs[1].Distance != 0.02 || plan.Pairs[0].A != "aaaaaaaa" {
		t.Fatalf("pairs %+v", plan.Pairs[:2])
	}
}

func pairIDs(plan Plan) []string {
	var got []string
	for _, p := range plan.Pairs {
		got = append(got, p.A+"-"+p.B)
	}
	return got
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
		"dup.json":   `{"aaaaaaaa": {"lifecycle_state": "admitted"}, "aaaaaaaa": {"lifecycle_state": "archived"}}`,
		"state.json": `{"aaaaaaaa": {"lifecycle_state": 3}}`,
		"post.json":  `{"aaaaaaaa": {"posterior": 0.5}}`,
		"nan.json":   `{"aaaaaaaa": {"posterior": {"value": "0.5"}}}`,
		"nodes.json": `{"nodes": "x"}`,
		"bad.json":   `{`,
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
	dir := filepath.Join(t.TempDir(), "m[1]*")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "notes.json"), []byte(`[]`), 0o644)
	os.Mkdir(filepath.Join(dir, "match-11111111.work"), 0o755)
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

// FuzzLoadMatched: arbitrary artifact bytes never panic the reader; what it
// accepts is an ordered pair of short ids, and what it refuses says why.
func FuzzLoadMatched(f *testing.F) {
	f.Add([]byte(`{"idea_a_node_id": "bbbbbbbb", "idea_b_node_id": "aaaaaaaa"}`))
	f.Add([]byte(`{"idea_a_node_id": "bbbbbbbb"}`))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "match-11111111.json"), data, 0o644)
		got, err := LoadMatched(dir)
		if err != nil {
			if !strings.Contains(err.Error(), "corrupt match artifact") {
				t.Fatalf("refusal does not say why: %v", err)
			}
			return
		}
		if len(got) != 1 || got[0][0] > got[0][1] || !matchproto.ShortIDRE.MatchString(got[0][0]) || !matchproto.ShortIDRE.MatchString(got[0][1]) {
			t.Fatalf("LoadMatched = %v", got)
		}
	})
}
