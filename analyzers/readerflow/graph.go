package readerflow

import (
	"slices"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/pyscan"
)

// Build reads the reader-flow graph of a package from its resolved files:
// one node per claim(...) call, one edge per infer statement.
func Build(res *gaiaref.Result) *Graph {
	claims, infers := 0, 0
	for _, f := range res.Files {
		for _, s := range f.Stmts {
			switch s.Verb {
			case "claim":
				claims++
			case "infer":
				infers++
			}
		}
	}
	// The nodes share one array, numbered in it (Node.id), so the walks
	// over the graph index slices instead of keeping maps by node; an
	// infer makes at most one edge.
	nodes := make([]Node, 0, claims)
	b := &builder{res: res, byCall: make(map[*pyscan.Call]*Node, claims),
		g: &Graph{Nodes: make([]*Node, 0, claims), Edges: make([]Edge, 0, infers)}}
	for _, f := range res.Files {
		first := len(nodes)
		for _, s := range f.Stmts {
			if s.Verb == "claim" {
				nodes = append(nodes, Node{File: f, Call: s.Call, id: len(nodes), Decl: s.Call.Span})
				n := &nodes[len(nodes)-1]
				b.byCall[s.Call] = n
				b.g.Nodes = append(b.g.Nodes, n)
			}
		}
		if len(nodes) > first {
			b.label(f.Module)
		}
	}
	for _, f := range res.Files {
		for _, s := range f.Stmts {
			if s.Verb == "infer" {
				b.infer(f, s.Call)
			}
		}
	}
	return b.g
}

type builder struct {
	res    *gaiaref.Result
	byCall map[*pyscan.Call]*Node
	g      *Graph
	firsts map[string]pyscan.Span // label's scratch, shared by the package's modules
}

// label gives each claim node of module m (found by its call in byCall)
// the first module-level variable bound to its call (Gaia's
// _assign_labels) and the span of that variable in the first module-level
// assignment to it, where the compiled-IR findings about the claim are
// mapped too. An inline claim keeps no label and its call's span. One pass
// over the assignments in source order: the first assignment to a name
// comes no later than the claim's own, so it is known by then (firsts,
// filled from the first claim assignment on; one map for the package).
func (b *builder) label(m *pyscan.Module) {
	filled := false
	for k, a := range m.Assigns {
		if a.Scope != m.Root {
			continue
		}
		if filled {
			addFirsts(b.firsts, a)
		}
		if a.Value == nil || a.Value.Kind != pyscan.ExprCall {
			continue
		}
		n := b.byCall[a.Value.Call]
		if n == nil || n.Label != "" {
			continue
		}
		for _, t := range a.Targets {
			if t.Kind == pyscan.ExprName {
				if !filled {
					if b.firsts == nil {
						b.firsts = make(map[string]pyscan.Span, len(m.Assigns)-k)
					}
					clear(b.firsts)
					for _, e := range m.Assigns[:k+1] {
						if e.Scope == m.Root {
							addFirsts(b.firsts, e)
						}
					}
					filled = true
				}
				n.Label, n.Decl = t.Name, b.firsts[t.Name]
				break
			}
		}
	}
}

// addFirsts records the bare-name targets of a that firsts has not seen.
func addFirsts(firsts map[string]pyscan.Span, a *pyscan.Assign) {
	for _, t := range a.Targets {
		if _, seen := firsts[t.Name]; t.Kind == pyscan.ExprName && !seen {
			firsts[t.Name] = t.Span
		}
	}
}

// infer adds the edge of one infer statement, if Gaia would draw one.
//
//	Have: infer(evidence, hypothesis=h, p_e_given_h=..., p_e_given_not_h=..., rationale=...)
func (b *builder) infer(f *gaiaref.File, c *pyscan.Call) {
	if g := c.Keyword("given"); g != nil && !emptySequence(g.Value) {
		return // a conditional infer compiles to several premises: no edge (GAIA508)
	}
	var ev *pyscan.Expr
	switch {
	case len(c.Args) > 0:
		ev = c.Args[0]
	case c.Keyword("evidence") != nil:
		ev = c.Keyword("evidence").Value
	}
	hyp := c.Keyword("hypothesis")
	certain := c.Scope == f.Module.Root
	switch {
	case ev == nil && !(c.StarArgs || c.KwSplat), hyp == nil && !c.KwSplat:
		return // a TypeError inside gaia build compile: no strategy at all
	case ev != nil && (ev.Kind == pyscan.ExprList || ev.Kind == pyscan.ExprTuple):
		// The deprecated infer([premises], conclusion) form: its edges
		// are not read here.
		b.g.Edges = append(b.g.Edges, Edge{From: End{Unknown: true}, To: End{Unknown: true}})
		return
	}
	e := Edge{From: End{Unknown: true}, To: End{Unknown: true}, Certain: certain}
	if ev != nil {
		e.From = b.resolve(f, ev, c)
	}
	if hyp != nil {
		e.To = b.resolve(f, hyp.Value, c)
	}
	if e.From.Node == nil && !e.From.Unknown {
		return // evidence written as a string: a fresh claim nothing else reaches
	}
	b.g.Edges = append(b.g.Edges, e)
}

