package ir

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
// can overflow on deep graphs) over nodes in the given order and returns the
// first edge that closes a cycle, or nil. It also returns the nodes in
// post-order (every node after all its successors) when acyclic.
func (g *Graph) findCycle(order []string) (*Edge, []string) {
	const (
		white = iota
		grey
		black
	)
	state := map[string]int{}
	var post []string
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
				return e, nil
			case white:
				state[e.To] = grey
				stack = append(stack, frame{id: e.To})
			}
		}
	}
	return nil, post
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
