package writeback

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// PyRepr formats a float64 exactly like Python's repr(float): the shortest
// round-trip digits, a trailing ".0" on integral values, Python's exponent
// thresholds (1e-05, 1e+16) and "-0.0".
func PyRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-4 || abs >= 1e16) {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		digits := strings.TrimLeft(exp[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + string(sign) + digits
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// pyJSONString encodes s like Python's json.dumps with ensure_ascii: no HTML
// escaping, \uXXXX (surrogate pairs) for every non-ASCII rune.
func pyJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
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
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// KeyBasis is the reference's idempotency basis: the JSON array
// [campaign_id, node_id, gaia_package_ref, repr(value), evidence_count]
// serialized with ASCII escaping and no spaces.
func KeyBasis(campaign, node, ref string, value float64, count int64) string {
	return "[" + pyJSONString(campaign) + "," + pyJSONString(node) + "," + pyJSONString(ref) + "," +
		pyJSONString(PyRepr(value)) + "," + strconv.FormatInt(count, 10) + "]"
}

// DeriveKey is the reference-compatible key: "idea-posterior-" and the
// first 32 hex digits of the basis' SHA-256.
func DeriveKey(campaign, node, ref string, value float64, count int64) string {
	sum := sha256.Sum256([]byte(KeyBasis(campaign, node, ref, value, count)))
	return "idea-posterior-" + hex.EncodeToString(sum[:])[:32]
}

// FreshKey salts a derived key for --new-write: "<derived>-fresh-<12 hex of
// a random UUID4>", keeping the derived key as an auditable prefix.
func FreshKey(derived string, rnd io.Reader) (string, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var u [16]byte
	if _, err := io.ReadFull(rnd, u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return derived + "-fresh-" + hex.EncodeToString(u[:])[:12], nil
}