// resolve pins an argument of the call to a claim node, as far as names
// resolve.
func (b *builder) resolve(f *gaiaref.File, e *pyscan.Expr, c *pyscan.Call) End {
	switch e.Kind {
	case pyscan.ExprString:
		return End{} // a new anonymous claim
	case pyscan.ExprCall:
		if n := b.byCall[e.Call]; n != nil {
			return End{Node: n}
		}
	case pyscan.ExprName, pyscan.ExprAttr:
		if a := b.res.Definition(e, c.Scope, int(e.Span.Start.Offset)); a != nil && a.Value.Kind == pyscan.ExprCall {
			if n := b.byCall[a.Value.Call]; n != nil {
				return End{Node: n}
			}
		}
	}
	return End{Unknown: true}
}

func emptySequence(e *pyscan.Expr) bool {
	return e != nil && (e.Kind == pyscan.ExprList || e.Kind == pyscan.ExprTuple) && len(e.Elems()) == 0
}

// Disconnected returns the criteria the source proves cannot reach worth,
// in the order of Criteria. It returns nothing when the package has no
// single claim labelled worth, when the certain edges form a cycle (both
// as the IR rule, which needs a root and an acyclic graph), or when an
// infer whose evidence cannot be resolved might lead anywhere.
func (g *Graph) Disconnected() []*Node {
	root := g.only("worth")
	if root == nil || g.cyclic() {
		return nil
	}
	reach := make([]uint8, len(g.Nodes)) // by Node.id
	reach[root.id] = yes
	of := func(n *Node) uint8 {
		if n == nil {
			return no
		}
		return reach[n.id]
	}
	// Certain edges prove reach; any edge to something that reaches, may
	// reach or is unknown makes its evidence a "maybe".
	for changed := true; changed; {
		changed = false
		for _, e := range g.Edges {
			from := e.From.Node
			if from == nil || reach[from.id] == yes {
				continue
			}
			to := of(e.To.Node)
			switch {
			case e.Certain && e.To.Node != nil && to == yes:
				reach[from.id], changed = yes, true
			case reach[from.id] == no && (e.To.Unknown || to != no):
				reach[from.id], changed = maybe, true
			}
		}
	}
	for _, e := range g.Edges {
		if e.From.Unknown && (e.To.Unknown || of(e.To.Node) != no) {
			return nil // some claim the source cannot name reaches worth
		}
	}
	var out []*Node
	for _, l := range Criteria {
		if n := g.only(l); n != nil && reach[n.id] == no {
			out = append(out, n)
		}
	}
	return out
}

// Reach values; the zero value is no.
const (
	no = iota
	maybe
	yes
)

// only returns the one node labelled l, or nil when there is none or more
// than one.
func (g *Graph) only(l string) *Node {
	var one *Node
	for _, n := range g.Nodes {
		if n.Label == l {
			if one != nil {
				return nil
			}
			one = n
		}
	}
	return one
}

// cyclic reports a directed cycle among the certain edges between known
// claims (the compiled graph then has GAIA141 and no GAIA507).
func (g *Graph) cyclic() bool {
	// The successors of node i are succ[first[i]:first[i+1]], in edge
	// order: two arrays for the whole graph, not a slice per node.
	first := make([]int, len(g.Nodes)+1)
	for _, e := range g.Edges {
		if e.Certain && e.From.Node != nil && e.To.Node != nil {
			first[e.From.Node.id+1]++
		}
	}
	for i := range g.Nodes {
		first[i+1] += first[i]
	}
	succ := make([]*Node, first[len(g.Nodes)])
	fill := slices.Clone(first[:len(g.Nodes)])
	for _, e := range g.Edges {
		if e.Certain && e.From.Node != nil && e.To.Node != nil {
			succ[fill[e.From.Node.id]] = e.To.Node
			fill[e.From.Node.id]++
		}
	}
	const (
		white = iota
		grey
		black
	)
	state := make([]uint8, len(g.Nodes)) // by Node.id
	var visit func(n *Node) bool
	visit = func(n *Node) bool {
		state[n.id] = grey
		for _, m := range succ[first[n.id]:first[n.id+1]] {
			if state[m.id] == grey || (state[m.id] == white && visit(m)) {
				return true
			}
		}
		state[n.id] = black
		return false
	}
	for _, n := range g.Nodes {
		if state[n.id] == white && visit(n) {
			return true
		}
	}
	return false
}
