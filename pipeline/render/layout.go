package render

import (
	"cmp"
	"math"
	"slices"
)

// Box is a card's rectangle in page pixels.
type Box struct{ X, Y, W, H float64 }

// Point is a position in page pixels.
type Point struct{ X, Y float64 }

// EdgeGeom is where one edge is drawn: the SVG path data and the centre of
// its chip.
type EdgeGeom struct {
	D     string
	Chip  Point
	ChipW float64
}

// Layout is a deterministic layered drawing of a Graph: evidence on the
// left, the worth root in the last column.
type Layout struct {
	Width, Height float64
	Layer         []int // per node
	Cards         []Box // per node
	Edges         []EdgeGeom
}

// Layout geometry, in CSS pixels.
const (
	cardW    = 264.0
	gapX     = 150.0 // room between columns for curves and chips
	gapY     = 26.0
	margin   = 28.0
	dummyH   = 14.0 // vertical slot an edge takes when it crosses a column
	loopRoom = 90.0 // space below the drawing for edges that run backwards
)

// Bounds that keep the layout near-linear on huge or hostile graphs.
const (
	maxDummies   = 20000 // dummy slots for edges spanning several columns
	maxCrossings = 4000  // links between two columns beyond which crossings are not counted
	// maxSpreadChips is the edge count beyond which chips are not pushed apart.
	maxSpreadChips = 1500
)

// item is one slot of a column: a card, or a dummy carrying an edge that
// spans several columns (Sugiyama's virtual node).
type item struct {
	node int // -1 for a dummy
	edge int // the edge a dummy carries
	h    float64
	up   []int // item ids in the previous column linked to this one
	down []int // item ids in the next column
	y    float64
	pos  int // index within its column
	col  int // its column
}

// ComputeLayout lays the graph out: longest-path layering, the root pushed to
// the last column, dummy nodes on long edges, barycentre ordering sweeps
// (keeping the order with the fewest crossings), then packed coordinates.
func ComputeLayout(g *Graph) *Layout {
	l := &Layout{Layer: layers(g)}
	items, cols, chains := buildColumns(g, l.Layer)
	order(items, cols)
	l.place(g, items, cols)
	l.route(g, items, chains)
	return l
}

