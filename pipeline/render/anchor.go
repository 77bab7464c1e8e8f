package render

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/lazyre"
)

// Segment is one piece of an anchor reference: plain text, or a link when
// Href is set. Href is only ever an http(s) URL or a relative path to an
// existing in-project Markdown file.
type Segment struct {
	Text string `json:"text"`
	Href string `json:"href,omitempty"`
}

// AnchorText returns the reference after the first `anchor:` of a rationale
// (the reference's "after-anchor part"; the sentinel is case-sensitive and
// not word-bounded), trimmed. ok is false when there is no anchor.
func AnchorText(rationale string) (ref string, ok bool) {
	_, after, ok := strings.Cut(rationale, "anchor:")
	return strings.TrimSpace(after), ok
}

// Resolver decides which anchor tokens become links.
type Resolver struct {
	Package string // package directory; relative paths resolve here first
	Root    string // project root; links must stay inside it after symlinks
	PageDir string // directory the page is written to; hrefs are relative to it
}

// tokenRE finds whitespace-separated tokens; the text between them is kept.
var tokenRE = lazyre.New(`\S+`)

// Segments splits an anchor reference into text and link segments. Each
// whitespace-separated token, stripped of surrounding punctuation, becomes
// a link when it is an http(s) URL or an existing regular file inside the
// project that is not active content (localFile); everything else stays
// plain text, so `javascript:` or a path escaping the project can never
// become an href.
func (r *Resolver) Segments(ref string) []Segment {
	var out []Segment
	text := func(s string) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Href == "" {
			out[n-1].Text += s
			return
		}
		out = append(out, Segment{Text: s})
	}
	last := 0
	for _, loc := range tokenRE.FindAllStringIndex(ref, -1) {
		tok := ref[loc[0]:loc[1]]
		core := strings.TrimLeft(tok, `([<'"`)
		lead := tok[:len(tok)-len(core)]
		core = strings.TrimRight(core, `.,;:)]>'"`)
		href := r.href(core)
		if href == "" {
			continue
		}
		text(ref[last:loc[0]] + lead)
		out = append(out, Segment{Text: core, Href: href})
		last = loc[0] + len(lead) + len(core)
	}
	text(ref[last:])
	return out
}

// href returns the link target for one token, or "" for plain text.
func (r *Resolver) href(tok string) string {
	if h := webURL(tok); h != "" {
		return h
	}
	return r.localFile(tok)
}

// webURL accepts absolute http(s) URLs with a host and returns them in
// normalised, escaped form.
func webURL(tok string) string {
	low := strings.ToLower(tok)
	if !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "https://") {
		return ""
	}
	u, err := url.Parse(tok)
	if err != nil || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") || !hostRE.MatchString(u.Host) {
		return ""
	}
	h := u.String()
	if !webHrefRE.MatchString(h) {
		return ""
	}
	return h
}

var (
	// hostRE: a DNS name or IPv4 address, or a bracketed IPv6 address, with
	// an optional port. url.Parse alone lets quotes through in the host.
	hostRE = lazyre.New(`^([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$`)
	// webHrefRE is the page script's allow-list for web links.
	webHrefRE = lazyre.New(`^https?://[^\s"'<>` + "`" + `\\]+$`)
)

// activeExt are the file types a link would open as active content (a
// page or a script running from disk); they stay plain text.
// It is built on first use, not at every process start (issue 15).
var activeExt = lazy.New(buildActiveExt)

// buildActiveExt builds activeExt on first use.
func buildActiveExt() map[string]bool {
	return map[string]bool{".html": true, ".htm": true, ".xhtml": true, ".shtml": true, ".svg": true,
		".js": true, ".mjs": true, ".xml": true, ".xsl": true, ".swf": true}
}

// localFile links a relative path to an existing regular file inside the
// project root (checked after resolving symlinks): an evidence note, a
// match artifact, a data file; never active content (activeExt). The path
// is tried relative to the package first and then to the project root; a
// project:// reference (project://<path>, as pinned artifact references
// are written) resolves from the project root only. The href is relative
// to the page's directory, percent-encoded, with any #fragment kept (a
// pin such as #sha256:... stays out of the href).
func (r *Resolver) localFile(tok string) string {
	if r == nil || r.Root == "" {
		return ""
	}
	bases := []string{r.Package, r.Root}
	if rest, ok := strings.CutPrefix(tok, "project://"); ok {
		tok, bases = rest, []string{r.Root}
	}
	p, frag, _ := strings.Cut(tok, "#")
	if strings.HasPrefix(frag, "sha256:") {
		frag = ""
	}
	if p == "" || activeExt.Get()[strings.ToLower(filepath.Ext(p))] || strings.Contains(p, ":") ||
		strings.ContainsAny(p, `\`) || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return ""
	}
	root, err := filepath.EvalSymlinks(r.Root)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return ""
	}
	for _, base := range bases {
		base, err := filepath.Abs(base)
		if err != nil {
			continue
		}
		lexical := filepath.Join(base, filepath.FromSlash(p))
		if !inside(root, lexical) {
			continue
		}
		return r.relHref(lexical, frag)
	}
	return ""
}

// inside reports whether path exists as a regular file whose resolved
// location lies under the resolved root.
func inside(root, path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return contain.Within(real, root)
}

// relHref writes target relative to the page directory as an escaped URL
// path (never with a scheme: ':' is escaped).
func (r *Resolver) relHref(target, frag string) string {
	absT, err1 := filepath.Abs(target)
	absD, err2 := filepath.Abs(r.PageDir)
	if err1 != nil || err2 != nil {
		return ""
	}
	rel, err := filepath.Rel(absD, absT)
	if err != nil {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, s := range parts {
		parts[i] = escapeSegment(s)
	}
	h := strings.Join(parts, "/")
	if frag != "" {
		h += "#" + escapeSegment(frag)
	}
	return h
}

// escapeSegment percent-encodes everything outside A-Z a-z 0-9 . _ ~ -, so
// the href matches the page script's allow-list of relative links.
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '~' || c == '-' {
			b.WriteByte(c)
			continue
		}
		const hex = "0123456789ABCDEF"
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
