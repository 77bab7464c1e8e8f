package udiff

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// apply is the changes' meaning: old with each change's lines replaced.
func apply(old []string, cs []Change) []string {
	var out []string
	at := 0
	for _, c := range cs {
		out = append(out, old[at:c.From]...)
		out = append(out, c.New...)
		at = c.To
	}
	return append(out, old[at:]...)
}

// TestCompare: the changes Compare finds turn a into b, are sorted and
// apart (a common line between any two), and are minimal where the answer
// is plain.
func TestCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a, b := make([]string, r.IntN(12)), make([]string, r.IntN(12))
		for i := range a {
			a[i] = string(rune('a'+r.IntN(3))) + "\n"
		}
		for i := range b {
			b[i] = string(rune('a'+r.IntN(3))) + "\n"
		}
		cs := Compare(a, b)
		if got := apply(a, cs); !slices.Equal(got, b) {
			t.Fatalf("Compare(%q, %q) = %+v, which gives %q", a, b, cs, got)
		}
		for i := 1; i < len(cs); i++ {
			if cs[i].From <= cs[i-1].To {
				t.Fatalf("Compare(%q, %q) = %+v: changes not apart", a, b, cs)
			}
		}
	}
	if cs := Compare(SplitLines("x\ny\nz\n"), SplitLines("x\nY\nz\n")); len(cs) != 1 || cs[0].From != 1 || cs[0].To != 2 || !slices.Equal(cs[0].New, []string{"Y\n"}) {
		t.Errorf("one changed line: %+v", cs)
	}
}

func TestHunks(t *testing.T) {
	old := SplitLines("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n")
	var b strings.Builder
	Hunks(&b, old, []Change{{From: 0, To: 1, New: []string{"one\n"}}, {From: 9, To: 9, New: []string{"9.5\n"}}, {From: 10, To: 10, New: []string{"11"}}})
	want := "@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -7,4 +7,6 @@\n 7\n 8\n 9\n+9.5\n 10\n+11\n\\ No newline at end of file\n"
	if b.String() != want {
		t.Errorf("Hunks =\n%s\nwant\n%s", b.String(), want)
	}
}
