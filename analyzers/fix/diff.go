package fix

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
)

// context is the number of unchanged lines shown around a change, as diff -u.
const context = 3

// Unified renders the edits of one file as a unified diff (`diff -u`
// format, both headers naming path), computed from the edits themselves,
// so it shows exactly what the fixes change. It returns "" when edits is
// empty and an error when they overlap.
func Unified(path string, src []byte, edits []diag.Edit) (string, error) {
	es, err := normalize(src, edits)
	if err != nil || len(es) == 0 {
		return "", err
	}
	lines := splitLines(src)
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
	type change struct {
		l0, l1   int // old lines [l0, l1), l1 > l0 except for an insertion at EOF
		old, new []string
	}
	var changes []change
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
		changes = append(changes, change{l0: l0, l1: l1, old: lines[l0:l1], new: splitLines(newText)})
		i = j
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", path, path)
	delta := 0 // new line number minus old line number before the current hunk
	for i := 0; i < len(changes); {
		// A hunk holds the changes whose context windows touch.
		j := i + 1
		for ; j < len(changes) && changes[j].l0-context <= changes[j-1].l1+context; j++ {
		}
		from := max(0, changes[i].l0-context)
		to := min(len(lines), changes[j-1].l1+context)
		var body strings.Builder
		oldN, newN := 0, 0
		at := from
		for _, c := range changes[i:j] {
			for ; at < c.l0; at++ {
				writeLine(&body, ' ', lines[at])
				oldN++
				newN++
			}
			for _, l := range c.old {
				writeLine(&body, '-', l)
			}
			for _, l := range c.new {
				writeLine(&body, '+', l)
			}
			oldN += len(c.old)
			newN += len(c.new)
			at = c.l1
		}
		for ; at < to; at++ {
			writeLine(&body, ' ', lines[at])
			oldN++
			newN++
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n%s", hunkRange(from, oldN), hunkRange(from+delta, newN), body.String())
		delta += newN - oldN
		i = j
	}
	return b.String(), nil
}

// hunkRange renders a hunk's line range as diff -u does: "start,count",
// the start 1-based, or the line before an empty range.
func hunkRange(from, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", from)
	}
	if n == 1 {
		return fmt.Sprintf("%d", from+1)
	}
	return fmt.Sprintf("%d,%d", from+1, n)
}

// writeLine writes one diff line, marking a last line without a newline.
func writeLine(b *strings.Builder, mark byte, line string) {
	b.WriteByte(mark)
	b.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}

// splitLines splits src after each newline; the last line may lack one.
func splitLines(src []byte) []string {
	var out []string
	for len(src) > 0 {
		n := bytes.IndexByte(src, '\n') + 1
		if n == 0 {
			n = len(src)
		}
		out = append(out, string(src[:n]))
		src = src[n:]
	}
	return out
}
