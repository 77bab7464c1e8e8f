package output

import (
	"bytes"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// sources reads each flagged file at most once per printer call and hands
// out its lines. It is created per call, so printers stay pure.
type sources struct {
	read  func(string) ([]byte, error)
	lines map[string][][]byte // nil value: content unknown
}

func newSources(read func(string) ([]byte, error)) *sources {
	return &sources{read: read, lines: map[string][][]byte{}}
}

// line returns line n (1-based) of path without its line ending, and false
// when the content or the line is unknown.
func (s *sources) line(path string, n int) ([]byte, bool) {
	ls, ok := s.lines[path]
	if !ok {
		if s.read != nil {
			if data, err := s.read(path); err == nil {
				ls = bytes.Split(data, []byte("\n"))
			}
		}
		s.lines[path] = ls
	}
	if n < 1 || n > len(ls) {
		return nil, false
	}
	return bytes.TrimSuffix(ls[n-1], []byte("\r")), true
}

// runeColumn converts a 1-based UTF-8 byte column on line to a 1-based
// Unicode code point column. A column past the end of the line (an end
// column just after the last character, say) keeps its distance from the
// end. Invalid UTF-8 bytes count one code point each, as the decoder
// reads them.
func runeColumn(line []byte, col int) int {
	if col < 1 {
		return col
	}
	off := col - 1
	if off > len(line) {
		return utf8.RuneCount(line) + 1 + off - len(line)
	}
	return utf8.RuneCount(line[:off]) + 1
}

// repoPath returns path relative to the source root with forward slashes
// when it lies inside it (GitHub places annotations by repository path,
// whatever directory nullius ran in), else path unchanged.
func repoPath(path string, meta Meta) string {
	p := filepath.FromSlash(path)
	root := meta.SrcRoot
	if root == "" {
		root = meta.WorkDir
	}
	if root == "" || path == "" {
		return path
	}
	abs := p
	if !filepath.IsAbs(p) {
		if meta.WorkDir == "" {
			return path
		}
		abs = filepath.Join(meta.WorkDir, p)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}

// artifactURI turns a diagnostic path into a SARIF artifact URI. Paths
// inside the source root become relative URIs (with uriBaseId %SRCROOT%,
// so results stay stable whatever the checkout directory); paths outside
// it become absolute file URIs with no base.
func artifactURI(path string, meta Meta) (uri string, relative bool) {
	p := filepath.FromSlash(path)
	abs := p
	if !filepath.IsAbs(p) && meta.WorkDir != "" {
		abs = filepath.Join(meta.WorkDir, p)
	}
	root := meta.SrcRoot
	if root == "" {
		root = meta.WorkDir
	}
	if root != "" && filepath.IsAbs(abs) {
		rel, err := filepath.Rel(root, abs)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return (&url.URL{Path: filepath.ToSlash(rel)}).String(), true
		}
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), false
	}
	if filepath.IsAbs(p) {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String(), false
	}
	return (&url.URL{Path: filepath.ToSlash(filepath.Clean(p))}).String(), true
}

// dirURI is the file URI of a directory, with the trailing slash SARIF
// requires of a base URI.
func dirURI(dir string) string {
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String()
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}
