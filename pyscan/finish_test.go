package pyscan

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByStart holds the sorted-list shortcut to the stable sort it
// skips: out-of-order lists come out as slices.SortStableFunc leaves them
// (equal starts keep their order), sorted ones unchanged.
func TestSortByStart(t *testing.T) {
	type item struct{ start, id int32 }
	start := func(x item) int32 { return x.start }
	cases := [][]int32{
		{}, {5}, {1, 2, 3}, {1, 1, 2, 2}, {3, 2, 1}, {2, 1, 1, 0, 2}, {0, 5, 5, 4, 9, 4, 5},
	}
	reversed := make([]int32, 500) // past the moves budget: the stable sort finishes
	for i := range reversed {
		reversed[i] = int32(len(reversed) - i/2)
	}
	cases = append(cases, reversed)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		xs := make([]int32, rng.IntN(60))
		for i := range xs {
			xs[i] = int32(i/3 + rng.IntN(4)) // nearly sorted, with ties
		}
		cases = append(cases, xs)
	}
	for _, starts := range cases {
		xs := make([]item, len(starts))
		for i, s := range starts {
			xs[i] = item{s, int32(i)}
		}
		want := slices.Clone(xs)
		slices.SortStableFunc(want, func(x, y item) int { return int(x.start - y.start) })
		sortByStart(xs, start)
		if !slices.Equal(xs, want) {
			t.Errorf("%v: got %v, want %v", starts, xs, want)
		}
	}
}

// TestModelListsInSourceOrder: a module whose walk makes names and calls
// out of source order (a decorator, a walrus, a comprehension) still has
// them sorted.
func TestModelListsInSourceOrder(t *testing.T) {
	src := "@d(a)\ndef f(p=g(q)): pass\n[x for x in h(y) if (z := x)]\nclass C(B, metaclass=M): pass\n"
	m, err := ParseSource("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	names := func(x *NameRef) int32 { return x.Span.Start.Offset }
	calls := func(x *Call) int32 { return x.Span.Start.Offset }
	if !slices.IsSortedFunc(m.Names, func(x, y *NameRef) int { return int(names(x) - names(y)) }) ||
		!slices.IsSortedFunc(m.Calls, func(x, y *Call) int { return int(calls(x) - calls(y)) }) {
		t.Errorf("lists out of source order")
	}
	if len(m.Names) < 10 {
		t.Errorf("only %d names", len(m.Names))
	}
}
