package sentinel

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
)

// StockSentences are the seven placeholder sentences of gaia-discipline.md
// §2.4: the six the scaffold writes plus the reference's legacy
// verification_cost wording. They are data, kept verbatim; the source rule
// GAIA510 and the compiled-IR rule GAIA122 both match against this list.
var StockSentences = []string{
	"The idea merits sustained verification effort.",
	"The idea resolves an anchored open tension.",
	"The idea's results feed an anchored chain of downstream problems.",
	"The idea supplies a new, testable mechanistic understanding.",
	"The idea is testable within an open verification window.",
	"A bounded next check or executed first check is recorded.",
	"A bounded, decisive first check of the idea exists.",
}

// NormalizeSentence makes trivially edited stock sentences compare equal
// (W10): typographic apostrophes become ', Python whitespace collapses to
// one space, final punctuation goes, and the text is case-folded.
func NormalizeSentence(s string) string {
	s = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(s)
	s = strings.Join(strings.FieldsFunc(s, IsSpace), " ")
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || IsSpace(r) })
	return cases.Fold().String(s)
}

// StockSentence returns the stock sentence content matches after
// NormalizeSentence, if any.
func StockSentence(content string) (string, bool) {
	n := NormalizeSentence(content)
	for _, s := range StockSentences {
		if NormalizeSentence(s) == n {
			return s, true
		}
	}
	return "", false
}
