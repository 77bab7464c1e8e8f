// Package plural writes counts with their nouns ("1 problem", "2 problems",
// "1 usable family", "3 usable families"), the one place every message
// that prints a count gets its grammar from (issue 16: "1 problems", "the
// roster fields 1 usable families").
package plural

import "strconv"

// N is n followed by its noun: one for n == 1, else many[0] when given,
// else one + "s". N(1, "file") is "1 file", N(2, "file") "2 files",
// N(2, "family", "families") "2 families".
func N(n int, one string, many ...string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many...)
}

// Noun is the noun alone, in the number n calls for.
func Noun(n int, one string, many ...string) string {
	switch {
	case n == 1:
		return one
	case len(many) > 0:
		return many[0]
	}
	return one + "s"
}
