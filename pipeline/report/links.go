package report

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/matchproto"
)

// Link normalization (§4.2): local links relative to the report's own
// directory, repo-local paths and literature identifiers made clickable.

var (
	linkRE   = lazyre.New(`\[([^\]]*)\]\(([^)\s]+)((?:\s+"[^"]*")?)\)`)
	codeRE   = lazyre.New("`[^`\n]+`")
	fenceRE  = lazyre.New("^ *(```|~~~)")
	schemeRE = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	// The literature identifiers, as the reference spells them: case does
	// not matter, whitespace may follow the colon (and the colon of
	// "INSPIRE recid" is optional), and a mention right after a word
	// character or a slash (inside a URL or a word) is not one. Python's
	// \s, \d and \w are Unicode classes; pySpace and \p{Nd} are their Go
	// spellings, and the look-behind is checked in literatureMatches.
	arxivRE     = lazyre.New(`(?i)arXiv:` + pySpace + `*(\p{Nd}{4}\.\p{Nd}{4,5})(v\p{Nd}+)?`)
	doiRE       = lazyre.New(`(?i)DOI:` + pySpace + `*(10\.\p{Nd}{4,9}/[^` + matchproto.PySpaceClass + `)\],;]+)`)
	inspireRE   = lazyre.New(`(?i)INSPIRE` + pySpace + `+recid` + pySpace + `*:?` + pySpace + `*(\p{Nd}+)`)
	barePathRE  = lazyre.New(`(^|[\s(])((?:artifacts|idea-store|ideas|argument-graphs|knowledge_base)/[A-Za-z0-9._~%/-]*[A-Za-z0-9_~%/-])`)
	localPrefix = []string{"artifacts/", "idea-store/", "ideas/", "argument-graphs/", "knowledge_base/"}
)

// linker carries the report location for one file.
type linker struct {
	reportDir, root string // both resolved
}

