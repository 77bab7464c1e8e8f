package sentinel

import "strings"

// ReaderKey is the sentinel that opens an infer's authored explanation.
const ReaderKey = "reader_reasoning:"

// ReaderReasoning returns the explanation that follows the
// reader_reasoning sentinel of an infer rationale (GAIA033): the stripped
// before-anchor part must begin with "reader_reasoning:" followed by
// optional whitespace and at least one non-whitespace character.
func ReaderReasoning(rationale string) (text string, ok bool) {
	head := Strip(BeforeAnchor(rationale))
	rest, found := strings.CutPrefix(head, ReaderKey)
	if !found {
		return "", false
	}
	rest = Strip(rest)
	return rest, rest != ""
}

// ReaderProblem explains a failed reader_reasoning check (W15); "" on pass.
func ReaderProblem(rationale string) string {
	if _, ok := ReaderReasoning(rationale); ok {
		return ""
	}
	head := Strip(BeforeAnchor(rationale))
	switch {
	case head == "":
		return "nothing precedes the anchor"
	case strings.HasPrefix(head, ReaderKey):
		return "nothing follows 'reader_reasoning:'"
	}
	if i := strings.Index(head, ReaderKey); i > 0 {
		return "the sentinel must come first, but the rationale opens with " + Quote(Strip(head[:i]))
	}
	if i := findFold(head, ReaderKey); i >= 0 {
		return "found " + Quote(head[i:i+len(ReaderKey)]) + " (capitalised); the sentinel is 'reader_reasoning:'"
	}
	if i := findFold(head, "reader_reasoning"); i >= 0 {
		return "found " + Quote(head[i:min(len(head), i+len(ReaderKey)+2)]) + "; the sentinel is 'reader_reasoning:' with the colon right after it"
	}
	return "no 'reader_reasoning:' sentinel before the anchor"
}
