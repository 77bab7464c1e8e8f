package extract

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Posterior is the extraction result. The first three fields are the
// reference's output contract (§3.4); ConnectedEvidenceCount is nullius's
// addition (W9): the observations that can move worth.
type Posterior struct {
	Value                  float64
	EvidenceCount          int
	ConnectedEvidenceCount int
	GaiaPackageRef         string
}

// JSON renders p as Python's json.dumps(obj, indent=2, sort_keys=True)
// would, byte for byte and without a final newline: keys sorted, two-space
// indent, ASCII-only strings, value as a Python float repr (1 -> 1.0).
func (p Posterior) JSON() []byte {
	var b strings.Builder
	b.WriteString("{\n")
	b.WriteString(`  "connected_evidence_count": ` + strconv.Itoa(p.ConnectedEvidenceCount) + ",\n")
	b.WriteString(`  "evidence_count": ` + strconv.Itoa(p.EvidenceCount) + ",\n")
	b.WriteString(`  "gaia_package_ref": ` + PyString(p.GaiaPackageRef) + ",\n")
	b.WriteString(`  "value": ` + PyFloat(p.Value) + "\n")
	b.WriteString("}")
	return []byte(b.String())
}

// PyFloat formats f as Python's repr(float): the shortest digits that round
// trip, positional for exponents in [-4, 16), scientific otherwise, and a
// ".0" on integral positional values.
func PyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // e.g. "8.499370175790979e-01"
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -4 || exp >= 16 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return mant + "e" + sign + leftPad2(exp)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func leftPad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// PyString quotes s as Python's json.dumps with ensure_ascii=True: the
// short escapes for " \ \n \r \t \b \f, \u00XX for other control
// characters, \uXXXX (surrogate pairs above the BMP) for non-ASCII. Unlike
// encoding/json it leaves < > & alone.
func PyString(s string) string {
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
		case r < 0x20 || r >= 0x7f && r <= 0xffff:
			u4(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			u4(r1)
			u4(r2)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
