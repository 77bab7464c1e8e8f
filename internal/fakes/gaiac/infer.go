package gaiac

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

// Infer computes .gaia/beliefs.json from the bytes of an ir.json, with the
// model Gaia's BP lowering builds (gaia/engine/bp/lowering.py,
// factor_graph.py, potentials.py) for the subset Compile writes:
//
//   - one binary variable per claim (notes are not part of inference);
//   - a unary factor [1-p, p] for a claim with a prior: its last
//     metadata.prior_records value (register_prior, claim(prior=)) first,
//     else metadata.prior (0.999 for an observed claim), clamped to the
//     Cromwell bounds [0.001, 0.999]; a claim with neither has none (0.5);
//   - an infer strategy is a conditional factor P(conclusion | premises)
//     from conditional_probabilities (index = premise bits, bit 0 the
//     first premise; each entry clamped to [0.001, 0.999]);
//   - a relation operator (complement, equivalence, contradiction) is a
//     deterministic factor over its two variables and its helper claim,
//     and the helper is pinned true (hard evidence): the relation is
//     asserted;
//
// and the belief of each claim is its exact marginal P(claim = true) under
// the product of the factors, computed by enumerating the assignments of
// each connected part of the graph (at most MaxComponent free variables;
// the real gaia runs a junction tree, exact where tractable, so the two
// agree on every graph the fake accepts, up to floating-point rounding).
func Infer(irSrc []byte) ([]byte, error) {
	var ir struct {
		IRHash     string `json:"ir_hash"`
		Knowledges []struct {
			ID       string         `json:"id"`
			Label    *string        `json:"label"`
			Type     string         `json:"type"`
			Metadata map[string]any `json:"metadata"`
		} `json:"knowledges"`
		Strategies []struct {
			Type       string    `json:"type"`
			Premises   []string  `json:"premises"`
			Conclusion string    `json:"conclusion"`
			CPT        []float64 `json:"conditional_probabilities"`
			ID         string    `json:"strategy_id"`
		} `json:"strategies"`
		Operators []struct {
			Operator   string   `json:"operator"`
			Variables  []string `json:"variables"`
			Conclusion string   `json:"conclusion"`
		} `json:"operators"`
	}
	if err := json.Unmarshal(irSrc, &ir); err != nil {
		return nil, fmt.Errorf("ir.json: %v", err)
	}
	g := newGraph()
	for _, k := range ir.Knowledges {
		if k.Type != "claim" {
			continue
		}
		i := g.add(k.ID)
		if p, ok := prior(k.Metadata); ok {
			g.unary[i] = clamp(p)
		}
	}
	for _, s := range ir.Strategies {
		if s.Type != "infer" {
			return nil, fmt.Errorf("strategy %s: type %q is outside the fake gaia's inference (infer only)", s.ID, s.Type)
		}
		f := factor{kind: "conditional", cpt: make([]float64, len(s.CPT))}
		for i, p := range s.CPT {
			f.cpt[i] = clamp(p)
		}
		if len(s.CPT) != 1<<len(s.Premises) || len(s.Premises) == 0 {
			return nil, fmt.Errorf("strategy %s: %d premises need %d conditional probabilities, found %d", s.ID, len(s.Premises), 1<<len(s.Premises), len(s.CPT))
		}
		for _, p := range append(slices.Clone(s.Premises), s.Conclusion) {
			i, ok := g.index[p]
			if !ok {
				return nil, fmt.Errorf("strategy %s names %q, which is not a claim of the graph", s.ID, p)
			}
			f.vars = append(f.vars, i)
		}
		g.factors = append(g.factors, f)
	}
	for _, op := range ir.Operators {
		if _, ok := potential(op.Operator, false, false, false); !ok || len(op.Variables) != 2 {
			return nil, fmt.Errorf("operator %q over %d variables is outside the fake gaia's inference (complement, equivalence, contradiction of two claims)", op.Operator, len(op.Variables))
		}
		f := factor{kind: op.Operator}
		for _, v := range append(slices.Clone(op.Variables), op.Conclusion) {
			i, ok := g.index[v]
			if !ok {
				return nil, fmt.Errorf("operator %s names %q, which is not a claim of the graph", op.Operator, v)
			}
			f.vars = append(f.vars, i)
		}
		helper := f.vars[2]
		g.hard[helper] = 1
		g.unary[helper] = -1
		g.factors = append(g.factors, f)
	}
	beliefs, err := g.marginals()
	if err != nil {
		return nil, err
	}
	var list []any
	for _, k := range ir.Knowledges {
		if k.Type != "claim" {
			continue
		}
		var label any
		if k.Label != nil {
			label = *k.Label
		}
		list = append(list, map[string]any{"belief": beliefs[g.index[k.ID]], "knowledge_id": k.ID, "label": label})
	}
	out := map[string]any{"beliefs": orEmpty(list), "diagnostics": []any{}, "gaia_lang_version": "0.5.0a4", "ir_hash": ir.IRHash}
	return []byte(matchproto.MarshalIndent(sorted(out))), nil
}

