package render

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"testing"
)

// graphOf builds a graph of labelled claims n0..n(k-1) with the given edges
// (evidence -> hypothesis); root is the last node when rooted.
func graphOf(k int, rooted bool, edges ...[2]int) *Graph {
	g := &Graph{Root: -1}
	for i := range k {
		g.Nodes = append(g.Nodes, &Node{ID: fmt.Sprint("p::n", i), Label: fmt.Sprint("n", i), Type: "claim", Statement: "a statement of moderate length for the card"})
	}
	for _, e := range edges {
		g.Edges = append(g.Edges, &Edge{From: e[0], To: e[1], PEH: 0.9, PENH: 0.09, Grade: GradeOf(0.9, 0.09)})
	}
	if rooted {
		g.Root = k - 1
	}
	g.assignDOMIDs()
	return g
}

func TestLayersOfTheSample(t *testing.T) {
	g, err := Load(filepath.Join(fixtures, "normal"))
	if err != nil {
		t.Fatal(err)
	}
	l := ComputeLayout(g)
	want := map[string]int{"ev_tension": 0, "ev_cost": 0, "tension_resolution": 1, "downstream_reach": 1,
		"mechanism_insight": 1, "testability_timing": 1, "verification_cost": 1, "worth": 2}
	for i, n := range g.Nodes {
		if l.Layer[i] != want[n.Label] {
			t.Errorf("%s in column %d, want %d", n.Label, l.Layer[i], want[n.Label])
		}
	}
	noOverlap(t, l)
	if !reflect.DeepEqual(l, ComputeLayout(g)) {
		t.Fatal("layout is not deterministic")
	}
}

func noOverlap(t *testing.T, l *Layout) {
	t.Helper()
	for i, a := range l.Cards {
		if a.X < margin-0.01 || a.Y < margin-0.01 || a.X+a.W > l.Width+0.01 || a.Y+a.H > l.Height+0.01 {
			t.Errorf("card %d %+v outside the %vx%v canvas", i, a, l.Width, l.Height)
		}
		for j, b := range l.Cards[:i] {
			if a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Errorf("cards %d %+v and %d %+v overlap", j, b, i, a)
			}
		}
	}
}

func TestRootGoesLastEvenWithoutEdges(t *testing.T) {
	l := ComputeLayout(graphOf(3, true))
	if !reflect.DeepEqual(l.Layer, []int{0, 0, 1}) {
		t.Fatalf("layers %v, want worth right of the unconnected claims", l.Layer)
	}
	// A root that is not the longest path's end still ends the drawing.
	l = ComputeLayout(graphOf(4, true, [2]int{0, 1}, [2]int{1, 2}, [2]int{0, 3}))
	if l.Layer[3] != 2 || l.Layer[2] != 2 {
		t.Fatalf("layers %v: the root must sit in the last column", l.Layer)
	}
}

func TestLongChainAndDummies(t *testing.T) {
	var edges [][2]int
	for i := 0; i < 39; i++ {
		edges = append(edges, [2]int{i, i + 1})
	}
	edges = append(edges, [2]int{0, 39}) // spans every column: 38 dummies
	g := graphOf(40, true, edges...)
	l := ComputeLayout(g)
	for i := range 40 {
		if l.Layer[i] != i {
			t.Fatalf("node %d in column %d", i, l.Layer[i])
		}
	}
	noOverlap(t, l)
	if l.Edges[39].D == "" || len(l.Edges) != 40 {
		t.Fatal("long edge not routed")
	}
}

func TestCyclesAndSelfLoopsTerminate(t *testing.T) {
	g := graphOf(4, true, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0}, [2]int{2, 3}, [2]int{1, 1})
	l := ComputeLayout(g)
	noOverlap(t, l)
	bottom := 0.0
	for _, c := range l.Cards {
		bottom = max(bottom, c.Y+c.H)
	}
	for i, e := range l.Edges {
		if e.D == "" {
			t.Errorf("edge %d has no path", i)
		}
		ge := g.Edges[i]
		if ge.From != ge.To && l.Layer[ge.To] <= l.Layer[ge.From] && (e.Chip.Y <= bottom || e.Chip.Y > l.Height) {
			t.Errorf("backward edge %d: chip at y %v, want below the cards (%v) and on the canvas (%v)", i, e.Chip.Y, bottom, l.Height)
		}
	}
	if l.Layer[3] <= l.Layer[2] {
		t.Errorf("root in column %d, not right of its evidence in column %d", l.Layer[3], l.Layer[2])
	}
}

func TestBarycentreRemovesACrossing(t *testing.T) {
	// Columns: [n0 n1] -> [n2 n3]; edges n0->n3, n1->n2 cross in input order.
	g := graphOf(5, true, [2]int{0, 3}, [2]int{1, 2}, [2]int{2, 4}, [2]int{3, 4})
	l := ComputeLayout(g)
	// The evidence for the upper claim must be the upper evidence card.
	upper := func(a, b int) bool { return l.Cards[a].Y < l.Cards[b].Y }
	if upper(0, 1) != upper(3, 2) {
		t.Fatalf("edges still cross: cards %+v", l.Cards)
	}
}

func TestWrapLines(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 1},
		{"short", 1},
		{"one\ntwo\nthree", 3},
		{"xsupercalifragilisticexpialidocioussupercalifragilisticexpialidocious", 3},
	} {
		if got := wrapLines(tc.s, 232); got != tc.want {
			t.Errorf("wrapLines(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
	long := wrapLines("word and many more words to fill a line or two of the card", 232)
	if long < 2 {
		t.Errorf("a 60-character sentence must wrap, got %d line(s)", long)
	}
}

// A hostile shape: a long chain plus an edge from the first node to every
// other one. Without the dummy budget this needs ~n²/2 dummy slots.
func TestHugeGraphStaysBounded(t *testing.T) {
	const n = 2500
	var edges [][2]int
	for i := 1; i < n; i++ {
		edges = append(edges, [2]int{i - 1, i}, [2]int{0, i})
	}
	l := ComputeLayout(graphOf(n, true, edges...))
	if len(l.Edges) != len(edges) || l.Layer[n-1] != n-1 {
		t.Fatalf("%d edges routed, last node in column %d", len(l.Edges), l.Layer[n-1])
	}
	for i, e := range l.Edges {
		if e.D == "" {
			t.Fatalf("edge %d has no path", i)
		}
	}
}

func TestLargerFixtureLayout(t *testing.T) {
	g, err := Load(filepath.Join(fixtures, "larger"))
	if err != nil {
		t.Fatal(err)
	}
	l := ComputeLayout(g)
	noOverlap(t, l)
	if got := l.Layer[g.Root]; got != 3 {
		t.Errorf("worth in column %d, want 3 (evidence, shared input, criteria, worth)", got)
	}
	for i, a := range l.Edges {
		for j, b := range l.Edges[:i] {
			if math.Abs(a.Chip.X-b.Chip.X) < (a.ChipW+b.ChipW)/2 && math.Abs(a.Chip.Y-b.Chip.Y) < 24 {
				t.Errorf("chips of edges %d and %d overlap: %+v %+v", j, i, b.Chip, a.Chip)
			}
		}
	}
}
