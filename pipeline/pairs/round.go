package pairs

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"strings"
)

// round plans one round without listing every pair (issue 13: memory and
// time proportional to the nodes, not to their square). It proposes exactly
// what taking every candidate pair in sortPairs order would (allPairs then
// the greedy pass; TestRoundMatchesAllPairs holds the two together):
//
//   - cold starts first, as in Propose;
//   - then, repeatedly, the smallest pair in sortPairs order whose nodes are
//     both unused and that is not already matched. Each node lists its
//     partners lazily in that order (nearest posterior classes outward, by
//     id among equals, cold partners after warm ones), and a heap holds each
//     node's current head: the heap's minimum is the smallest usable pair.
func round(plan *Plan, eligible []Node, done map[[2]string]bool) []Pair {
	r := newRounder(plan, eligible, done)
	var out []Pair
	r.coldStarts(&out)
	r.greedy(&out)
	return out
}

// rounder holds the nodes by score class and what is used.
type rounder struct {
	plan    *Plan
	nodes   []Node
	score   []float64
	cold    []bool
	done    map[[2]string]bool
	used    []bool
	classes []class
	where   []slot // node -> its class and position there
	// nearest class with an unused node at or left/right of a class
	// (union-find with path compression; used only grows).
	leftAlive, rightAlive []int
	alive                 []int // unused nodes per class
	median                int   // the class of the cold nodes (they play at the median), -1 for none
}

// class is the nodes that play at one exact score, warm and cold apart,
// each list sorted by id, with a union-find over each list that skips
// used entries.
type class struct {
	score      float64
	warm, cold []int
	nextWarm   []int
	nextCold   []int
}

type slot struct {
	class int
	cold  bool
	index int
}

func newRounder(plan *Plan, eligible []Node, done map[[2]string]bool) *rounder {
	r := &rounder{plan: plan, nodes: eligible, done: done, used: make([]bool, len(eligible)),
		score: make([]float64, len(eligible)), cold: make([]bool, len(eligible)), where: make([]slot, len(eligible))}
	order := make([]int, len(eligible))
	for i, n := range eligible {
		r.score[i], r.cold[i] = plan.score(n)
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(r.score[a], r.score[b]), strings.Compare(eligible[a].ID, eligible[b].ID))
	})
	for _, i := range order {
		if len(r.classes) == 0 || r.classes[len(r.classes)-1].score != r.score[i] {
			r.classes = append(r.classes, class{score: r.score[i]})
		}
		c := &r.classes[len(r.classes)-1]
		if r.cold[i] {
			r.where[i] = slot{len(r.classes) - 1, true, len(c.cold)}
			c.cold = append(c.cold, i)
		} else {
			r.where[i] = slot{len(r.classes) - 1, false, len(c.warm)}
			c.warm = append(c.warm, i)
		}
	}
	r.leftAlive = make([]int, len(r.classes)+1)
	r.rightAlive = make([]int, len(r.classes)+1)
	r.alive = make([]int, len(r.classes))
	for c := range r.classes {
		cl := &r.classes[c]
		cl.nextWarm = identity(len(cl.warm) + 1)
		cl.nextCold = identity(len(cl.cold) + 1)
		r.alive[c] = len(cl.warm) + len(cl.cold)
		r.leftAlive[c+1] = c + 1 // shifted by one: index 0 is "none to the left"
		r.rightAlive[c] = c
	}
	r.rightAlive[len(r.classes)] = len(r.classes) // "none to the right"
	r.median = -1
	for c := range r.classes {
		if len(r.classes[c].cold) > 0 {
			r.median = c
		}
	}
	return r
}

