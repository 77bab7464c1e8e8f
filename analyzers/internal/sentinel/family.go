package sentinel

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Family is the parsed evidence-family declaration of an observe rationale
// (GAIA034): Token is the evidence_family token, Model the correlation
// model ("single", the only one Gaia 0.5.0a4 can encode).
type Family struct {
	Token, Model string
}

// familyCounts are the four counts of the reference parser
// (parse_evidence_family_rationale), plus the first bad values seen.
type familyCounts struct {
	df, dm, f, m     int
	token            string
	badTok, badModel string
}

// declarations appends to out the offsets just past "<key>\s*:" for
// every place where key starts at a word boundary. A rationale declares
// each key once, so the caller's small array on the stack holds them.
func declarations(out []int, s, key string) []int {
	for off := 0; ; {
		i := index(s[off:], key)
		if i < 0 {
			return out
		}
		i += off
		off = i + len(key)
		if !wordBoundaryBefore(s, i) {
			continue
		}
		if j := skipSpace(s, off); j < len(s) && s[j] == ':' {
			out = append(out, j+1)
		}
	}
}

// isTokenByte reports whether c may appear in a family token: [a-z0-9._-].
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

func isAlnumLower(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// terminated reports whether s[i:] is optional whitespace then ';'.
func terminated(s string, i int) bool {
	j := skipSpace(s, i)
	return j < len(s) && s[j] == ';'
}

func countFamily(head string) familyCounts {
	var c familyCounts
	var buf [4]int
	for _, at := range declarations(buf[:0], head, "evidence_family") {
		c.df++
		j := skipSpace(head, at)
		k := j
		for k < len(head) && isTokenByte(head[k]) {
			k++
		}
		tok := head[j:k]
		if n := len(tok); n >= 1 && n <= 64 && isAlnumLower(tok[0]) && isAlnumLower(tok[n-1]) && terminated(head, k) {
			c.f++
			c.token = tok
		} else if c.badTok == "" {
			c.badTok = valueAt(head, j)
		}
	}
	for _, at := range declarations(buf[:0], head, "correlation_model") {
		c.dm++
		j := skipSpace(head, at)
		if strings.HasPrefix(head[j:], "single") && terminated(head, j+len("single")) {
			c.m++
		} else if c.badModel == "" {
			c.badModel = valueAt(head, j)
		}
	}
	return c
}

// valueAt returns the declared value starting at s[j:], up to whitespace
// or ';', for messages.
func valueAt(s string, j int) string {
	k := j
	for k < len(s) {
		r, n := utf8.DecodeRuneInString(s[k:])
		if r == ';' || IsSpace(r) {
			break
		}
		k += n
	}
	return s[j:k]
}

// ParseFamily parses the before-anchor part of an observe rationale: valid
// iff exactly one evidence_family and one correlation_model declaration
// exist, the token is 1-64 characters of [a-z0-9._-] starting and ending
// with [a-z0-9] and terminated by ';', and the model is exactly "single"
// terminated by ';'. Declarations after the first "anchor:" are invisible.
func ParseFamily(rationale string) (Family, bool) {
	c := countFamily(BeforeAnchor(rationale))
	if c.df == 1 && c.dm == 1 && c.f == 1 && c.m == 1 {
		return Family{Token: c.token, Model: "single"}, true
	}
	return Family{}, false
}

// FamilyProblem explains a failed family parse, naming the wrong token
// (W15); "" on pass.
func FamilyProblem(rationale string) string {
	head := BeforeAnchor(rationale)
	c := countFamily(head)
	switch {
	case c.df == 0:
		if i := findFold(head, "evidence_family"); i >= 0 {
			return "found " + Quote(sentinelAt(head, i, len("evidence_family"))) + "; the sentinel is 'evidence_family:' in lower case, starting a word"
		}
		if strings.Contains(rationale, "evidence_family") {
			return "the 'evidence_family:' declaration sits after 'anchor:', where it does not count"
		}
		return "no 'evidence_family:' declaration before the anchor"
	case c.df > 1:
		return "found " + strconv.Itoa(c.df) + " 'evidence_family:' declarations; declare exactly one"
	case c.f == 0:
		return "found family token " + Quote(c.badTok) + "; a token is 1-64 characters of [a-z0-9._-], starts and ends with a letter or digit, and ends with ';'"
	case c.dm == 0:
		if i := findFold(head, "correlation_model"); i >= 0 {
			return "found " + Quote(sentinelAt(head, i, len("correlation_model"))) + "; the sentinel is 'correlation_model:' in lower case, starting a word"
		}
		return "no 'correlation_model:' declaration before the anchor"
	case c.dm > 1:
		return "found " + strconv.Itoa(c.dm) + " 'correlation_model:' declarations; declare exactly one"
	case c.m == 0:
		return "found correlation model " + Quote(c.badModel) + "; the only model is 'single' followed by ';'"
	}
	return ""
}

// sentinelAt returns the keyword of length n at s[i:] with its colon, when
// one follows after optional whitespace, for messages.
func sentinelAt(s string, i, n int) string {
	j := skipSpace(s, i+n)
	if j < len(s) && s[j] == ':' {
		return s[i : j+1]
	}
	return s[i : i+n]
}
