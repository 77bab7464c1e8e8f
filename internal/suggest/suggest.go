// Package suggest offers the names a mistyped one was probably meant to
// be ("did you mean"), for flags, subcommands and configuration keys.
package suggest

import (
	"fmt"
	"sort"
	"strings"
)

// suggestDistance is the largest edit distance still offered as "did you
// mean" (cobra's own default for commands): --formt and --fromat are one or
// two edits from --format, --quiet is far from --exit-zero.
const suggestDistance = 2

// Closest returns the candidates within suggestDistance edits of typed, or
// that typed is a prefix of (at least two letters), nearest first then
// alphabetical.
func Closest(typed string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	var hits []scored
	low := strings.ToLower(typed)
	for _, c := range candidates {
		d := EditDistance(low, strings.ToLower(c))
		if d <= suggestDistance || (len(low) >= 2 && strings.HasPrefix(strings.ToLower(c), low)) {
			hits = append(hits, scored{c, d})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].name < hits[j].name
	})
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.name
	}
	return out
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// DidYouMean is ` (did you mean "a" or "b"?)` for the suggestions, or "".
func DidYouMean(sugg []string) string {
	if len(sugg) == 0 {
		return ""
	}
	q := make([]string, len(sugg))
	for i, s := range sugg {
		q[i] = fmt.Sprintf("%q", s)
	}
	return " (did you mean " + strings.Join(q, " or ") + "?)"
}
