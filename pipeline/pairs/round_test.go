package pairs

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// referenceRound is the round as the protocol states it, over the full
// list of candidate pairs: cold starts first, then every candidate in
// sortPairs order whose nodes are both still free. round must propose
// exactly this, without listing the pairs.
func referenceRound(plan *Plan, eligible []Node, done map[[2]string]bool) []Pair {
	cands := allPairs(plan, eligible, done)
	used := map[string]bool{}
	var out []Pair
	var cold, byMedian []Node
	for _, n := range eligible {
		if n.Posterior == nil {
			cold = append(cold, n)
		} else {
			byMedian = append(byMedian, n)
		}
	}
	slices.SortFunc(cold, func(p, q Node) int { return strings.Compare(p.ID, q.ID) })
	slices.SortFunc(byMedian, func(p, q Node) int {
		return cmp.Or(cmp.Compare(distance(*p.Posterior, plan.Median), distance(*q.Posterior, plan.Median)), strings.Compare(p.ID, q.ID))
	})
	for _, c := range cold {
		for _, w := range byMedian {
			if !used[w.ID] && !done[key(c.ID, w.ID)] {
				used[c.ID], used[w.ID] = true, true
				sw, _ := plan.score(w)
				p := Pair{A: c.ID, B: w.ID, ScoreA: plan.Median, ScoreB: sw, ColdA: true, Distance: distance(plan.Median, sw)}
				if w.ID < c.ID {
					p = Pair{A: w.ID, B: c.ID, ScoreA: sw, ScoreB: plan.Median, ColdB: true, Distance: p.Distance}
				}
				out = append(out, p)
				break
			}
		}
	}
	for _, p := range cands {
		if used[p.A] || used[p.B] {
			continue
		}
		used[p.A], used[p.B] = true, true
		out = append(out, p)
	}
	return out
}

// TestRoundMatchesAllPairs compares round with the reference on random
// campaigns rich in ties: few distinct posteriors, posteriors closer than
// the 1e-12 rounding of distances, cold starts, and pairs already matched.
func TestRoundMatchesAllPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	values := []float64{0, 0.1, 0.2, 0.3, 0.1 + 0.2, 0.3 + 1e-13, 0.3 - 3e-13, 0.5, 0.5 + 4e-13, 0.7, 0.9, 1}
	for iter := range 3000 {
		n := r.IntN(24)
		var nodes []Node
		for i := range n {
			id := fmt.Sprintf("%08d", r.IntN(40))
			if iter%3 == 0 {
				id = fmt.Sprintf("%08d", i)
			}
			node := Node{ID: id, State: "admitted"}
			switch k := r.IntN(10); {
			case k < 3: // cold start
			case k < 5:
				v := r.Float64()
				node.Posterior = &v
			default:
				v := values[r.IntN(len(values))]
				node.Posterior = &v
			}
			nodes = append(nodes, node)
		}
		var matched [][2]string
		for range r.IntN(n*2 + 1) {
			if n > 1 {
				matched = append(matched, key(nodes[r.IntN(n)].ID, nodes[r.IntN(n)].ID))
			}
		}
		got := Propose(nodes, matched, false)
		ref := Propose(nodes, matched, true)
		eligible, done := eligibleOf(nodes), map[[2]string]bool{}
		for _, m := range matched {
			done[m] = true
		}
		want := referenceRound(&ref, eligible, done)
		if !slices.Equal(got.Pairs, want) {
			t.Fatalf("iteration %d: nodes %v matched %v\nround     %v\nreference %v", iter, describe(nodes), matched, got.Pairs, want)
		}
	}
}

func eligibleOf(nodes []Node) []Node {
	seen := map[string]bool{}
	var out []Node
	for _, n := range nodes {
		if !seen[n.ID] {
			seen[n.ID] = true
			out = append(out, n)
		}
	}
	return out
}

func describe(nodes []Node) []string {
	var out []string
	for _, n := range nodes {
		if n.Posterior == nil {
			out = append(out, n.ID+"=cold")
		} else {
			out = append(out, fmt.Sprintf("%s=%v", n.ID, *n.Posterior))
		}
	}
	return out
}

// A campaign of many nodes at few posteriors (every node ties with
// thousands) plans a round in time and memory linear in the nodes.
func TestRoundManyTies(t *testing.T) {
	var nodes []Node
	for i := range 20000 {
		n := Node{ID: fmt.Sprintf("%08d", i), State: "admitted"}
		if i%7 != 0 {
			v := float64(i%3) / 2
			n.Posterior = &v
		}
		nodes = append(nodes, n)
	}
	plan := Propose(nodes, nil, false)
	if len(plan.Pairs) != 10000 {
		t.Fatalf("%d pairs, want every node paired once", len(plan.Pairs))
	}
}
