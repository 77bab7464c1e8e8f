// Package pairs proposes the next pairwise matches of a campaign from its
// node store (`nodes_latest.json`) and the match artifacts already written.
//
// The default rules of the protocol: only eligible nodes play (archived,
// parked and blocked nodes do not, nor a node whose lifecycle_state is
// missing or unknown); a cold-start node (no posterior yet) plays the warm
// node nearest the posterior median of the warm nodes, and is served first;
// the other nodes meet their posterior neighbours, so a match is as
// informative as it can be; a pair that already has a match artifact is never
// proposed again (a rematch is a deliberate act with a rationale, see
// `nullius match assemble`).
package pairs

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// excluded says whether a lifecycle state is excluded and the reason it is
// skipped. `waiting_activation` is how the engine parks a node until a
// condition holds.
func excluded(state string) (why string, ok bool) {
	switch state {
	case "archived":
		return "archived", true
	case "waiting_activation":
		return "parked (waiting_activation)", true
	case "admission_blocked":
		return "blocked (admission_blocked)", true
	}
	return "", false
}

// eligibleState reports the eligible lifecycle states of idea_node_v1
// (the node plays).
func eligibleState(state string) bool {
	switch state {
	case "candidate", "admission_review", "admitted", "needs_refresh":
		return true
	}
	return false
}

// Node is what pairing needs of one idea node.
type Node struct {
	ID        string   `json:"node_id"`
	State     string   `json:"lifecycle_state"`
	Posterior *float64 `json:"posterior"` // nil: cold start
	// Campaign is the node's campaign_id, else the wrapper's
	// (binding.NodeCampaign, as report portfolio decides it); "" when the
	// file does not say. It names the node's package by its binding.
	Campaign string `json:"campaign_id"`
}

// Pair is one proposed match.
type Pair struct {
	A, B           string  // node ids, A < B
	ScoreA, ScoreB float64 // the posterior each plays at (the median for a cold start)
	ColdA, ColdB   bool
	Distance       float64 // |ScoreA - ScoreB|
}

// Skip records a node left out and why.
type Skip struct {
	ID     string `json:"node_id"`
	Reason string `json:"reason"`
}

// Plan is the proposal.
type Plan struct {
	Median  float64 // posterior median of the warm eligible nodes (0.5 when none)
	Warm    int
	Cold    int
	Pairs   []Pair
	Skipped []Skip
	Matched [][2]string // pairs already matched (sorted ids), for the record
}

// LoadNodes reads nodes_latest.json: the engine's map {node_id: node} or a
// wrapper {"campaign_id": ..., "nodes": [...] | {...}}.
func LoadNodes(path string) ([]Node, error) {
	data, err := readlimit.ReadFile(path, readlimit.JSON)
	if err != nil {
		return nil, err
	}
	doc, err := jsonloc.Parse(data, jsonloc.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := doc.DuplicateError(path); err != nil {
		return nil, err
	}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: nodes file must be a JSON object (the engine's node map or a {\"nodes\": ...} wrapper)", path)
	}
	var raw []any
	var keys []string
	var wrapper map[string]any // nil for the engine's native map
	if inner, ok := top["nodes"]; ok {
		wrapper = top
		switch v := inner.(type) {
		case []any:
			raw = v
			keys = make([]string, len(v))
		case map[string]any:
			raw, keys = sortedValues(v)
		default:
			return nil, fmt.Errorf("%s: \"nodes\" must be an array or an object", path)
		}
	} else {
		raw, keys = sortedValues(top)
	}
	nodes := make([]Node, 0, len(raw))
	for i, r := range raw {
		obj, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: node %d is not a JSON object", path, i)
		}
		n, err := decodeNode(obj, keys[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		n.Campaign = binding.NodeCampaign(obj, wrapper)
		nodes = append(nodes, n)
	}
	return nodes, nil
}

func sortedValues(m map[string]any) ([]any, []string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]any, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	return vals, keys
}

func decodeNode(obj map[string]any, key string) (Node, error) {
	id, _ := obj["node_id"].(string)
	if id == "" {
		id = key
	}
	if !matchproto.ShortIDRE.MatchString(id) {
		return Node{}, fmt.Errorf("node id %q is not an engine short id (8 characters of 0-9a-z without i, l, o, u)", id)
	}
	if key != "" && id != key {
		return Node{}, fmt.Errorf("node stored under key %q says node_id %q", key, id)
	}
	state, ok := obj["lifecycle_state"].(string)
	if _, present := obj["lifecycle_state"]; present && !ok {
		return Node{}, fmt.Errorf("node %s: lifecycle_state must be a string", id)
	}
	n := Node{ID: id, State: state}
	switch p := obj["posterior"].(type) {
	case nil:
	case map[string]any:
		num, ok := p["value"].(json.Number)
		if !ok {
			return Node{}, fmt.Errorf("node %s: posterior.value must be a number", id)
		}
		v, err := num.Float64()
		if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
			return Node{}, fmt.Errorf("node %s: posterior.value %s is not in [0, 1]", id, num)
		}
		n.Posterior = &v
	default:
		return Node{}, fmt.Errorf("node %s: posterior must be an object or null", id)
	}
	return n, nil
}

