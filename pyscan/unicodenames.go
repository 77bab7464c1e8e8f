package pyscan

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/runenames"

	"github.com/nullius-dev/nullius/internal/lazy"
)

// lookupUnicodeName resolves the name of a \N{...} escape as CPython's
// unicode-escape decoder does (unicodedata's _getcode, named sequences
// excluded):
//
//   - "HANGUL SYLLABLE " followed by the short names of a leading
//     consonant, a vowel and an optional trailing consonant, each the
//     longest that matches (the prefix and the jamo are case-sensitive);
//   - "CJK UNIFIED IDEOGRAPH-" followed by four or five upper-case hex
//     digits naming a unified ideograph of the computed ranges;
//   - otherwise any character name of the Unicode database
//     (golang.org/x/text/unicode/runenames) or name alias (NameAliases.txt),
//     compared case-insensitively (ASCII upper-casing), exactly: no
//     surrounding or doubled spaces.
//
// The name table is built on the first \N{...} escape a run meets, so a
// run without one pays nothing for it.
func lookupUnicodeName(name string) (rune, bool) {
	if rest, ok := strings.CutPrefix(name, "HANGUL SYLLABLE "); ok {
		return hangulSyllable(rest)
	}
	if rest, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok {
		return cjkIdeograph(rest)
	}
	up, ok := asciiUpper(name)
	if !ok {
		return 0, false
	}
	if i, ok := slices.BinarySearchFunc(nameAliases[:], up, func(a struct {
		name string
		r    rune
	}, n string) int {
		return strings.Compare(a.name, n)
	}); ok {
		return nameAliases[i].r, true
	}
	r, ok := charNames.Get()[up]
	return r, ok
}

// asciiUpper upper-cases the ASCII letters of s; names are ASCII, so any
// other byte means no name matches.
func asciiUpper(s string) (string, bool) {
	lower := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return "", false
		case 'a' <= c && c <= 'z':
			lower = true
		}
	}
	if !lower {
		return s, true
	}
	return strings.ToUpper(s), true
}

// charNames maps every character name of the Unicode database x/text
// carries to its code point, built once, on first use: ~35,000 names from
// the planes that hold named characters (0-3 and 14). The computed ranges
// (CJK ideographs, Hangul syllables, Tangut) appear in runenames as
// "<...>" placeholders and are left to lookupUnicodeName's rules.
var charNames = lazy.New(buildCharNames)

// buildCharNames builds charNames on first use.
func buildCharNames() map[string]rune {
	m := make(map[string]rune, 40000)
	add := func(lo, hi rune) {
		for r := lo; r <= hi; r++ {
			if n := runenames.Name(r); n != "" && n[0] != '<' {
				m[n] = r
			}
		}
	}
	add(0, 0x3FFFF)
	add(0xE0000, 0xE0FFF)
	return m
}

// cjkIdeograph decodes the hex digits of "CJK UNIFIED IDEOGRAPH-XXXX":
// exactly four or five of 0-9 A-F, naming a code point runenames lists in
// a "<CJK Ideograph...>" range.
func cjkIdeograph(hex string) (rune, bool) {
	if len(hex) != 4 && len(hex) != 5 {
		return 0, false
	}
	var v rune
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		switch {
		case '0' <= c && c <= '9':
			v = v*16 + rune(c-'0')
		case 'A' <= c && c <= 'F':
			v = v*16 + rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, strings.HasPrefix(runenames.Name(v), "<CJK Ideograph")
}

// The short names of the Hangul jamo (Unicode §3.12), by index.
var (
	jamoL = []string{"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"}
	jamoV = []string{"A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"}
	jamoT = []string{"", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C", "K", "T", "P", "H"}
)

// hangulSyllable decodes the jamo of "HANGUL SYLLABLE <L><V><T>" the way
// CPython's find_syllable does: for each part in turn the longest short
// name that matches (the empty name when none does), and the whole must
// be consumed.
func hangulSyllable(s string) (rune, bool) {
	l, n := longestJamo(s, jamoL)
	s = s[n:]
	v, n := longestJamo(s, jamoV)
	s = s[n:]
	t, n := longestJamo(s, jamoT)
	if l < 0 || v < 0 || t < 0 || n != len(s) {
		return 0, false
	}
	return rune(0xAC00 + (l*len(jamoV)+v)*len(jamoT) + t), true
}

// longestJamo returns the index and length of the longest name in names
// that s starts with; -1 when none does (an empty name always matches).
func longestJamo(s string, names []string) (int, int) {
	best, blen := -1, -1
	for i, n := range names {
		if len(n) > blen && strings.HasPrefix(s, n) {
			best, blen = i, len(n)
		}
	}
	return best, max(blen, 0)
}