// layers assigns each node the length of the longest evidence path into
// it. Kahn's algorithm, with cycles (GAIA141 territory, but rendering must
// not hang) broken by releasing the lowest-index remaining node.
func layers(g *Graph) []int {
	n := len(g.Nodes)
	layer := make([]int, n)
	indeg := make([]int, n)
	out := make([][]int, n)
	touched := make([]bool, n)
	for _, e := range g.Edges {
		if e.From == e.To {
			continue
		}
		out[e.From] = append(out[e.From], e.To)
		indeg[e.To]++
		touched[e.From], touched[e.To] = true, true
	}
	done := make([]bool, n)
	var queue []int
	for v := range n {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	for processed := 0; processed < n; {
		if len(queue) == 0 { // a cycle: release the first unprocessed node
			for v := range n {
				if !done[v] {
					queue = append(queue, v)
					indeg[v] = 0
					break
				}
			}
		}
		v := queue[0]
		queue = queue[1:]
		if done[v] {
			continue
		}
		done[v] = true
		processed++
		for _, w := range out[v] {
			if done[w] {
				continue // a back edge of a broken cycle
			}
			layer[w] = max(layer[w], layer[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	last := 0
	for v := range n {
		if touched[v] {
			last = max(last, layer[v])
		}
	}
	if g.Root >= 0 && n > 1 {
		// worth goes at the end, right of everything that updates it (also
		// across a broken cycle); with no edges it still sits right of the rest.
		if !touched[g.Root] {
			last++
		}
		rl := max(last, 1)
		for _, e := range g.Edges {
			if e.To == g.Root && e.From != g.Root {
				rl = max(rl, layer[e.From]+1)
			}
		}
		layer[g.Root] = rl
		last = rl
	}
	for v := range n {
		if !touched[v] && v != g.Root {
			// An unconnected claim (a criterion nothing updates yet) sits in the
			// column just before worth, where criteria live.
			layer[v] = max(0, last-1)
		}
	}
	return layer
}

// buildColumns creates the items of every column and the item chain of
// every forward edge (source card, dummies, target card).
func buildColumns(g *Graph, layer []int) ([]*item, [][]int, [][]int) {
	ncols := 0
	for _, v := range layer {
		ncols = max(ncols, v+1)
	}
	cols := make([][]int, ncols)
	items := make([]*item, 0, len(g.Nodes))
	add := func(it *item, col int) int {
		id := len(items)
		it.pos = len(cols[col])
		it.col = col
		items = append(items, it)
		cols[col] = append(cols[col], id)
		return id
	}
	nodeItem := make([]int, len(g.Nodes))
	for v, n := range g.Nodes {
		nodeItem[v] = add(&item{node: v, h: cardHeight(n)}, layer[v])
	}
	chains := make([][]int, len(g.Edges))
	budget := maxDummies
	for ei, e := range g.Edges {
		a, b := layer[e.From], layer[e.To]
		if b <= a {
			continue // drawn as a loop below the graph
		}
		if b-a-1 > budget {
			// Past the budget a long edge is drawn straight across and takes
			// no part in the ordering: a hostile graph cannot make the layout
			// quadratic in memory.
			chains[ei] = []int{nodeItem[e.From], nodeItem[e.To]}
			continue
		}
		budget -= b - a - 1
		chain := []int{nodeItem[e.From]}
		for c := a + 1; c < b; c++ {
			chain = append(chain, add(&item{node: -1, edge: ei, h: dummyH}, c))
		}
		chain = append(chain, nodeItem[e.To])
		for i := 1; i < len(chain); i++ {
			items[chain[i-1]].down = append(items[chain[i-1]].down, chain[i])
			items[chain[i]].up = append(items[chain[i]].up, chain[i-1])
		}
		chains[ei] = chain
	}
	return items, cols, chains
}

// order runs barycentre sweeps, keeping the ordering with fewest crossings.
func order(items []*item, cols [][]int) {
	best := cloneCols(cols)
	bestX := crossings(items, cols)
	// Always sweep: with no crossings at all the initial order still leaves
	// dummies far from their ends. Ties go to the later, swept order.
	for iter := 0; iter < 8; iter++ {
		if iter%2 == 0 {
			for c := 1; c < len(cols); c++ {
				sortByBarycentre(items, cols[c], func(it *item) []int { return it.up })
			}
		} else {
			for c := len(cols) - 2; c >= 0; c-- {
				sortByBarycentre(items, cols[c], func(it *item) []int { return it.down })
			}
		}
		if x := crossings(items, cols); x <= bestX {
			best, bestX = cloneCols(cols), x
		}
	}
	for c := range cols {
		copy(cols[c], best[c])
		for i, id := range cols[c] {
			items[id].pos = i
		}
	}
}

func sortByBarycentre(items []*item, col []int, nbrs func(*item) []int) {
	key := make(map[int]float64, len(col))
	for _, id := range col {
		ns := nbrs(items[id])
		if len(ns) == 0 {
			// No neighbours on this side: after everything connected, in the
			// current order, so unconnected claims do not sit between an edge
			// and its end.
			key[id] = float64(len(col) + items[id].pos)
			continue
		}
		sum := 0.0
		for _, n := range ns {
			sum += float64(items[n].pos)
		}
		key[id] = sum / float64(len(ns))
	}
	slices.SortStableFunc(col, func(a, b int) int { return cmp.Compare(key[a], key[b]) })
	for i, id := range col {
		items[id].pos = i
	}
}

// crossings counts pairs of crossing links between adjacent columns.
func crossings(items []*item, cols [][]int) int {
	total := 0
	for c := 0; c+1 < len(cols); c++ {
		var links [][2]int
		for _, id := range cols[c] {
			for _, d := range items[id].down {
				links = append(links, [2]int{items[id].pos, items[d].pos})
			}
		}
		if len(links) > maxCrossings {
			continue // too many to compare pairwise; the sweeps still run
		}
		for i := range links {
			for j := i + 1; j < len(links); j++ {
				a, b := links[i], links[j]
				if (a[0]-b[0])*(a[1]-b[1]) < 0 {
					total++
				}
			}
		}
	}
	return total
}

func cloneCols(cols [][]int) [][]int {
	out := make([][]int, len(cols))
	for i, c := range cols {
		out[i] = slices.Clone(c)
	}
	return out
}

// place packs each column top to bottom, then slides whole columns
// vertically towards the items they link to (a few relaxation passes), so
// a short evidence column sits level with the claims it updates instead of
// centred against the tallest column.
func (l *Layout) place(g *Graph, items []*item, cols [][]int) {
	top := make([]float64, len(cols))
	pack := func(c int) {
		y := top[c]
		for _, id := range cols[c] {
			items[id].y = y
			y += items[id].h + gapY
		}
	}
	for c := range cols {
		pack(c)
	}
	centre := func(it *item) float64 { return it.y + it.h/2 }
	for pass := 0; pass < 6; pass++ {
		for c := range cols {
			sum, n := 0.0, 0
			for _, id := range cols[c] {
				it := items[id]
				for _, o := range append(slices.Clone(it.up), it.down...) {
					sum += centre(items[o]) - centre(it)
					n++
				}
			}
			if n > 0 {
				top[c] += sum / float64(n)
				pack(c)
			}
		}
	}
	lowest, bottom := math.Inf(1), 0.0
	for c := range cols {
		if len(cols[c]) > 0 {
			lowest = min(lowest, top[c])
		}
	}
	if math.IsInf(lowest, 1) {
		lowest = 0
	}
	l.Cards = make([]Box, len(g.Nodes))
	for c, col := range cols {
		x := margin + float64(c)*(cardW+gapX)
		for _, id := range col {
			it := items[id]
			it.y = round1(it.y - lowest + margin)
			bottom = max(bottom, it.y+it.h)
			if it.node >= 0 {
				l.Cards[it.node] = Box{X: x, Y: it.y, W: cardW, H: it.h}
			}
		}
	}
	l.Width = 2*margin + float64(len(cols))*cardW + float64(max(0, len(cols)-1))*gapX
	l.Height = bottom + margin
	if hasLoop(g, l.Layer) {
		l.Height += loopRoom
	}
}

func hasLoop(g *Graph, layer []int) bool {
	for _, e := range g.Edges {
		if layer[e.To] <= layer[e.From] {
			return true
		}
	}
	return false
}

func round1(f float64) float64 {
	if f < 0 {
		return -round1(-f)
	}
	return float64(int64(f*10+0.5)) / 10
}
