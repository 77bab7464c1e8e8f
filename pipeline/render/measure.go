package render

import (
	"strings"
	"unicode"
)

// Card metrics in CSS pixels; page.css uses the same numbers.
const (
	cardPadX       = 12.0
	cardHeaderH    = 30.0 // label line plus its margin
	cardFooterH    = 34.0 // posterior row
	cardPadY       = 10.0
	cardBorderX    = 6.0 // 5px accent on the left, 1px on the right
	cardBorderY    = 2.0
	cardSlack      = 4.0 // so a line that fits exactly never triggers a scrollbar
	statementFont  = 13.0
	statementLine  = 18.0
	maxStatementPx = 18 * statementLine // taller statements scroll inside the card
)

// cardHeight estimates the height of a card so the layout can be computed
// before any browser sees it. The estimate errs on the generous side (the
// card then has a little air); the CSS lets a card scroll rather than
// overlap its neighbour if a font runs wider than assumed.
func cardHeight(n *Node) float64 {
	lines := wrapLines(n.Statement, cardW-2*cardPadX-cardBorderX)
	text := min(float64(max(lines, 1))*statementLine, maxStatementPx)
	return round1(cardPadY*2 + cardBorderY + cardHeaderH + text + cardFooterH + cardSlack)
}

// wrapLines simulates greedy word wrapping at the statement font. Widths are
// per-character estimates for a DejaVu/Helvetica-like sans, padded by 8%.
func wrapLines(s string, width float64) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return 1
	}
	lines := 0
	for _, para := range strings.Split(s, "\n") {
		lines++
		x := 0.0
		for _, word := range strings.Fields(para) {
			w := textWidth(word)
			sp := textWidth(" ")
			switch {
			case x == 0:
			case x+sp+w <= width:
				x += sp
			default:
				lines++
				x = 0
			}
			// A word longer than the line breaks anywhere (overflow-wrap).
			for w > width {
				lines++
				w -= width
			}
			x += w
		}
	}
	return lines
}

func textWidth(s string) float64 {
	em := 0.0
	for _, r := range s {
		em += runeEm(r)
	}
	return em * statementFont * 1.08
}

// runeEm is the advance of r in em.
func runeEm(r rune) float64 {
	switch {
	case strings.ContainsRune("iljI.,:;'|!()[]{} ft", r):
		return 0.36
	case r == 'm' || r == 'w' || r == 'M' || r == 'W' || r == '@':
		return 0.9
	case r >= 'A' && r <= 'Z':
		return 0.72
	case r < 0x80:
		return 0.6
	case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hangul, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || (r >= 0xFF00 && r <= 0xFFEF) || r >= 0x1F000:
		return 1.05
	}
	return 0.7
}
