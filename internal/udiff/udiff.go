// Package udiff is the one unified-diff renderer (the `diff -u` format):
// `nullius lint --diff` prints the changes its fixes make with it
// (analyzers/fix.Unified, which knows the changed lines from the edits
// themselves), and the tests show a golden mismatch with it
// (internal/golden.Diff, which finds the changed lines with Compare).
package udiff

import (
	"fmt"
	"strings"
)

// Context is the number of unchanged lines shown around a change, as diff -u.
const Context = 3

// Change replaces the old lines [From, To) by New; From == To inserts New
// before old line From.
type Change struct {
	From, To int
	New      []string
}

// Hunks writes the hunks of changes over old, as diff -u: a hunk holds the
// changes whose context windows touch, headed "@@ -start,count +start,count
// @@". old and New are lines as SplitLines gives them (each with its "\n",
// the last one possibly without: "\ No newline at end of file"); changes
// are sorted and do not overlap.
func Hunks(b *strings.Builder, old []string, changes []Change) {
	delta := 0 // new line number minus old line number before the current hunk
	for i := 0; i < len(changes); {
		j := i + 1
		for ; j < len(changes) && changes[j].From-Context <= changes[j-1].To+Context; j++ {
		}
		from := max(0, changes[i].From-Context)
		to := min(len(old), changes[j-1].To+Context)
		var body strings.Builder
		oldN, newN := 0, 0
		at := from
		for _, c := range changes[i:j] {
			for ; at < c.From; at++ {
				writeLine(&body, ' ', old[at])
				oldN++
				newN++
			}
			for _, l := range old[c.From:c.To] {
				writeLine(&body, '-', l)
			}
			for _, l := range c.New {
				writeLine(&body, '+', l)
			}
			oldN += c.To - c.From
			newN += len(c.New)
			at = c.To
		}
		for ; at < to; at++ {
			writeLine(&body, ' ', old[at])
			oldN++
			newN++
		}
		fmt.Fprintf(b, "@@ -%s +%s @@\n%s", hunkRange(from, oldN), hunkRange(from+delta, newN), body.String())
		delta += newN - oldN
		i = j
	}
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

// SplitLines splits src after each newline; the last line may lack one.
func SplitLines(src string) []string {
	var out []string
	for len(src) > 0 {
		n := strings.IndexByte(src, '\n') + 1
		if n == 0 {
			n = len(src)
		}
		out = append(out, src[:n])
		src = src[n:]
	}
	return out
}

// maxCells bounds the line-matching table Compare builds (lines of a times
// lines of b, after the common head and tail are set aside); beyond it the
// differing middle is one change, which is still a correct, if coarser,
// diff.
const maxCells = 4 << 20

// Compare finds the changes that turn the lines a into the lines b, by a
// longest common subsequence of lines.
func Compare(a, b []string) []Change {
	// The common head and tail need no table.
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	ta, tb := len(a), len(b)
	for ta > head && tb > head && a[ta-1] == b[tb-1] {
		ta--
		tb--
	}
	ma, mb := a[head:ta], b[head:tb]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	if len(ma)*len(mb) > maxCells {
		return []Change{{From: head, To: ta, New: mb}}
	}
	// lcs[i][j]: length of the LCS of ma[i:] and mb[j:].
	w := len(mb) + 1
	lcs := make([]int32, (len(ma)+1)*w)
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var out []Change
	var cur *Change // the change being extended, until a common line ends it
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		if i < len(ma) && j < len(mb) && ma[i] == mb[j] {
			cur = nil
			i++
			j++
			continue
		}
		if cur == nil {
			out = append(out, Change{From: head + i, To: head + i})
			cur = &out[len(out)-1]
		}
		if i < len(ma) && (j == len(mb) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]) {
			cur.To++
			i++
		} else {
			cur.New = append(cur.New, mb[j])
			j++
		}
	}
	return out
}
