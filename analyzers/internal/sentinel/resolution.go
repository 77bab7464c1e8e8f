package sentinel

import "strings"

// ResolutionKey introduces the class of resolution evidence of a raising
// tension_resolution update (GAIA014).
const ResolutionKey = "resolution_evidence:"

// resolutionClasses returns the accepted classes, in the reference's order.
func resolutionClasses() [3]string {
	return [...]string{"mechanism", "discriminating_test", "demonstrated_partial_resolution"}
}

// ResolutionClass returns the resolution class declared in the
// before-anchor part of a rationale, as the reference's
// `resolution_evidence:\s*(mechanism|discriminating_test|demonstrated_partial_resolution)\b`
// search does: case-sensitive, colon right after the keyword, a word
// boundary after the class ("mechanism." passes, "mechanisms" fails).
func ResolutionClass(rationale string) (string, bool) {
	s := BeforeAnchor(rationale)
	for off := 0; ; {
		i := index(s[off:], ResolutionKey)
		if i < 0 {
			return "", false
		}
		j := skipSpace(s, off+i+len(ResolutionKey))
		for _, c := range resolutionClasses() {
			if strings.HasPrefix(s[j:], c) && wordBoundaryAfter(s, j+len(c)) {
				return c, true
			}
		}
		off += i + len(ResolutionKey)
	}
}

// ResolutionProblem explains a missing resolution class (W15); "" on pass.
func ResolutionProblem(rationale string) string {
	if _, ok := ResolutionClass(rationale); ok {
		return ""
	}
	s := BeforeAnchor(rationale)
	if i := strings.Index(s, ResolutionKey); i >= 0 {
		j := skipSpace(s, i+len(ResolutionKey))
		k := j
		for k < len(s) && (IsWord(rune(s[k])) || s[k] == '-') {
			k++
		}
		return "found " + Quote(s[i:k]) + "; the class must be one of mechanism, discriminating_test, demonstrated_partial_resolution"
	}
	if i := findFold(s, "resolution_evidence"); i >= 0 {
		end := min(len(s), i+len(ResolutionKey)+2)
		return "found " + Quote(s[i:end]) + "; the sentinel is 'resolution_evidence:' in lower case with the colon right after it"
	}
	if strings.Contains(rationale, ResolutionKey) {
		return "the class sits after 'anchor:', where it does not count"
	}
	return "no 'resolution_evidence:' clause before the anchor"
}
