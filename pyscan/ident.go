package pyscan

import (
	"strings"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/lazy"
)

// Python normalizes every identifier to NFKC while parsing, so
// `ｉｎｆｅｒ(...)` (fullwidth letters) or `𝐢𝐧𝐟𝐞𝐫(...)` (mathematical bold)
// calls `infer`. The model gives names in that normal form (Expr.Text keeps
// the spelling), or the discipline scan could be bypassed with lookalikes.
//
// pyscan has no Unicode tables (no golang.org/x/text), so nfkcIdent folds
// the compatibility characters that NFKC maps to ASCII and that are legal in
// identifiers: fullwidth ASCII, mathematical alphanumerics (Latin letters
// and digits), letterlike symbols, Latin ligatures, long s, Roman numerals
// and the common superscript/subscript letters. Other non-ASCII characters
// are kept as written (for those NFKC is usually the identity in practice).

// ident returns the identifier at node i in Python's normal form.
func (b *builder) ident(i int) string {
	if b.ascii {
		return b.text(i) // nfkcIdent would check every byte to return it unchanged
	}
	return nfkcIdent(b.text(i))
}

// nfkcIdent folds s as described above; ASCII input is returned unchanged
// without allocating.
func nfkcIdent(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		if f, ok := foldRune(r); ok {
			sb.WriteString(f)
		} else {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func foldRune(r rune) (string, bool) {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E: // fullwidth ASCII
		return string(r - 0xFEE0), true
	case r >= 0x1D400 && r <= 0x1D6A3: // mathematical Latin letters, 13 styles of A-Z a-z
		k := (r - 0x1D400) % 52
		if k < 26 {
			return string('A' + k), true
		}
		return string('a' + k - 26), true
	case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits, 5 styles
		return string('0' + (r-0x1D7CE)%10), true
	case r >= 0x2160 && r <= 0x217F: // Roman numerals
		return romanNumerals[r-0x2160], true
	}
	f, ok := foldTable.Get()[r]
	return f, ok
}

var romanNumerals = [32]string{
	"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "L", "C", "D", "M",
	"i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "l", "c", "d", "m",
}

// foldTable holds the single characters NFKC maps to ASCII letters.
// It is built on first use, not at every process start (issue 15).
var foldTable = lazy.New(buildFoldTable)

// buildFoldTable builds foldTable on first use.
func buildFoldTable() map[rune]string {
	return map[rune]string{
		// letterlike symbols
		0x2102: "C", 0x210A: "g", 0x210B: "H", 0x210C: "H", 0x210D: "H", 0x210E: "h",
		0x2110: "I", 0x2111: "I", 0x2112: "L", 0x2113: "l", 0x2115: "N", 0x2119: "P",
		0x211A: "Q", 0x211B: "R", 0x211C: "R", 0x211D: "R", 0x2124: "Z", 0x2128: "Z",
		0x212A: "K", 0x212C: "B", 0x212D: "C", 0x212F: "e", 0x2130: "E", 0x2131: "F",
		0x2133: "M", 0x2134: "o", 0x2139: "i", 0x2145: "D", 0x2146: "d", 0x2147: "e",
		0x2148: "i", 0x2149: "j",
		// ligatures and long s
		0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st",
		0xFB06: "st", 0x017F: "s",
		// ordinal indicators, modifier and subscript letters
		0x00AA: "a", 0x00BA: "o", 0x2071: "i", 0x207F: "n", 0x02B0: "h", 0x02B2: "j",
		0x02B3: "r", 0x02B7: "w", 0x02B8: "y", 0x02E1: "l", 0x02E2: "s", 0x02E3: "x",
		0x1D43: "a", 0x1D47: "b", 0x1D48: "d", 0x1D49: "e", 0x1D4D: "g", 0x1D4F: "k",
		0x1D50: "m", 0x1D52: "o", 0x1D56: "p", 0x1D57: "t", 0x1D58: "u", 0x1D5B: "v",
		0x1D62: "i", 0x1D63: "r", 0x1D64: "u", 0x1D65: "v", 0x2090: "a", 0x2091: "e",
		0x2092: "o", 0x2093: "x", 0x2095: "h", 0x2096: "k", 0x2097: "l", 0x2098: "m",
		0x2099: "n", 0x209A: "p", 0x209B: "s", 0x209C: "t", 0x1D2C: "A", 0x1D2E: "B",
		0x1D30: "D", 0x1D31: "E", 0x1D33: "G", 0x1D34: "H", 0x1D35: "I", 0x1D36: "J",
		0x1D37: "K", 0x1D38: "L", 0x1D39: "M", 0x1D3A: "N", 0x1D3C: "O", 0x1D3E: "P",
		0x1D3F: "R", 0x1D40: "T", 0x1D41: "U", 0x1D42: "W",
	}
}
