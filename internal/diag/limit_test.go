package diag

import (
	"strings"
	"testing"
)

func TestLimit(t *testing.T) {
	a, b := &Rule{Code: "X001"}, &Rule{Code: "X002"}
	var l Limit[int]
	kept := 0
	firsts := 0
	for i := range 3 * PerRule {
		if l.Keep(a, func() int { firsts++; return i }) {
			kept++
		}
	}
	if !l.Keep(b, func() int { return -1 }) {
		t.Fatal("another rule's first finding was dropped")
	}
	ds := l.Dropped()
	if kept != PerRule || firsts != 1 || len(ds) != 1 || ds[0].Rule != a || ds[0].N != 2*PerRule || ds[0].First != PerRule {
		t.Fatalf("kept %d, first made %d times, dropped %+v", kept, firsts, ds)
	}
	if !strings.HasPrefix(ds[0].Message(), "200 more findings of this rule in this file are not shown") {
		t.Fatal(ds[0].Message())
	}
}

// Each file has its own limit; the closing finding sits where the first
// finding not kept was, with its rule, and counts what was not kept.
func TestFindings(t *testing.T) {
	r := &Rule{Code: "X001", Severity: Error}
	var f Findings
	for _, path := range []string{"b.json", "a.json"} {
		for i := range PerRule + 5 {
			f.Add(r, path, func() Diagnostic { return r.New(path, i+1, 1, i+1, 1, "finding %d", i) })
		}
	}
	f.Put(r.New("c.json", 1, 1, 1, 1, "made elsewhere"))
	ds := f.List()
	if f.Count() != 2*(PerRule+5)+1 || len(ds) != 2*(PerRule+1)+1 {
		t.Fatalf("count %d, %d findings", f.Count(), len(ds))
	}
	closing := ds[len(ds)-1]
	if closing.Path != "b.json" || closing.Line != PerRule+1 || closing.Code != "X001" || !strings.HasPrefix(closing.Message, "5 more findings") {
		t.Fatalf("closing finding %+v", closing)
	}
}

func TestFindingsHas(t *testing.T) {
	r, other := &Rule{Code: "X001"}, &Rule{Code: "X002"}
	var f Findings
	for range PerRule + 1 {
		f.Add(r, "a.json", func() Diagnostic { return r.New("a.json", 1, 1, 1, 1, "x") })
	}
	f.Put(other.New("b.json", 1, 1, 1, 1, "made elsewhere"))
	if !f.Has(r, "a.json") || f.Has(r, "b.json") || !f.Has(other, "b.json") || f.Has(other, "a.json") {
		t.Fatal("Has answers wrong")
	}
}
