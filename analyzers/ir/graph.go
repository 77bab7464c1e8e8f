package ir

import (
	"fmt"
	"strings"
)

// Graph is the reader evidence-flow graph of a compiled package: one edge
// per well-formed infer strategy, from its conclusion (the evidence) to its
// premise (the hypothesis), the inverse of Gaia's storage direction
// (gaia-discipline.md §2.6 step 2). Only infer strategies create edges.
type Graph struct {
	// RootID is the id of the worth root; "" when the package has none.
	RootID string
	// Edges maps an evidence id to its outgoing edges, duplicates kept, in
	// strategy order.
	Edges map[string][]Edge
	// Cyclic reports a directed cycle (GAIA141); path counts are then not
	// computed.
	Cyclic bool
	// PathCount is the number of distinct directed paths from a node to the
	// root, capped at 2 (only uniqueness matters). The root counts 1.
	// Absent ids count 0. Nil when the graph is cyclic or has no root.
	PathCount map[string]int
	// Observations are the audited observation records in knowledge order.
	Observations []Observation
}

// Edge is one reader-flow edge and the strategy that made it.
type Edge struct {
	To       string
	Strategy *Strategy
}

// Observation is the audit record of one observed knowledge (reference
// `audit_evidence_families` records plus the knowledge id).
type Observation struct {
	ID               string
	Family           string // "" when the rationale failed GAIA143
	CorrelationModel string
	RootTarget       string // first direct target that reaches the root, "" if none
	PathCount        int    // 0, 1 or 2 (capped)
	ReuseCount       int    // observations sharing the family, connected or not
}

// Connected reports whether the observation moves worth through exactly one
// path (the W9 notion of evidence that counts).
func (o Observation) Connected() bool { return o.PathCount == 1 }

// ConnectedEvidenceCount is the number of observations whose path count to
// worth is exactly 1 (W9). The reference `evidence_count` also counts
// disconnected observations; see CountObservations.
func (g *Graph) ConnectedEvidenceCount() int {
	if g == nil {
		return 0
	}
	n := 0
	for _, o := range g.Observations {
		if o.Connected() {
			n++
		}
	}
	return n
}

// pathCount returns the capped path count of id (0 when unknown).
func (g *Graph) pathCount(id string) int {
	if g.PathCount == nil {
		return 0
	}
	return g.PathCount[id]
}

// reachesRoot reports whether id is the root or has a path to it.
func (g *Graph) reachesRoot(id string) bool { return g.pathCount(id) > 0 }

// findCycle runs an iterative depth-first search (the reference recursion
// can overflow on deep graphs) over nodes in the given order. On a cycle it
// returns the edge that closes it and the cycle's nodes in flow order;
// otherwise the nodes in post-order (every node after all its successors).
func (g *Graph) findCycle(order []string) (back *Edge, cycle, post []string) {
	const (
		white = iota
		grey
		black
	)
	state := map[string]int{}
	type frame struct {
		id   string
		next int
	}
	for _, start := range order {
		if state[start] != white {
			continue
		}
		stack := []frame{{id: start}}
		state[start] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			edges := g.Edges[top.id]
			if top.next == len(edges) {
				state[top.id] = black
				post = append(post, top.id)
				stack = stack[:len(stack)-1]
				continue
			}
			e := &edges[top.next]
			top.next++
			switch state[e.To] {
			case grey:
				for i := range stack {
					if stack[i].id == e.To {
						for _, f := range stack[i:] {
							cycle = append(cycle, f.id)
						}
						break
					}
				}
				return e, append(cycle, e.To), nil
			case white:
				state[e.To] = grey
				stack = append(stack, frame{id: e.To})
			}
		}
	}
	return nil, nil, post
}

// countPaths fills PathCount from a post-order (successors first).
func (g *Graph) countPaths(post []string) {
	g.PathCount = make(map[string]int, len(post))
	for _, id := range post {
		if id == g.RootID {
			g.PathCount[id] = 1
			continue
		}
		total := 0
		for _, e := range g.Edges[id] {
			total += g.PathCount[e.To]
			if total > 1 {
				total = 2
				break
			}
		}
		g.PathCount[id] = total
	}
}

// PathToRoot returns one reader-flow path from id to the root (id first,
// root last), following the first edge that reaches the root at each step;
// nil when id does not reach the root. It makes GAIA145–147 actionable
// (§5.3: show which observation reaches worth by which path).
func (g *Graph) PathToRoot(id string) []string {
	if !g.reachesRoot(id) {
		return nil
	}
	path := []string{id}
	for id != g.RootID {
		for _, e := range g.Edges[id] {
			if g.reachesRoot(e.To) {
				id = e.To
				break
			}
		}
		path = append(path, id)
	}
	return path
}

// Describe renders the audited observations, one per line: the
// observation, its family, how many observations share the family, its
// path count and one path to worth.
func (g *Graph) Describe() string {
	var b strings.Builder
	for _, o := range g.Observations {
		path := "(no path to worth)"
		if p := g.PathToRoot(o.ID); p != nil {
			path = strings.Join(p, " -> ")
		}
		fmt.Fprintf(&b, "%s: evidence_family %s (%d observation(s)), %d path(s): %s\n", o.ID, o.Family, o.ReuseCount, o.PathCount, path)
	}
	return b.String()
}
