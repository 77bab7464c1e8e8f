// Package pyfmt formats values byte for byte as Python prints them, where
// nullius must stay compatible with the reference tools: repr(float) and
// json.dumps of floats and strings (ensure_ascii on or off).
package pyfmt

import (
	"math"
	"strconv"
	"strings"
)

// Repr formats f as Python's repr(float): the shortest digits that round
// trip, positional for decimal exponents in [-4, 16), scientific otherwise
// (with at least two exponent digits: 1e-05, 1e+16), a ".0" on integral
// positional values, "-0.0", and nan/inf/-inf.
func Repr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		// Go's shortest 'e' form has Python's shape: 1e-05, 1.5e+16.
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// JSONFloat formats f as Python's json.dumps does (allow_nan=True): Repr,
// except NaN, Infinity and -Infinity.
func JSONFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return Repr(f)
}

// JSONString quotes s as Python's json.dumps does. Both modes use the
// short escapes for " \ \n \r \t \b \f and \u00XX for other C0 controls,
// and leave < > & alone (unlike encoding/json). With ensureASCII, DEL and
// every non-ASCII rune become \uXXXX (surrogate pairs above the BMP);
// without it they are written as raw UTF-8.
func JSONString(s string, ensureASCII bool) string {
	const hexdig = "0123456789abcdef"
	var b strings.Builder
	b.WriteByte('"')
	u4 := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hexdig[(r>>shift)&15])
		}
	}
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			u4(r)
		case !ensureASCII || r < 0x7f:
			b.WriteRune(r)
		case r <= 0xffff:
			u4(r)
		default:
			hi, lo := surrogates(r)
			u4(hi)
			u4(lo)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}
