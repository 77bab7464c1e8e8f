package prior

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pycase"
)

// Identity normalizers: P-3 stable-locator keys, P-4 text normalizers, and
// the gate-local P-5 regexes used by inline identity_triangulation.

var (
	doiShapeRE   = lazyre.New(`(?i)^10\.\d{4,9}/\S+$`)
	providerIDRE = lazyre.New(`(?i)^provider:([a-z0-9][a-z0-9._-]*):([^\s:]\S*)$`)
	arxivVerRE   = lazyre.New(`v\d+$`)
	nonWordRE    = lazyre.New(`[^\p{L}\p{N}_]+`)
	yearRE       = lazyre.New(`^\d{4}$`)
)

// NormalizeDOI strips URL and doi: prefixes and trailing punctuation, and
// casefolds, as the reference's normalize_doi does.
func NormalizeDOI(s string) string {
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	stripped := false
	for _, p := range []string{"https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi.org/", "dx.doi.org/"} {
		if strings.HasPrefix(low, p) {
			s = s[len(p):]
			if i := strings.IndexAny(s, "?#"); i >= 0 {
				s = s[:i]
			}
			if u, err := url.PathUnescape(s); err == nil {
				s = u
			}
			stripped = true
			break
		}
	}
	if !stripped && strings.HasPrefix(low, "doi:") {
		s = s[4:]
	}
	s = pycase.Casefold(strings.TrimSpace(s))
	for {
		t := strings.Trim(s, "/")
		t = strings.TrimRight(t, ".,;")
		if t == s {
			break
		}
		s = t
	}
	if strings.HasPrefix(s, "10.48550/arxiv.") {
		s = arxivVerRE.ReplaceAllString(s, "")
	}
	return s
}

// CanonicalKey implements P-3: the identity key of a stable locator (a DOI,
// a provider record id, or an http(s) URL), or "" when the string is none.
func CanonicalKey(s string) string {
	t := strings.TrimSpace(s)
	low := strings.ToLower(t)
	if strings.HasPrefix(low, "10.") || strings.HasPrefix(low, "doi:") || strings.HasPrefix(low, "doi.org/") ||
		strings.HasPrefix(low, "dx.doi.org/") || strings.Contains(low, "doi.org/") {
		if d := NormalizeDOI(t); doiShapeRE.MatchString(d) {
			return "doi:" + d
		}
	}
	if m := providerIDRE.FindStringSubmatch(t); m != nil {
		return "provider:" + pycase.Casefold(m[1]) + ":" + strings.TrimSpace(norm.NFKC.String(m[2]))
	}
	u, err := url.Parse(t)
	if err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != "" {
		scheme := strings.ToLower(u.Scheme)
		host := strings.ToLower(u.Hostname())
		if p := u.Port(); p != "" && !(scheme == "http" && p == "80") && !(scheme == "https" && p == "443") {
			host += ":" + p
		}
		path := u.EscapedPath()
		if path == "" {
			path = "/"
		}
		key := "url:" + scheme + "://" + host + path
		if u.RawQuery != "" {
			key += "?" + u.RawQuery
		}
		return key
	}
	return ""
}

// NormalizeTitle implements P-4: NFKD, drop combining marks, casefold,
// collapse non-word runs to one space, trim.
func NormalizeTitle(s string) string {
	d := norm.NFKD.String(s)
	var b strings.Builder
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(nonWordRE.ReplaceAllString(pycase.Casefold(b.String()), " "))
}

// NormalizeYear implements P-4's year rule on a JSON string or integer.
func NormalizeYear(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = strings.TrimSpace(x)
	default:
		i, ok := intVal(v)
		if !ok {
			return ""
		}
		s = strconv.FormatInt(i, 10)
	}
	if !yearRE.MatchString(s) {
		return ""
	}
	y, _ := strconv.Atoi(s)
	if y < 1500 || y > 2199 {
		return ""
	}
	return s
}

// NormalizeAuthor is NormalizeTitle without spaces.
func NormalizeAuthor(s string) string { return strings.ReplaceAll(NormalizeTitle(s), " ", "") }

// P-5: the gate-local normalizers of inline identity_triangulation.
var (
	canonYearRE  = lazyre.New(`(1[5-9]\d\d|20\d\d|21\d\d)`)
	canonDOIRE   = lazyre.New(`(?i)10\.\d{4,9}/[^\s"'<>]+`)
	canonArxivRE = lazyre.New(`(?i)(?:arxiv:)?(\d{4}\.\d{4,5})(?:v\d+)?`)
	recidMarkRE  = lazyre.New(`(?i)(?:recid|inspire)\D*(\d{5,})`)
	bareRecidRE  = lazyre.New(`^\s*(\d{5,})\s*$`)
)

// canonicalText lowercases v and keeps its ASCII letters and digits, every
// run of other characters made one space and none at either end (what
// replacing [^a-z0-9]+ by " " and trimming gives). It runs on every
// provider record of every core paper, so it is a loop, not a
// regular-expression replacement allocating at each call.
func canonicalText(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	s = strings.ToLower(s)
	b := make([]byte, 0, len(s))
	gap := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			if gap && len(b) > 0 {
				b = append(b, ' ')
			}
			b, gap = append(b, c), false
		} else {
			gap = true
		}
	}
	return string(b)
}

func canonicalYear(v any) string {
	s := scalarString(v)
	return canonYearRE.FindString(s)
}

func canonicalDOI(v any) string {
	m := canonDOIRE.FindString(scalarString(v))
	return strings.ToLower(strings.TrimRight(m, "."))
}

func canonicalArxiv(v any) string {
	s := scalarString(v)
	// Unlike the reference (W-12), a DOI is never mined for an arXiv id.
	if canonDOIRE.MatchString(s) {
		return ""
	}
	m := canonArxivRE.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1]
}

func canonicalRecid(v any) string {
	s := scalarString(v)
	if m := recidMarkRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := bareRecidRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// scalarString renders a JSON string or number as text; other values are "".
func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	default:
		if i, ok := intVal(v); ok {
			return strconv.FormatInt(i, 10)
		}
		if f, ok := floatVal(v); ok {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return ""
}
