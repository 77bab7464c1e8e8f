package pyscan

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzUnescapeRuns holds unescape, which copies the plain runs between
// backslashes and CRs at once, to the value spelled piece by piece: bodies
// are made of plain runs (letters, spaces, CRs, CRLFs, non-ASCII) and
// escapes of known value, in any order, and must decode to the pieces'
// values in that order (a CR or CRLF outside an escape reads as LF; a
// lone CR only inside a run, where no LF can follow it).
func FuzzUnescapeRuns(f *testing.F) {
	for seed := range uint64(16) {
		f.Add(seed, uint8(seed*5))
	}
	plain := []string{"a", "plain text ", "é", "\r\n", "\n", "x\ry", "\t", "long run of plain text without escapes "}
	escapes := [][2]string{
		{`\n`, "\n"}, {`\\`, `\`}, {`\'`, "'"}, {`\"`, `"`}, {`\x41`, "A"}, {`\101`, "A"}, {`\u00e9`, "é"},
		{`\N{BULLET}`, "•"}, {`\q`, `\q`}, {"\\\n", ""}, {"\\\r\n", ""}, {`\t`, "\t"}, {`\U0001F600`, "😀"},
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint8) {
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		var body, want strings.Builder
		for range int(n % 40) {
			if rng.IntN(2) == 0 {
				p := plain[rng.IntN(len(plain))]
				body.WriteString(p)
				want.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "\r\n", "\n"), "\r", "\n"))
			} else {
				e := escapes[rng.IntN(len(escapes))]
				body.WriteString(e[0])
				want.WriteString(e[1])
			}
		}
		if rng.IntN(4) == 0 { // a backslash ending the body stays
			body.WriteString(`\`)
			want.WriteString(`\`)
		}
		// cr as the builder sets it (whether the module has a CR), and
		// true, which always searches.
		for _, cr := range []bool{strings.Contains(body.String(), "\r"), true} {
			got, msg := unescape(body.String(), false, cr)
			if got != want.String() || msg != "" {
				t.Errorf("unescape(%q, cr %v) = %q, %q; want %q", body.String(), cr, got, msg, want.String())
			}
		}
	})
}
