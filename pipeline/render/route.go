package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// route draws every edge: forward edges as curves between columns (straight
// through the dummy slots they reserved), edges that run backwards or stay
// in one column as loops under the drawing. Several edges meeting one card
// side get their own ports, ordered by where they come from, so arrows do
// not pile onto one point.
func (l *Layout) route(g *Graph, items []*item, chains [][]int) {
	l.Edges = make([]EdgeGeom, len(g.Edges))
	inPort, outPort := l.ports(g, items, chains)
	bottom := l.Height - loopRoom - margin
	for ei, e := range g.Edges {
		geom := &l.Edges[ei]
		geom.ChipW = chipWidth(ChipLabel(e.Grade))
		s, t := l.Cards[e.From], l.Cards[e.To]
		chain := chains[ei]
		switch {
		case e.From == e.To:
			y := s.Y + s.H/2
			x := s.X + s.W
			geom.D = fmt.Sprintf("M%s %sC%s %s %s %s %s %s", f1(x), f1(y-12), f1(x+70), f1(y-50), f1(x+70), f1(y+50), f1(x+2), f1(y+12))
			geom.Chip = Point{round1(x + 70), round1(y)}
		case chain == nil:
			geom.D, geom.Chip = loopPath(s, t, bottom, l.Width)
		default:
			geom.D, geom.Chip = l.chainPath(items, chain, outPort[ei], inPort[ei])
		}
	}
	l.spreadChips()
}

// loopPath draws an edge that runs backwards (a broken cycle) or within one
// column: out of the source's right side, down the gap, under the whole
// drawing and up into the target's left side, so it never cuts through a
// card. The control depth is chosen so the curve's lowest point, reached at
// its middle, lies loopDip below the cards.
func loopPath(s, t Box, bottom, width float64) (string, Point) {
	const loopDip = 36.0
	sx, sy := s.X+s.W, s.Y+s.H/2
	tx, ty := t.X-1, t.Y+t.H/2
	c := (bottom + loopDip - (sy+ty)/8) / 0.75
	// Keep the control points on the canvas: a curve may not leave it.
	c1x, c2x := min(sx+gapX*0.6, width-4), max(tx-gapX*0.6, 4)
	d := fmt.Sprintf("M%s %sC%s %s %s %s %s %s", f1(sx), f1(sy), f1(c1x), f1(c), f1(c2x), f1(c), f1(tx), f1(ty))
	return d, Point{round1((sx + 3*c1x + 3*c2x + tx) / 8), round1(bottom + loopDip)}
}

// chainPath builds the path through a forward edge's items.
func (l *Layout) chainPath(items []*item, chain []int, y0, y1 float64) (string, Point) {
	first, lastIt := items[chain[0]], items[chain[len(chain)-1]]
	src, dst := l.Cards[first.node], l.Cards[lastIt.node]
	pts := []Point{{src.X + src.W, y0}}
	for _, id := range chain[1 : len(chain)-1] {
		it := items[id]
		x := margin + float64(it.col)*(cardW+gapX)
		y := it.y + it.h/2
		pts = append(pts, Point{x, y}, Point{x + cardW, y})
	}
	pts = append(pts, Point{dst.X - 1, y1})
	var b strings.Builder
	fmt.Fprintf(&b, "M%s %s", f1(pts[0].X), f1(pts[0].Y))
	for i := 1; i < len(pts); i++ {
		a, p := pts[i-1], pts[i]
		if i%2 == 0 { // straight run through a dummy slot
			fmt.Fprintf(&b, "L%s %s", f1(p.X), f1(p.Y))
			continue
		}
		dx := (p.X - a.X) / 2
		fmt.Fprintf(&b, "C%s %s %s %s %s %s", f1(a.X+dx), f1(a.Y), f1(p.X-dx), f1(p.Y), f1(p.X), f1(p.Y))
	}
	// The chip sits at the middle of the first curve, where edges leaving
	// one card have already fanned out.
	chip := Point{round1((pts[0].X + pts[1].X) / 2), round1((pts[0].Y + pts[1].Y) / 2)}
	return b.String(), chip
}

// ports spreads the ends of the edges meeting each card side, ordered by
// the height of the item at the other end, over the card's middle band.
func (l *Layout) ports(g *Graph, items []*item, chains [][]int) (in, out []float64) {
	in = make([]float64, len(g.Edges))
	out = make([]float64, len(g.Edges))
	type end struct {
		edge  int
		other float64
	}
	ins := make([][]end, len(g.Nodes))
	outs := make([][]end, len(g.Nodes))
	for ei, e := range g.Edges {
		c := chains[ei]
		if c == nil {
			continue
		}
		prev, next := items[c[len(c)-2]], items[c[1]]
		ins[e.To] = append(ins[e.To], end{ei, prev.y + prev.h/2})
		outs[e.From] = append(outs[e.From], end{ei, next.y + next.h/2})
	}
	assign := func(ends []end, box Box, dst []float64) {
		slices.SortStableFunc(ends, func(a, b end) int { return cmp.Compare(a.other, b.other) })
		top, bot := box.Y+min(30, box.H/3), box.Y+box.H-min(14, box.H/4)
		for k, e := range ends {
			y := (top + bot) / 2
			if len(ends) > 1 {
				y = top + (bot-top)*float64(k)/float64(len(ends)-1)
			}
			dst[e.edge] = round1(y)
		}
	}
	for v := range g.Nodes {
		assign(ins[v], l.Cards[v], in)
		assign(outs[v], l.Cards[v], out)
	}
	return in, out
}

// spreadChips pushes chips in the same column gap apart so their labels do
// not overlap.
func (l *Layout) spreadChips() {
	if len(l.Edges) > maxSpreadChips {
		return // overlapping chips beat a cubic layout time on huge graphs
	}
	idx := make([]int, len(l.Edges))
	for i := range idx {
		idx[i] = i
	}
	// Top to bottom: each chip only ever moves down, below the chips above
	// it that it would overlap horizontally.
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(l.Edges[a].Chip.Y, l.Edges[b].Chip.Y), cmp.Compare(l.Edges[a].Chip.X, l.Edges[b].Chip.X))
	})
	const minDY = 24.0
	for k := 1; k < len(idx); k++ {
		cur := &l.Edges[idx[k]].Chip
		for moved := true; moved; {
			moved = false
			for _, j := range idx[:k] {
				prev := l.Edges[j].Chip
				if math.Abs(prev.X-cur.X) < (l.Edges[j].ChipW+l.Edges[idx[k]].ChipW)/2 && math.Abs(cur.Y-prev.Y) < minDY {
					cur.Y = round1(prev.Y + minDY)
					moved = true
				}
			}
		}
	}
	for _, e := range l.Edges {
		l.Height = max(l.Height, e.Chip.Y+margin)
	}
}

// ChipLabel is the text on an edge's chip, e.g. "strong ×30".
func ChipLabel(g Grade) string { return g.Chip + " " + g.RatioText() }

func chipWidth(label string) float64 { return round1(6.6*float64(utf8.RuneCountInString(label)) + 18) }

// f1 formats a coordinate with at most one decimal, for compact stable SVG.
func f1(f float64) string { return strconv.FormatFloat(round1(f), 'f', -1, 64) }