// prior is a claim's unary prior: the last prior record's value, else
// metadata.prior.
func prior(meta map[string]any) (float64, bool) {
	if recs, ok := meta["prior_records"].([]any); ok {
		for i := len(recs) - 1; i >= 0; i-- {
			if r, ok := recs[i].(map[string]any); ok {
				if v, ok := r["value"].(float64); ok {
					return v, true
				}
			}
		}
	}
	p, ok := meta["prior"].(float64)
	return p, ok
}

// Cromwell bounds of Gaia's factor graph.
const cromwellEps = 1e-3

func clamp(p float64) float64 { return max(cromwellEps, min(1-cromwellEps, p)) }

// MaxComponent is the most free variables one connected part of the graph
// may have for the enumeration (2^20 assignments).
const MaxComponent = 20

type factor struct {
	kind string
	vars []int // premises..., conclusion (conditional); a, b, helper (relations)
	cpt  []float64
}

// potential is Gaia's deterministic relation potential (1 or 0) of the
// operator given a, b and the helper h; ok is false for another operator.
func potential(operator string, a, b, h bool) (holds, ok bool) {
	switch operator {
	case "complement":
		return h == (a != b), true
	case "equivalence":
		return h == (a == b), true
	case "contradiction":
		return h == !(a && b), true
	}
	return false, false
}

func (f factor) weight(x []bool) float64 {
	if f.kind == "conditional" {
		idx := 0
		n := len(f.vars) - 1
		for i := 0; i < n; i++ {
			if x[f.vars[i]] {
				idx |= 1 << i
			}
		}
		if x[f.vars[n]] {
			return f.cpt[idx]
		}
		return 1 - f.cpt[idx]
	}
	if holds, _ := potential(f.kind, x[f.vars[0]], x[f.vars[1]], x[f.vars[2]]); holds {
		return 1
	}
	return 0
}

type graph struct {
	ids     []string
	index   map[string]int
	unary   []float64 // P(true) of the unary factor, -1 for none
	hard    []int     // -1 free, else the pinned value
	factors []factor
}

func newGraph() *graph { return &graph{index: map[string]int{}} }

func (g *graph) add(id string) int {
	if i, ok := g.index[id]; ok {
		return i
	}
	g.index[id] = len(g.ids)
	g.ids = append(g.ids, id)
	g.unary = append(g.unary, -1)
	g.hard = append(g.hard, -1)
	return len(g.ids) - 1
}

// marginals computes P(v = true) for every variable, one connected part
// of the graph at a time.
func (g *graph) marginals() ([]float64, error) {
	n := len(g.ids)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, f := range g.factors {
		for _, v := range f.vars[1:] {
			parent[find(v)] = find(f.vars[0])
		}
	}
	comps := map[int][]int{}
	var order []int
	for i := range n {
		r := find(i)
		if _, ok := comps[r]; !ok {
			order = append(order, r)
		}
		comps[r] = append(comps[r], i)
	}
	factorsOf := map[int][]factor{}
	for _, f := range g.factors {
		r := find(f.vars[0])
		factorsOf[r] = append(factorsOf[r], f)
	}
	out := make([]float64, n)
	x := make([]bool, n)
	for _, r := range order {
		if err := g.component(comps[r], factorsOf[r], x, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (g *graph) component(vars []int, fs []factor, x []bool, out []float64) error {
	var free []int
	for _, v := range vars {
		if g.hard[v] >= 0 {
			x[v] = g.hard[v] == 1
		} else {
			free = append(free, v)
		}
	}
	if len(free) > MaxComponent {
		return fmt.Errorf("a connected part of the graph has %d free claims; the fake gaia computes exact beliefs by enumeration up to %d (use the real gaia)", len(free), MaxComponent)
	}
	var z float64
	mass := make([]float64, len(free))
	for mask := 0; mask < 1<<len(free); mask++ {
		w := 1.0
		for i, v := range free {
			x[v] = mask&(1<<i) != 0
			if u := g.unary[v]; u >= 0 {
				if x[v] {
					w *= u
				} else {
					w *= 1 - u
				}
			}
		}
		for _, f := range fs {
			if w == 0 {
				break
			}
			w *= f.weight(x)
		}
		z += w
		for i, v := range free {
			if x[v] {
				mass[i] += w
			}
		}
	}
	if z == 0 {
		return fmt.Errorf("the asserted relations among %d claims contradict each other: no assignment is possible", len(vars))
	}
	for i, v := range free {
		out[v] = mass[i] / z
	}
	for _, v := range vars {
		if g.hard[v] >= 0 {
			out[v] = float64(g.hard[v])
		}
	}
	return nil
}
