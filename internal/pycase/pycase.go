// Package pycase is Python's str.lower() and str.casefold(): the one case
// mapping of nullius wherever a value must compare or hash as the Python
// tools compute it.
//
// Go's strings.ToLower and unicode.ToLower are simple (one rune to one
// rune) mappings: they keep U+0130 one rune where Python writes "i̇", keep
// ß where casefold() writes "ss", and know no final sigma. golang.org/x/text/
// cases has the full mappings but costs every process its package inits
// (cases, language and their tables; issue 15). This package takes the
// simple mappings from Go's unicode tables and the rest from two small
// tables generated from CPython 3.11 (tables.go, by scripts/pycase_golden.py);
// its tests compare every code point with CPython's results.
//
// Invalid UTF-8 is copied unchanged. Both functions return s itself, without
// allocating, when nothing changes.
package pycase

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// mapping is one code point's multi-rune (or non-lowercase) result.
type mapping struct {
	r rune
	s string
}

// Lower is Python's s.lower(): full lowercase mapping (UnicodeData plus the
// unconditional mappings of SpecialCasing.txt) and, for U+03A3, CPython's
// final-sigma rule (ς when a cased letter precedes it and none follows,
// case-ignorable characters skipped both ways).
func Lower(s string) string { return convert(s, false) }

// Casefold is Python's s.casefold(): full case folding (CaseFolding.txt
// statuses C and F). Like CPython's, it has no final-sigma rule: Σ, σ and ς
// all fold to σ.
func Casefold(s string) string { return convert(s, true) }

func convert(s string, fold bool) string {
	// Find the first code point that changes; none means s is the answer.
	i := 0
	var r0 rune
	var m0 string
	n0 := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 { // invalid UTF-8: copied as is
			i++
			continue
		}
		if r0, m0 = mapRune(s, i, r, n, fold); m0 != "" || r0 != r {
			n0 = n
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	if n0 > 0 { // the first change was found above on a non-ASCII rune
		write(&b, r0, m0)
		i += n0
	}
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if n == 1 {
			b.WriteByte(c)
			i++
			continue
		}
		rr, m := mapRune(s, i, r, n, fold)
		write(&b, rr, m)
		i += n
	}
	return b.String()
}

func write(b *strings.Builder, r rune, m string) {
	if m != "" {
		b.WriteString(m)
	} else {
		b.WriteRune(r)
	}
}

// mapRune maps r, the n-byte code point at s[i:]: either a rune, or a
// string when the result is not one rune (then the string is non-empty).
func mapRune(s string, i int, r rune, n int, fold bool) (rune, string) {
	if fold {
		if m, ok := lookup(foldSpecial[:], r); ok {
			return 0, m
		}
	} else if r == 'Σ' {
		if finalSigma(s, i, n) {
			return 'ς', ""
		}
		return 'σ', ""
	}
	if m, ok := lookup(lowerSpecial[:], r); ok {
		return 0, m
	}
	return unicode.ToLower(r), ""
}

// lookup finds r in a table sorted by rune.
func lookup(t []mapping, r rune) (string, bool) {
	lo, hi := 0, len(t)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		switch {
		case t[h].r < r:
			lo = h + 1
		case t[h].r > r:
			hi = h
		default:
			return t[h].s, true
		}
	}
	return "", false
}

// finalSigma is CPython's handle_capital_sigma for the Σ (n bytes) at s[i:]:
// \p{cased} \p{case-ignorable}* Σ !(\p{case-ignorable}* \p{cased}). An
// invalid byte decodes as U+FFFD, which is neither cased nor ignorable.
func finalSigma(s string, i, n int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if !caseIgnorable(r) {
			before = cased(r)
			break
		}
	}
	if !before {
		return false
	}
	for j := i + n; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

// cased is the Unicode property Cased: Lu, Ll, Lt, Other_Lowercase,
// Other_Uppercase.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is the Unicode property Case_Ignorable: Mn, Me, Cf, Lm, Sk,
// and Word_Break MidLetter, MidNumLet or Single_Quote (listed here: Go's
// unicode package has no Word_Break).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
