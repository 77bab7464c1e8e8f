package report

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
)

// posteriorLineRE is the reference's display line: an optional bullet and
// bold, the label, a colon, an optional backtick, a number. Unlike the
// reference (W-16) the colon may also sit inside the bold
// (`**Posterior value:** 0.84993`), a common way to write it. Go has no
// backreferences, so the closing backtick is matched separately.
var posteriorLineRE = lazyre.New("(?im)^([ \\t]*(?:[-*][ \\t]+)?(?:\\*\\*)?posterior value(?:\\*\\*:|:\\*\\*|:)[ \\t]*)(`?)([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)(`?)(.*)$")

// DisplayEdit is one rewritten posterior display.
type DisplayEdit struct {
	Line     int
	Col      int // byte column of the number
	Old, New string
}

// RangeError is an out-of-range display value.
type RangeError struct {
	Line, Col int
	Value     string
}

// Error says which line holds the out-of-range value.
func (e *RangeError) Error() string {
	return fmt.Sprintf("line %d: posterior value %s must be in [0, 1]", e.Line, e.Value)
}

// NormalizePosteriors rounds every `Posterior value:` display half-up to
// exactly three decimals (§4.1). It returns the new text and the edits; an
// out-of-range value is a *RangeError and no text.
func NormalizePosteriors(text string) (string, []DisplayEdit, error) {
	var edits []DisplayEdit
	var rerr error
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		m := posteriorLineRE.FindStringSubmatchIndex(body)
		if m == nil {
			continue
		}
		open, num, close := body[m[4]:m[5]], body[m[6]:m[7]], body[m[8]:m[9]]
		if open == "`" && close != "`" {
			continue
		}
		r, ok := new(big.Rat).SetString(num)
		if !ok {
			continue
		}
		if r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
			if rerr == nil {
				rerr = &RangeError{Line: i + 1, Col: m[6] + 1, Value: num}
			}
			continue
		}
		rounded := roundHalfUp3(r, strings.HasPrefix(num, "-"))
		if rounded == num {
			continue
		}
		edits = append(edits, DisplayEdit{Line: i + 1, Col: m[6] + 1, Old: num, New: rounded})
		lines[i] = body[:m[6]] + rounded + body[m[7]:] + l[len(body):]
	}
	if rerr != nil {
		return "", nil, rerr
	}
	return strings.Join(lines, ""), edits, nil
}

// roundHalfUp3 formats a non-negative rational with exactly three decimals,
// rounding half up; negZero keeps Python Decimal's "-0.000".
func roundHalfUp3(r *big.Rat, negZero bool) string {
	scaled := new(big.Rat).Mul(r, big.NewRat(1000, 1))
	scaled.Add(scaled, big.NewRat(1, 2))
	q := new(big.Int).Quo(scaled.Num(), scaled.Denom())
	s := fmt.Sprintf("%d.%03d", new(big.Int).Quo(q, big.NewInt(1000)), new(big.Int).Rem(q, big.NewInt(1000)))
	if negZero && r.Sign() == 0 {
		return "-" + s
	}
	return s
}
