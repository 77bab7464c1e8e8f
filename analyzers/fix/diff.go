package fix

import (
	"fmt"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/udiff"
)

// Unified renders the edits of one file as a unified diff (`diff -u`
// format, both headers naming path; the hunks are internal/udiff's),
// computed from the edits themselves, so it shows exactly what the fixes
// change. It returns "" when edits is empty and an error when they
// overlap.
func Unified(path string, src []byte, edits []diag.Edit) (string, error) {
	es, err := normalize(src, edits)
	if err != nil || len(es) == 0 {
		return "", err
	}
	lines := udiff.SplitLines(string(src))
	starts := make([]int, len(lines)+1)
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	lineOf := func(off int) int { // index of the line holding off (len(lines) at EOF after a newline)
		lo, hi := 0, len(lines)
		for lo < hi {
			mid := (lo + hi) / 2
			if starts[mid+1] <= off {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == len(lines) && lo > 0 && !strings.HasSuffix(lines[lo-1], "\n") {
			lo-- // the end of a last line without a newline
		}
		return lo
	}
	// lastLine is the end of the old lines an edit touches: an insertion at
	// the start of a line touches none.
	lastLine := func(e diag.Edit) int {
		if e.Start == e.End && e.Start == starts[lineOf(e.Start)] {
			return lineOf(e.Start)
		}
		return lineOf(max(e.End-1, e.Start)) + 1
	}
	// Group the edits by the lines they touch.
	var changes []udiff.Change
	for i := 0; i < len(es); {
		l0 := lineOf(es[i].Start)
		l1 := lastLine(es[i])
		j := i + 1
		for ; j < len(es) && lineOf(es[j].Start) < l1; j++ {
			l1 = max(l1, lastLine(es[j]))
		}
		l1 = min(l1, len(lines))
		base := starts[l0]
		var shifted []diag.Edit
		for _, e := range es[i:j] {
			shifted = append(shifted, diag.Edit{Start: e.Start - base, End: e.End - base, NewText: e.NewText})
		}
		oldText := src[base:starts[l1]]
		newText, err := Apply(oldText, shifted)
		if err != nil {
			return "", err
		}
		changes = append(changes, udiff.Change{From: l0, To: l1, New: udiff.SplitLines(string(newText))})
		i = j
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", path, path)
	udiff.Hunks(&b, lines, changes)
	return b.String(), nil
}
