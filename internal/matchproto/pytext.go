package matchproto

import (
	"strings"
	"unicode/utf8"
)

// IsPySpace reports whether r is whitespace for Python's str.split() and
// str.strip(): exactly 29 code points (§1.1, §9). Go's unicode.IsSpace
// differs (it misses U+001C–U+001F), so the table is spelled out.
func IsPySpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r >= 0x1C && r <= 0x20:
		return true
	case r == 0x85, r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A,
		r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000:
		return true
	}
	return false
}

// PySpaceClass is IsPySpace as the body of a regular-expression character
// class (RE2's \s is ASCII only): [PySpaceClass] matches Python's Unicode
// \s, what str.isspace() accepts, and [^PySpaceClass] everything else.
const PySpaceClass = `\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`

// PyFields splits s like Python's str.split() with no argument.
func PyFields(s string) []string { return strings.FieldsFunc(s, IsPySpace) }

// PyStrip trims Python whitespace from both ends.
func PyStrip(s string) string { return strings.TrimFunc(s, IsPySpace) }

// PyRStrip trims Python whitespace from the end.
func PyRStrip(s string) string { return strings.TrimRightFunc(s, IsPySpace) }

// Collapse joins PyFields(s) with single ASCII spaces (trimming both ends).
func Collapse(s string) string { return strings.Join(PyFields(s), " ") }

// PySplitLines splits s like Python's str.splitlines(): the boundaries are
// LF, VT, FF, CR, CRLF, U+001C–U+001E, U+0085, U+2028 and U+2029, and a
// final boundary does not start an empty line.
func PySplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\v', '\f', 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029:
			out = append(out, s[start:i])
			i += size
			start = i
			continue
		case '\r':
			out = append(out, s[start:i])
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			start = i
			continue
		}
		i += size
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// UniversalNewlines maps CRLF and lone CR to LF, as Python's read_text does
// before the reference hashes or renders materials (§3.1, §9).
func UniversalNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