// LoadMatched reads every match-*.json artifact in dir and returns the
// unordered node-id pairs already matched. A file that cannot be read as a
// match is an error: a corrupt artifact must not silently allow a rematch.
func LoadMatched(dir string) ([][2]string, error) {
	// ReadDir, not Glob: a directory name holding [ or * is not a pattern.
	entries, err := readlimit.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, "match-") && strings.HasSuffix(name, ".json") {
			files = append(files, filepath.Join(dir, name))
		}
	}
	sort.Strings(files)
	var out [][2]string
	for _, f := range files {
		// A match-*.json symlinked to /dev/zero or a FIFO is refused by the
		// bounded reader, not read or waited on.
		data, err := readlimit.ReadFile(f, readlimit.JSON)
		if err != nil {
			return nil, err
		}
		doc, err := jsonloc.Parse(data, jsonloc.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w (a corrupt match artifact blocks pairing until it is repaired)", f, err)
		}
		obj, _ := doc.Value.(map[string]any)
		a, _ := obj["idea_a_node_id"].(string)
		b, _ := obj["idea_b_node_id"].(string)
		if !matchproto.ShortIDRE.MatchString(a) || !matchproto.ShortIDRE.MatchString(b) {
			return nil, fmt.Errorf("%s: no valid idea_a_node_id/idea_b_node_id (a corrupt match artifact blocks pairing until it is repaired)", f)
		}
		out = append(out, key(a, b))
	}
	return out, nil
}

func key(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Propose plans the next round: a set of disjoint pairs. Cold-start nodes
// are served first, each by the unused warm node nearest the posterior
// median it has not met yet; the remaining nodes then meet their posterior
// neighbours, nearest first. With all=true it lists every eligible unmatched
// pair instead, ranked by distance.
func Propose(nodes []Node, matched [][2]string, all bool) Plan {
	var plan Plan
	var eligible []Node
	var warm []float64
	seen := map[string]bool{}
	for _, n := range nodes {
		if seen[n.ID] {
			plan.Skipped = append(plan.Skipped, Skip{n.ID, "listed twice"})
			continue
		}
		seen[n.ID] = true
		if why, ok := excluded(n.State); ok {
			plan.Skipped = append(plan.Skipped, Skip{n.ID, why})
			continue
		}
		if !eligibleState(n.State) {
			why := fmt.Sprintf("unknown lifecycle_state %q", n.State)
			if n.State == "" {
				why = "no lifecycle_state"
			}
			plan.Skipped = append(plan.Skipped, Skip{n.ID, why})
			continue
		}
		eligible = append(eligible, n)
		if n.Posterior != nil {
			warm = append(warm, *n.Posterior)
		}
	}
	plan.Warm, plan.Cold = len(warm), len(eligible)-len(warm)
	plan.Median = median(warm)
	done := map[[2]string]bool{}
	for _, m := range matched {
		done[m] = true
	}
	plan.Matched = slices.Clone(matched)
	if all {
		plan.Pairs = allPairs(&plan, eligible, done)
	} else {
		plan.Pairs = round(&plan, eligible, done)
	}
	return plan
}

// allPairs lists every eligible pair not already matched, in sortPairs
// order: the --all listing, whose size (and memory) is the square of the
// nodes' by definition. A round (round.go) proposes what taking these in
// order would, without listing them.
func allPairs(plan *Plan, eligible []Node, done map[[2]string]bool) []Pair {
	var cands []Pair
	for i := range eligible {
		for j := i + 1; j < len(eligible); j++ {
			if !done[key(eligible[i].ID, eligible[j].ID)] {
				cands = append(cands, plan.pair(eligible[i], eligible[j]))
			}
		}
	}
	sortPairs(cands)
	return cands
}

// pair is the proposed match of x and y, the smaller id as A.
func (plan *Plan) pair(x, y Node) Pair {
	if y.ID < x.ID {
		x, y = y, x
	}
	sx, cx := plan.score(x)
	sy, cy := plan.score(y)
	return Pair{A: x.ID, B: y.ID, ScoreA: sx, ScoreB: sy, ColdA: cx, ColdB: cy, Distance: distance(sx, sy)}
}

// score is the posterior a node plays at: its own, or the median for a
// cold start.
func (plan *Plan) score(n Node) (float64, bool) {
	if n.Posterior == nil {
		return plan.Median, true
	}
	return *n.Posterior, false
}

// distance is |x - y| rounded to 12 decimals, so float noise (0.8 - 0.78 is
// 0.020000000000000018) neither reorders equal gaps nor shows in the output.
func distance(x, y float64) float64 {
	return math.Round(math.Abs(x-y)*1e12) / 1e12
}

// sortPairs orders pairs nearest first, except that two cold starts meet
// last (their distance 0 says nothing: both only stand at the median); among
// equals, warm pairs before cold starts (their scores are real), then by
// ids for a deterministic order.
func sortPairs(ps []Pair) { slices.SortFunc(ps, comparePairs) }

// comparePairs is sortPairs' order.
func comparePairs(p, q Pair) int {
	return cmp.Or(
		cmp.Compare(coldCount(p)/2, coldCount(q)/2),
		cmp.Compare(p.Distance, q.Distance),
		cmp.Compare(coldCount(p), coldCount(q)),
		strings.Compare(p.A, q.A),
		strings.Compare(p.B, q.B),
	)
}

func coldCount(p Pair) int {
	n := 0
	if p.ColdA {
		n++
	}
	if p.ColdB {
		n++
	}
	return n
}

// median of xs; 0.5 (maximum ignorance) when xs is empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0.5
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	// Rounded like distances, so (0.4 + 0.78) / 2 is 0.59, not 0.5900000000000001.
	return math.Round((s[m-1]+s[m])/2*1e12) / 1e12
}
