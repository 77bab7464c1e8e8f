package sentinel

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// DomainsKey introduces the list of phenomenon domains of a strong
// downstream_reach raise (GAIA013).
const DomainsKey = "domains:"

// splitDomains splits a clause body on ';' and '|', strips every piece and
// drops the empty ones.
func splitDomains(body string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(body, func(r rune) bool { return r == ';' || r == '|' }) {
		if p = Strip(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// DomainsRef is the reference's has_domains_clause, kept for conformance:
// in the before-anchor part, the first "domains:" (no word boundary) with
// something after optional whitespace; the body runs to the end of that
// line; at least three non-empty ';'/'|' pieces, duplicates allowed.
func DomainsRef(rationale string) bool {
	s := BeforeAnchor(rationale)
	i := index(s, DomainsKey)
	if i < 0 {
		return false
	}
	j := skipSpace(s, i+len(DomainsKey))
	body := s[j:]
	if k := strings.IndexByte(body, '\n'); k >= 0 {
		body = body[:k]
	}
	return len(splitDomains(body)) >= 3
}

// Domains returns the distinct domains of the clause nullius accepts
// (GAIA013 with W4 and W16 fixed). In the before-anchor part, the first
// "domains:" that starts a word ("subdomains:" does not count); the clause
// runs across line breaks until its sentence ends (a '.' followed by
// whitespace or the end of text) or a blank line; entries are split on ';'
// and '|' and compared case-folded with whitespace collapsed.
func Domains(rationale string) []string {
	body, ok := domainsBody(rationale)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range splitDomains(body) {
		key := strings.ToLower(strings.Join(Words(p), " "))
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// domainsBody finds the clause body, already cut at its sentence end.
func domainsBody(rationale string) (string, bool) {
	s := BeforeAnchor(rationale)
	for off := 0; ; {
		i := index(s[off:], DomainsKey)
		if i < 0 {
			return "", false
		}
		i += off
		if wordBoundaryBefore(s, i) {
			return cutSentence(s[i+len(DomainsKey):]), true
		}
		off = i + len(DomainsKey)
	}
}

// cutSentence returns s up to its sentence end: a '.' followed by
// whitespace or the end of text, or a blank line. A '.' inside a token
// (arXiv:2101.00001, e.g.) does not end the sentence.
func cutSentence(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			r, _ := utf8.DecodeRuneInString(s[i+1:])
			if i+1 == len(s) || IsSpace(r) {
				return s[:i]
			}
		case '\n':
			if j := skipSpace(s, i+1); strings.Contains(s[i+1:j], "\n") || j == len(s) {
				return s[:i]
			}
		}
	}
	return s
}

// DomainsProblem explains why the clause does not name three distinct
// domains (W15); "" on pass.
func DomainsProblem(rationale string) string {
	got := Domains(rationale)
	if len(got) >= 3 {
		return ""
	}
	body, ok := domainsBody(rationale)
	switch {
	case ok && len(splitDomains(body)) >= 3:
		return "found " + Quote(Strip(body)) + ", which repeats a domain; the three must be distinct"
	case ok:
		return "found " + Quote(Strip(body)) + " with " + strconv.Itoa(len(got)) + " domain(s) before the sentence ends"
	case strings.Contains(rationale, DomainsKey) && !strings.Contains(BeforeAnchor(rationale), DomainsKey):
		return "the clause sits after 'anchor:', where it does not count"
	case strings.Contains(BeforeAnchor(rationale), DomainsKey):
		return "'domains:' must start a word ('subdomains:' does not count)"
	}
	return "no 'domains:' clause before the anchor"
}
