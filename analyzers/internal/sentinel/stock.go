package sentinel

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/pycase"
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

// apostrophes maps typographic apostrophes to '. One replacer for every
// call: strings.Replacer builds its tables on first use and is safe for
// concurrent use.
var apostrophes = lazy.NewReplacer("\u2019", "'", "\u2018", "'")

// normalizedStock holds NormalizeSentence of every stock sentence, in the
// order of StockSentences, computed once on first use.
var normalizedStock = lazy.New(buildNormalizedStock)

// buildNormalizedStock builds normalizedStock on first use.
func buildNormalizedStock() []string {
	out := make([]string, len(StockSentences))
	for i, s := range StockSentences {
		out[i] = NormalizeSentence(s)
	}
	return out
}

// NormalizeSentence makes trivially edited stock sentences compare equal
// (W10): typographic apostrophes become ', Python whitespace collapses to
// one space, final punctuation goes, and the text is case-folded.
func NormalizeSentence(s string) string {
	if isASCII(s) {
		// Nearly every sentence is ASCII: same result without the
		// replacer, the field split or the case folder.
		return string(normalizeASCII(make([]byte, 0, len(s)), s, len(s)))
	}
	s = apostrophes.Replace(s)
	s = strings.Join(strings.FieldsFunc(s, IsSpace), " ")
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || IsSpace(r) })
	// Python's str.casefold (ß -> ss), not strings.ToLower.
	return pycase.Casefold(s)
}

// StockSentence returns the stock sentence content matches after
// NormalizeSentence, if any. For ASCII content it allocates nothing.
func StockSentence(content string) (string, bool) {
	if !mayBeStock(content) {
		return "", false
	}
	var n string
	if isASCII(content) {
		var buf [128]byte // longer than every normalized stock sentence
		b := normalizeASCII(buf[:0], content, len(buf))
		if b == nil {
			return "", false
		}
		for i, s := range normalizedStock.Get() {
			if string(b) == s {
				return StockSentences[i], true
			}
		}
		return "", false
	}
	n = NormalizeSentence(content)
	for i, s := range normalizedStock.Get() {
		if s == n {
			return StockSentences[i], true
		}
	}
	return "", false
}

// mayBeStock is a quick reject, made before the content is read to its
// end: every normalized stock sentence starts with "the idea" or "a
// bounded", so content whose first word (after whitespace) starts with
// another ASCII character cannot match. A non-ASCII byte first may be
// Unicode whitespace or a letter that folds to t or a: not rejected.
func mayBeStock(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !asciiSpace.has(c) {
			return c == 'T' || c == 't' || c == 'A' || c == 'a' || c >= utf8.RuneSelf
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiSpace and asciiPunct are IsSpace and unicode.IsPunct restricted to
// ASCII (TestASCIITables checks them against the Unicode tables): bit c&63
// of word c>>6 is set for each byte c of the set. Literals of constants the
// linker lays out, not sets built at every process start.
var (
	asciiSpace = byteSet{1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r' | 1<<' ' | 1<<0x1c | 1<<0x1d | 1<<0x1e | 1<<0x1f, 0}
	asciiPunct = byteSet{
		1<<'!' | 1<<'"' | 1<<'#' | 1<<'%' | 1<<'&' | 1<<'\'' | 1<<'(' | 1<<')' | 1<<'*' | 1<<',' | 1<<'-' | 1<<'.' | 1<<'/' | 1<<':' | 1<<';' | 1<<'?',
		1<<('@'-64) | 1<<('['-64) | 1<<('\\'-64) | 1<<(']'-64) | 1<<('_'-64) | 1<<('{'-64) | 1<<('}'-64),
	}
)

type byteSet [2]uint64

func (s *byteSet) has(c byte) bool { return c < 128 && s[c>>6]&(1<<(c&63)) != 0 }

// normalizeASCII writes NormalizeSentence(s) for an ASCII s into dst[:0]:
// words split on Python whitespace joined by one space, trailing
// punctuation and space trimmed, A-Z lowered (the full case folding of
// ASCII). It returns nil when the result would exceed limit bytes, so a
// caller with a fixed buffer never allocates.
func normalizeASCII(dst []byte, s string, limit int) []byte {
	dst = dst[:0]
	pendingSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace.has(c) {
			pendingSpace = len(dst) > 0
			continue
		}
		if need := len(dst) + 1 + b2i(pendingSpace); need > limit {
			return nil
		}
		if pendingSpace {
			dst = append(dst, ' ')
			pendingSpace = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	end := len(dst)
	for end > 0 && (asciiPunct.has(dst[end-1]) || dst[end-1] == ' ') {
		end--
	}
	return dst[:end]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