func identity(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// find is union-find's root with path halving.
func find(parent []int, i int) int {
	for parent[i] != i {
		parent[i] = parent[parent[i]]
		i = parent[i]
	}
	return i
}

// left returns the nearest class at or left of c with an unused node, -1
// for none; right the nearest at or right of c, len(classes) for none.
func (r *rounder) left(c int) int  { return find(r.leftAlive, c+1) - 1 }
func (r *rounder) right(c int) int { return find(r.rightAlive, c) }

// use marks node i used and unlinks it from its class list (and the class
// from the alive lists when it empties).
func (r *rounder) use(i int) {
	r.used[i] = true
	s := r.where[i]
	cl := &r.classes[s.class]
	if s.cold {
		cl.nextCold[s.index] = s.index + 1
	} else {
		cl.nextWarm[s.index] = s.index + 1
	}
	if r.alive[s.class]--; r.alive[s.class] == 0 {
		r.leftAlive[s.class+1] = s.class
		r.rightAlive[s.class] = s.class + 1
	}
}

// isDone reports whether the pair already has a match.
func (r *rounder) isDone(i, j int) bool {
	return len(r.done) > 0 && r.done[key(r.nodes[i].ID, r.nodes[j].ID)]
}

func (r *rounder) pair(i, j int) Pair { return r.plan.pair(r.nodes[i], r.nodes[j]) }

// coldStarts serves every cold node, by id, the first warm node in order
// of closeness to the median that is unused and not already its opponent.
// The unused warm nodes are a linked list in that order, so each cold node
// walks only past the warm nodes it has already met.
func (r *rounder) coldStarts(out *[]Pair) {
	var cold, warm []int
	for i := range r.nodes {
		if r.cold[i] {
			cold = append(cold, i)
		} else {
			warm = append(warm, i)
		}
	}
	if len(cold) == 0 || len(warm) == 0 {
		return
	}
	slices.SortFunc(cold, func(a, b int) int { return strings.Compare(r.nodes[a].ID, r.nodes[b].ID) })
	m := r.plan.Median
	slices.SortFunc(warm, func(a, b int) int {
		return cmp.Or(cmp.Compare(distance(r.score[a], m), distance(r.score[b], m)), strings.Compare(r.nodes[a].ID, r.nodes[b].ID))
	})
	next := make([]int, len(warm)+1) // next[k]: the unused warm after list position k-1; next[0] is the head
	prev := make([]int, len(warm)+1)
	for k := range next {
		next[k] = k + 1
		prev[k] = k - 1
	}
	for _, c := range cold {
		for k := next[0]; k <= len(warm); k = next[k] {
			w := warm[k-1]
			if r.isDone(c, w) {
				continue
			}
			next[prev[k]] = next[k]
			if next[k] <= len(warm) {
				prev[next[k]] = prev[k]
			}
			r.use(c)
			r.use(w)
			*out = append(*out, r.pair(c, w))
			break
		}
	}
}

// A class stream lists the pairs between one class's nodes and the other
// classes in sortPairs order, lazily: groups of classes outward by
// (rounded) posterior distance, the class itself first; in each group the
// warm-warm pairs, then the warm-cold ones; among equals by ids. Its head
// is the smallest pair still usable, found when asked; a pair's key only
// grows as nodes are used, so a heap of heads with stale keys checked on
// pop yields the smallest usable pair of all. The cold-cold pairs, last in
// sortPairs order, are one more stream. One stream per class, not per node:
// a class of thousands of equal posteriors would otherwise have thousands
// of heads pointing at the one node just taken.
type stream struct {
	class int // the class, or -1 for the cold-cold stream
	li    int // next class to the left not yet grouped
	ri    int // next class to the right (first: the class itself) not yet grouped
	group []int
	stage int // 0: warm-warm pairs of the group; 1: warm-cold pairs
	dead  bool
}

// list is one sorted id list of a class: its warm or its cold nodes.
type list struct {
	class int
	cold  bool
}

func (r *rounder) ids(l list) ([]int, []int) {
	cl := &r.classes[l.class]
	if l.cold {
		return cl.cold, cl.nextCold
	}
	return cl.warm, cl.nextWarm
}

// head returns the stream's smallest usable pair, advancing past spent
// stages and groups; ok is false when the stream has no pair left.
func (r *rounder) head(s *stream) (Pair, int, int, bool) {
	for !s.dead {
		if s.class < 0 {
			if r.median >= 0 {
				cold := []list{{r.median, true}}
				if u, v := r.minPair(cold, func(int) []list { return cold }); u >= 0 {
					return r.pair(u, v), u, v, true
				}
			}
			s.dead = true
			break
		}
		if r.alive[s.class] == 0 {
			s.dead = true
			break
		}
		if s.group == nil && !r.nextGroup(s) {
			s.dead = true
			break
		}
		if u, v := r.groupPair(s); u >= 0 {
			return r.pair(u, v), u, v, true
		}
		if s.stage == 0 {
			s.stage = 1
			continue
		}
		s.group, s.stage = nil, 0
	}
	return Pair{}, -1, -1, false
}

// nextGroup gathers the classes nearest to the stream's class not yet
// grouped whose distance (rounded, as Pair.Distance is) is the smallest
// left.
func (r *rounder) nextGroup(s *stream) bool {
	sx := r.classes[s.class].score
	s.li, s.ri = r.left(s.li), r.right(s.ri)
	if s.li < 0 && s.ri >= len(r.classes) {
		return false
	}
	dl, dr := math.Inf(1), math.Inf(1)
	if s.li >= 0 {
		dl = distance(sx, r.classes[s.li].score)
	}
	if s.ri < len(r.classes) {
		dr = distance(sx, r.classes[s.ri].score)
	}
	d := min(dl, dr)
	s.group = []int{}
	for s.li >= 0 && distance(sx, r.classes[s.li].score) == d {
		s.group = append(s.group, s.li)
		s.li = r.left(s.li - 1)
	}
	for s.ri < len(r.classes) && distance(sx, r.classes[s.ri].score) == d {
		s.group = append(s.group, s.ri)
		s.ri = r.right(s.ri + 1)
	}
	s.stage = 0
	return true
}

// groupPair is the smallest usable pair, in the stream's current stage,
// between its class and its group. A pair kind whose either side has no
// unused node is left out, so no node is tried that cannot have a partner.
func (r *rounder) groupPair(s *stream) (int, int) {
	// The kinds of pair of the stage: (kind in the class, kind in the
	// group); false is warm.
	kinds := [][2]bool{{false, false}}
	if s.stage == 1 {
		kinds = [][2]bool{{false, true}, {true, false}}
	}
	var live [][2]bool
	for _, k := range kinds {
		if r.hasUnused([]list{{s.class, k[0]}}) && r.hasUnused(r.groupLists(s, k[1])) {
			live = append(live, k)
		}
	}
	if len(live) == 0 {
		return -1, -1
	}
	var cands []list
	for _, k := range live {
		for _, l := range append([]list{{s.class, k[0]}}, r.groupLists(s, k[1])...) {
			if !slices.Contains(cands, l) {
				cands = append(cands, l)
			}
		}
	}
	partners := func(u int) []list {
		var out []list
		for _, k := range live {
			if r.where[u].class == s.class && r.cold[u] == k[0] {
				out = append(out, r.groupLists(s, k[1])...)
			}
			if slices.Contains(s.group, r.where[u].class) && r.cold[u] == k[1] {
				out = append(out, list{s.class, k[0]})
			}
		}
		return out
	}
	return r.minPair(cands, partners)
}

// groupLists is the lists of one kind of the group's classes.
func (r *rounder) groupLists(s *stream, cold bool) []list {
	out := make([]list, len(s.group))
	for i, c := range s.group {
		out[i] = list{c, cold}
	}
	return out
}

// hasUnused reports whether any of lists has an unused node.
func (r *rounder) hasUnused(lists []list) bool {
	for _, l := range lists {
		ids, next := r.ids(l)
		if find(next, 0) < len(ids) {
			return true
		}
	}
	return false
}

// minPair finds the smallest pair (by the smaller id, then the larger)
// whose first node is an unused node of cands and whose second is an
// unused node of partners(first), other than the first and not already
// matched with it. It tries the candidates in id order: the first that has
// a partner gives the pair (a smaller partner would have been tried first,
// and found this one).
func (r *rounder) minPair(cands []list, partners func(u int) []list) (int, int) {
	cur := make([]int, len(cands))
	for {
		best := -1
		for i, l := range cands {
			ids, next := r.ids(l)
			cur[i] = find(next, cur[i])
			if cur[i] < len(ids) {
				if u := ids[cur[i]]; best < 0 || r.nodes[u].ID < r.nodes[best].ID {
					best = u
				}
			}
		}
		if best < 0 {
			return -1, -1
		}
		for i, l := range cands { // every list holding best moves past it
			if ids, _ := r.ids(l); cur[i] < len(ids) && ids[cur[i]] == best {
				cur[i]++
			}
		}
		if v := r.minPartner(best, partners(best)); v >= 0 {
			return best, v
		}
	}
}

// minPartner is the unused node of smallest id in lists, other than u and
// not already matched with u, or -1.
func (r *rounder) minPartner(u int, lists []list) int {
	best := -1
	for _, l := range lists {
		ids, next := r.ids(l)
		for i := find(next, 0); i < len(ids); i = find(next, i+1) {
			v := ids[i]
			if v == u || r.isDone(u, v) {
				continue
			}
			if best < 0 || r.nodes[v].ID < r.nodes[best].ID {
				best = v
			}
			break
		}
	}
	return best
}

// entry is a heap entry: a stream and the head it had when pushed.
type entry struct {
	s *stream
	p Pair
}

type entries []entry

func (h entries) Len() int           { return len(h) }
func (h entries) Less(i, j int) bool { return comparePairs(h[i].p, h[j].p) < 0 }
func (h entries) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *entries) Push(x any)        { *h = append(*h, x.(entry)) }
func (h *entries) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// greedy takes the smallest usable pair until none is left.
func (r *rounder) greedy(out *[]Pair) {
	h := make(entries, 0, len(r.classes)+1)
	streams := make([]*stream, 0, len(r.classes)+1)
	for c := range r.classes {
		streams = append(streams, &stream{class: c, li: c - 1, ri: c})
	}
	streams = append(streams, &stream{class: -1})
	for _, s := range streams {
		if p, _, _, ok := r.head(s); ok {
			h = append(h, entry{s, p})
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		e := h[0]
		p, u, v, ok := r.head(e.s)
		switch {
		case !ok:
			heap.Pop(&h)
		case p != e.p:
			h[0].p = p // a later pair: the stored one was used up meanwhile
			heap.Fix(&h, 0)
		default:
			r.use(u)
			r.use(v)
			*out = append(*out, p)
			if p, _, _, ok := r.head(e.s); ok {
				h[0].p = p
				heap.Fix(&h, 0)
			} else {
				heap.Pop(&h)
			}
		}
	}
}
