package sentinel

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// AnchorRef reports whether note ends with an anchor (GAIA032) and returns
// the reference. The rule, as the reference's `anchor:\s*\S[^\n]*$` search
// on the right-stripped note: some occurrence of "anchor:" is followed by
// optional whitespace (newlines allowed), a non-whitespace character, and no
// newline up to the end. Trailing prose on the anchor's own line is part of
// the reference; a CR alone does not end a line.
func AnchorRef(note string) (ref string, ok bool) {
	s := RStrip(note)
	for i := lastIndex(s, AnchorKey); i >= 0; i = lastIndex(s[:i], AnchorKey) {
		j := skipSpace(s, i+len(AnchorKey))
		if j < len(s) && !strings.Contains(s[j:], "\n") {
			return s[j:], true
		}
	}
	return "", false
}

// AnchorTrailing reports whether note satisfies the trailing-anchor rule.
func AnchorTrailing(note string) bool {
	_, ok := AnchorRef(note)
	return ok
}

// AnchorProblem explains why note fails the trailing-anchor rule, naming the
// token at fault (W15). It returns "" when the note passes.
func AnchorProblem(note string) string {
	if AnchorTrailing(note) {
		return ""
	}
	s := RStrip(note)
	switch {
	case s == "":
		return "the note is empty"
	case !strings.Contains(s, AnchorKey):
		if i := findFold(s, AnchorKey); i >= 0 {
			return "found " + Quote(s[i:i+len(AnchorKey)]) + " (capitalised); the sentinel is 'anchor:'"
		}
		if i := findFold(s, "anchor"); i >= 0 {
			end := skipSpace(s, i+len("anchor"))
			if end < len(s) && s[end] == ':' {
				return "found " + Quote(s[i:end+1]) + " (space before the colon); write 'anchor:'"
			}
		}
		return "no 'anchor:' in the note"
	}
	i := strings.LastIndex(s, AnchorKey)
	j := skipSpace(s, i+len(AnchorKey))
	if j >= len(s) {
		return "the reference after the last 'anchor:' is empty"
	}
	rest := s[j:]
	nl := strings.IndexByte(rest, '\n')
	after := Strip(rest[nl+1:])
	if line, _, _ := strings.Cut(after, "\n"); line != "" {
		after = line
	}
	return "the anchor is followed by another line " + Quote(after) + "; the reference must be the last line"
}

// placeholderWords are the anchor references that are placeholders in
// any case, once trailing . ; , are trimmed; placeholderPrefixes make one
// of any reference they begin.
var (
	placeholderWords = [...]string{"todo", "tbd", "tba", "tbc", "none", "n/a", "n.a", "na", "null", "nil",
		"xxx", "???", "...", "placeholder", "fixme", "unknown", "later", "-"}
	placeholderPrefixes = [...]string{"todo", "tbd", "fixme"}
)

// maxPlaceholderWord is the length of the longest of placeholderWords
// (TestPlaceholderWordsFit): a longer ASCII reference is a placeholder
// only by its prefix, and is not lowered.
const maxPlaceholderWord = len("placeholder")

// IsPlaceholderAnchor reports whether an anchor reference is a placeholder
// rather than a reference (GAIA504, W5): TODO, TBD, ?, x, none, n/a and
// friends, or anything shorter than three characters.
func IsPlaceholderAnchor(ref string) bool {
	r := Strip(ref)
	if isASCII(r) {
		// Lowering ASCII keeps every byte where it is and leaves . ; ,
		// alone: trim first, and lower only what is short enough to be a
		// placeholder word; a longer reference is one only by its prefix.
		for len(r) > 0 && (r[len(r)-1] == '.' || r[len(r)-1] == ';' || r[len(r)-1] == ',') {
			r = r[:len(r)-1]
		}
		if len(r) > maxPlaceholderWord {
			return slices.ContainsFunc(placeholderPrefixes[:], func(p string) bool { return hasPrefixFold(r, p) })
		}
	}
	r = strings.ToLower(r)
	r = strings.TrimRight(r, ".;,")
	if utf8.RuneCountInString(r) < 3 || slices.Contains(placeholderWords[:], r) {
		return true
	}
	return slices.ContainsFunc(placeholderPrefixes[:], func(p string) bool { return strings.HasPrefix(r, p) })
}

// hasPrefixFold is strings.HasPrefix(strings.ToLower(s), prefix) for a
// lower-case ASCII prefix.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
