// Package sentinel holds the pure string predicates of the Gaia discipline
// scan: the before-anchor part, the trailing-anchor rule, the
// reader_reasoning sentinel, the domains clause, the resolution class and
// the evidence_family / correlation_model parser (gaia-discipline.md §1.3).
//
// Whitespace and word characters follow Python's Unicode `str` semantics,
// as the reference's `re` patterns do (§5.4), not RE2's ASCII classes.
// Each predicate also explains a failure in words (W15), so messages can
// name the exact token that is wrong.
package sentinel

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// AnchorKey is the sentinel that introduces an anchor reference.
const AnchorKey = "anchor:"

// IsSpace reports whether r is whitespace for Python's str.isspace and the
// `\s` class of str patterns: Unicode White_Space plus the ASCII
// information separators U+001C..U+001F, which Go's unicode.IsSpace omits.
func IsSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace.has(byte(r))
	}
	return unicode.IsSpace(r)
}

// IsWord reports whether r is a word character for Python's Unicode `\w`:
// letters, numbers and the underscore.
func IsWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// Strip removes leading and trailing Python whitespace (str.strip()).
func Strip(s string) string {
	for len(s) > 0 && asciiSpace.has(s[0]) {
		s = s[1:]
	}
	if len(s) > 0 && s[0] >= utf8.RuneSelf {
		s = strings.TrimLeftFunc(s, IsSpace)
	}
	return RStrip(s)
}

// RStrip removes trailing Python whitespace (str.rstrip()). Notes end in
// ASCII, so it trims ASCII bytes without decoding runes backwards
// (strings.TrimRightFunc decodes the last rune of every step) and hands
// the rest to TrimRightFunc only at a non-ASCII byte.
func RStrip(s string) string {
	for len(s) > 0 {
		switch c := s[len(s)-1]; {
		case c >= utf8.RuneSelf:
			return strings.TrimRightFunc(s, IsSpace)
		case !asciiSpace.has(c):
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// wordBoundaryBefore reports whether a `\b` holds just before s[i] when
// s[i] is a word character: start of text or a non-word character before.
func wordBoundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !IsWord(r)
}

// wordBoundaryAfter reports whether a `\b` holds at s[i] after a word
// character: end of text or a non-word character.
func wordBoundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !IsWord(r)
}

// BeforeAnchor returns the text before the first occurrence of the exact,
// case-sensitive substring "anchor:" (no word boundary: "reanchor:" splits
// too), or the whole string when there is none.
func BeforeAnchor(s string) string {
	if i := index(s, AnchorKey); i >= 0 {
		return s[:i]
	}
	return s
}

// rareByte is the byte a sentinel key is searched by: its first
// underscore, else its first colon, both rare in prose, where the first
// byte of a key ('a' of "anchor:", 'e' of "evidence_family") occurs in
// most words and stops strings.Index's scan at each. -1 when the key has
// neither.
func rareByte(key string) int {
	if u := strings.IndexByte(key, '_'); u >= 0 {
		return u
	}
	return strings.IndexByte(key, ':')
}

// index is strings.Index(s, key) for a sentinel key: a vectorised scan for
// the key's rare byte, comparing the key around each one found (every
// occurrence of key has its rare byte at the same offset, so the first
// match is the first occurrence). On a note of a few hundred bytes it is
// an order of magnitude faster.
func index(s, key string) int {
	u := rareByte(key)
	if u < 0 {
		return strings.Index(s, key)
	}
	for off := u; off < len(s); {
		i := strings.IndexByte(s[off:], key[u])
		if i < 0 {
			return -1
		}
		i += off
		p := i - u
		if p+len(key) > len(s) {
			return -1 // every later occurrence would end later still
		}
		if s[p:p+len(key)] == key {
			return p
		}
		off = i + 1
	}
	return -1
}

// lastIndex is strings.LastIndex(s, key) for a sentinel key, scanning
// back for its rare byte as index scans forward.
func lastIndex(s, key string) int {
	u := rareByte(key)
	if u < 0 {
		return strings.LastIndex(s, key)
	}
	for end := len(s) - (len(key) - u) + 1; end > u; {
		i := strings.LastIndexByte(s[:end], key[u])
		if i < u {
			return -1
		}
		if p := i - u; s[p:p+len(key)] == key {
			return p
		}
		end = i
	}
	return -1
}

// Words splits s on Python whitespace, like str.split() with no argument.
func Words(s string) []string { return strings.FieldsFunc(s, IsSpace) }

// Quote renders a fragment of a note for a message: Python's repr of its
// first 40 characters (pyfmt.Excerpt), so one message stays one line.
func Quote(s string) string { return pyfmt.Excerpt(s, 40) }

// findFold returns the byte index of the first case-insensitive occurrence
// of the ASCII word key in s, or -1.
func findFold(s, key string) int {
	ls := strings.ToLower(s)
	if len(ls) != len(s) {
		// Lowercasing changed byte lengths (rare non-ASCII); fall back to an
		// ASCII-only scan so indexes stay valid.
		for i := 0; i+len(key) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(key)], key) {
				return i
			}
		}
		return -1
	}
	return strings.Index(ls, key)
}

// WordCount counts the words of s for the reasoning-length flag: fields
// split on Python whitespace, except that every Han, Kana or Hangul
// character counts as a word, since those scripts do not separate words
// with spaces. It runs on every infer's reasoning, so it counts in one
// pass without splitting, and looks a rune up in the script tables only
// when it could be in one of them (all lie at or above U+1100).
func WordCount(s string) int { return WordCountUpTo(s, len(s)+1) }

// WordCountUpTo is WordCount, except that it stops counting at limit: a
// rule that only asks "fewer than five words?" need not read a long
// reasoning to its end.
func WordCountUpTo(s string, limit int) int {
	n, cjk, inWord := 0, 0, false
	for i := 0; i < len(s) && n < limit; {
		var space bool
		r, size := rune(s[i]), 1
		if r < utf8.RuneSelf {
			space = asciiSpace.has(byte(r))
		} else {
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		i += size
		if space {
			if inWord {
				n += max(cjk, 1)
				cjk, inWord = 0, false
			}
			continue
		}
		inWord = true
		if r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			cjk++
		}
	}
	if inWord {
		n += max(cjk, 1)
	}
	return n
}