func newLinker(reportPath, root string) (*linker, error) {
	rd, err := filepath.Abs(filepath.Dir(reportPath))
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(rd); err == nil {
		rd = r
	}
	rr, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(rr); err == nil {
		rr = r
	}
	return &linker{reportDir: rd, root: rr}, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// projectPath decodes the path of a project:// target; ok is false for an
// empty or absolute path, empty/./.. segments or an encoded slash.
func projectPath(rest string) (string, bool) {
	if rest == "" || strings.HasPrefix(rest, "/") || strings.Contains(strings.ToLower(rest), "%2f") {
		return "", false
	}
	dec, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	for _, s := range strings.Split(dec, "/") {
		if s == "" || s == "." || s == ".." {
			return "", false
		}
	}
	return dec, true
}

// candidate resolves a target (without fragment) to a local path; ok false
// means "not a local target" (other schemes) or unresolvable.
func (l *linker) candidate(target string) (string, bool) {
	if schemeRE.MatchString(target) {
		low := strings.ToLower(target)
		switch {
		case strings.HasPrefix(low, "file://"):
			u, err := url.Parse(target)
			if err != nil || u.Path == "" {
				return "", false
			}
			return filepath.FromSlash(u.Path), true
		case strings.HasPrefix(low, "project://"):
			p, ok := projectPath(target[len("project://"):])
			if !ok {
				return "", false
			}
			return filepath.Join(l.root, filepath.FromSlash(p)), true
		}
		return "", false
	}
	if filepath.IsAbs(target) {
		return target, true
	}
	if c := filepath.Join(l.reportDir, filepath.FromSlash(target)); exists(c) {
		return c, true
	}
	if c := filepath.Join(l.root, filepath.FromSlash(target)); exists(c) {
		return c, true
	}
	return "", false
}

// normalizeTarget implements the six steps of §4.2.
func (l *linker) normalizeTarget(target string) string {
	if strings.HasPrefix(target, "#") {
		return target
	}
	path, frag, hasFrag := strings.Cut(target, "#")
	c, ok := l.candidate(path)
	if !ok {
		return target
	}
	real := c
	if r, err := filepath.EvalSymlinks(c); err == nil {
		real = r
	}
	if !contain.Within(real, l.root) {
		return target
	}
	rel, err := filepath.Rel(l.reportDir, c)
	if err != nil {
		return target
	}
	out := filepath.ToSlash(rel)
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// NormalizeLinks rewrites every link target, then autolinks repo-local paths
// and literature identifiers outside fenced code (§4.2).
func NormalizeLinks(text, reportPath, root string) (string, error) {
	l, err := newLinker(reportPath, root)
	if err != nil {
		return "", err
	}
	var nb strings.Builder
	last := 0
	for _, m := range linkRE.FindAllStringSubmatchIndex(text, -1) {
		if m[0] > 0 && text[m[0]-1] == '!' {
			continue // images are not links
		}
		nb.WriteString(text[last:m[4]])
		nb.WriteString(l.normalizeTarget(text[m[4]:m[5]]))
		last = m[5]
	}
	nb.WriteString(text[last:])
	text = nb.String()
	lines := strings.SplitAfter(text, "\n")
	inFence := false
	for i, line := range lines {
		if fenceRE.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		lines[i] = l.autolinkLine(line)
	}
	return strings.Join(lines, ""), nil
}

// autolinkLine leaves links alone, converts inline code and plain text.
func (l *linker) autolinkLine(line string) string {
	var b strings.Builder
	rest := line
	for rest != "" {
		li := linkRE.FindStringIndex(rest)
		ci := codeRE.FindStringIndex(rest)
		switch {
		case li == nil && ci == nil:
			b.WriteString(l.autolinkText(rest))
			rest = ""
		case ci == nil || (li != nil && li[0] <= ci[0]):
			b.WriteString(l.autolinkText(rest[:li[0]]))
			b.WriteString(rest[li[0]:li[1]])
			rest = rest[li[1]:]
		default:
			b.WriteString(l.autolinkText(rest[:ci[0]]))
			b.WriteString(l.autolinkCode(rest[ci[0]:ci[1]]))
			rest = rest[ci[1]:]
		}
	}
	return b.String()
}

func (l *linker) autolinkCode(span string) string {
	content := span[1 : len(span)-1]
	for _, p := range localPrefix {
		if strings.HasPrefix(content, p) {
			if n := l.normalizeTarget(content); n != content || exists(filepath.Join(l.root, content)) {
				return "[" + content + "](" + n + ")"
			}
			return span
		}
	}
	if lit := linkLiteratureOutsideLinks(content); lit != content {
		return lit
	}
	return span
}

// linkLiteratureOutsideLinks is linkLiterature on the parts of s that are
// not already Markdown links (code holding a link stays as it is, so a
// second normalization changes nothing).
func linkLiteratureOutsideLinks(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range linkRE.FindAllStringIndex(s, -1) {
		b.WriteString(linkLiterature(s[last:m[0]]))
		b.WriteString(s[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(linkLiterature(s[last:]))
	return b.String()
}

func (l *linker) autolinkText(s string) string {
	s = linkLiterature(s)
	return barePathRE.ReplaceAllStringFunc(s, func(m string) string {
		sm := barePathRE.FindStringSubmatch(m)
		p := sm[2]
		if _, ok := l.candidate(p); !ok {
			return m
		}
		return sm[1] + "[" + p + "](" + l.normalizeTarget(p) + ")"
	})
}

// pySpace is Python's Unicode \s (str.isspace).
const pySpace = `[` + matchproto.PySpaceClass + `]`

// linkLiterature links arXiv, DOI and INSPIRE mentions in plain text, in
// the reference's order, each in its canonical spelling: arXiv:<id>,
// DOI:<doi> (trailing dots stay outside the link), INSPIRE recid <n>.
func linkLiterature(s string) string {
	s = replaceLiterature(arxivRE, s, func(sm []string) string {
		id := sm[1] + sm[2]
		return "[arXiv:" + id + "](https://arxiv.org/abs/" + id + ")"
	})
	s = replaceLiterature(doiRE, s, func(sm []string) string {
		d := strings.TrimRight(sm[1], ".")
		return "[DOI:" + d + "](https://doi.org/" + d + ")" + sm[1][len(d):]
	})
	return replaceLiterature(inspireRE, s, func(sm []string) string {
		return "[INSPIRE recid " + sm[1] + "](https://inspirehep.net/literature/" + sm[1] + ")"
	})
}

// replaceLiterature replaces every match of re in s that is not preceded
// by a word character or a slash (the reference's (?<![\w/]), with
// Python's Unicode \w); a refused match is retried one character later.
func replaceLiterature(re *lazyre.Regexp, s string, repl func(sm []string) string) string {
	var b strings.Builder
	last, from := 0, 0
	for from <= len(s) {
		m := re.FindStringSubmatchIndex(s[from:])
		if m == nil {
			break
		}
		start, end := from+m[0], from+m[1]
		if r, _ := utf8.DecodeLastRuneInString(s[:start]); start > 0 && (r == '/' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)) {
			_, size := utf8.DecodeRuneInString(s[start:])
			from = start + max(size, 1)
			continue
		}
		sm := make([]string, len(m)/2)
		for i := range sm {
			if m[2*i] >= 0 {
				sm[i] = s[from+m[2*i] : from+m[2*i+1]]
			}
		}
		b.WriteString(s[last:start])
		b.WriteString(repl(sm))
		last, from = end, end
		if end == start {
			from++
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// LinkIssue is a broken or escaping local link.
type LinkIssue struct {
	Line, Col int
	Rule      *diag.Rule // CodeLinkBroken or CodeLinkEscapes
	Target    string
	Msg       string
}

// LinkIssues checks every link outside fenced code (§4.2 issue check).
// Unlike the reference (W-16) a percent-encoded target is decoded, a
// ?query is not part of the file name, and an escaping project://../x link
// is reported instead of skipped.
func LinkIssues(text, reportPath, root string) ([]LinkIssue, error) {
	l, err := newLinker(reportPath, root)
	if err != nil {
		return nil, err
	}
	var out []LinkIssue
	inFence := false
	for i, line := range strings.SplitAfter(text, "\n") {
		if fenceRE.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatchIndex(line, -1) {
			if m[0] > 0 && line[m[0]-1] == '!' {
				continue
			}
			target := line[m[4]:m[5]]
			if iss := l.issue(target); iss != nil {
				iss.Line, iss.Col = i+1, m[4]+1
				out = append(out, *iss)
			}
		}
	}
	return out, nil
}

func (l *linker) issue(target string) *LinkIssue {
	path, _, _ := strings.Cut(target, "#")
	path, _, _ = strings.Cut(path, "?")
	if path == "" {
		return nil
	}
	broken := func() *LinkIssue {
		return &LinkIssue{Rule: CodeLinkBroken, Target: target, Msg: "local link target does not exist from the report location or project root: " + target}
	}
	escapes := &LinkIssue{Rule: CodeLinkEscapes, Target: target, Msg: "local link escapes project root: " + target}
	if schemeRE.MatchString(path) {
		low := strings.ToLower(path)
		switch {
		case strings.HasPrefix(low, "project://"):
			if _, ok := projectPath(path[len("project://"):]); !ok {
				return escapes
			}
		case strings.HasPrefix(low, "file://"):
		default:
			return nil
		}
		c, ok := l.candidate(path)
		if !ok || !exists(c) {
			iss := broken()
			iss.Msg = "local link target does not exist: " + target
			return iss
		}
		return l.contain(c, escapes)
	}
	if dec, err := url.PathUnescape(path); err == nil {
		path = dec
	}
	var c string
	switch {
	case filepath.IsAbs(path) && exists(path):
		c = path
	case exists(filepath.Join(l.reportDir, filepath.FromSlash(path))):
		c = filepath.Join(l.reportDir, filepath.FromSlash(path))
	case exists(filepath.Join(l.root, filepath.FromSlash(path))):
		c = filepath.Join(l.root, filepath.FromSlash(path))
	default:
		return broken()
	}
	return l.contain(c, escapes)
}

func (l *linker) contain(c string, escapes *LinkIssue) *LinkIssue {
	real := c
	if r, err := filepath.EvalSymlinks(c); err == nil {
		real = r
	}
	if !contain.Within(real, l.root) {
		return escapes
	}
	return nil
}
