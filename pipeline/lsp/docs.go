package lsp

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"go.lsp.dev/uri"

	"github.com/nullius-dev/nullius/analyzers"
	protocol "github.com/nullius-dev/nullius/internal/third_party/lspprotocol"
)

// document is one open buffer.
type document struct {
	uri     uri.URI
	path    string // absolute, forward slashes: the path lint reports
	version int32
	text    *text
	// edited is when the buffer last diverged from what a compile could
	// have seen: the file's modification time at open or save, the time of
	// the last change otherwise. An ir.json older than this is stale.
	edited time.Time
	pkg    string // the Gaia package directory; "" outside any package
}

// docPath returns the file path of a file: URI, or "" for any other scheme
// (an untitled buffer has nothing on disk to belong to).
func docPath(u uri.URI) string {
	if u.Scheme() != "file" {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(u.FsPath()))
}

// DidOpen takes the buffer's text and lints its package.
func (s *server) DidOpen(_ context.Context, params *protocol.DidOpenTextDocumentParams) error {
	item := params.TextDocument
	path := docPath(item.URI)
	if path == "" {
		return nil
	}
	d := &document{uri: item.URI, path: path, version: item.Version, text: newText([]byte(item.Text)), edited: modTime(path)}
	d.pkg = s.packageOf(path)
	s.mu.Lock()
	s.docs[item.URI] = d
	s.mu.Unlock()
	if d.pkg != "" {
		s.schedule(d.pkg, true)
	}
	return nil
}

// DidChange applies the changes in order (incremental, or the whole text)
// and schedules a source lint.
func (s *server) DidChange(_ context.Context, params *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[params.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	t := d.text
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			t = newText([]byte(c.Text))
		case *protocol.TextDocumentContentChangePartial:
			next, err := t.apply(c.Range, c.Text, s.enc)
			if err != nil {
				s.mu.Unlock()
				return err
			}
			t = next
		}
	}
	d.text, d.version, d.edited = t, params.TextDocument.Version, time.Now()
	pkg := d.pkg
	s.mu.Unlock()
	if pkg != "" {
		s.schedule(pkg, false)
	}
	return nil
}

// DidSave runs the IR checks as well: the file on disk now matches the
// buffer, so a compile could have seen it.
func (s *server) DidSave(_ context.Context, params *protocol.DidSaveTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[params.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	d.edited = modTime(d.path)
	pkg := d.pkg
	s.mu.Unlock()
	if pkg != "" {
		s.schedule(pkg, true)
	}
	return nil
}

// DidClose forgets the buffer and re-lints its package from disk, so its
// findings reflect the file, not the discarded edits.
func (s *server) DidClose(_ context.Context, params *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[params.TextDocument.URI]
	delete(s.docs, params.TextDocument.URI)
	s.mu.Unlock()
	if d != nil && d.pkg != "" {
		s.schedule(d.pkg, false)
	}
	return nil
}

// packageOf returns the directory of the Gaia package whose Python files
// include path, or "".
func (s *server) packageOf(path string) string {
	found, _, err := analyzers.Discover([]string{path})
	if err != nil || len(found) != 1 || found[0].ImportName == "" {
		return ""
	}
	dir := found[0].Dir
	pkgs, _, err := analyzers.Discover([]string{dir})
	if err != nil {
		return ""
	}
	for _, p := range pkgs {
		for _, f := range p.Files {
			if abs(f) == path {
				return abs(p.Dir)
			}
		}
	}
	return ""
}

// abs returns p absolute and cleaned, with forward slashes.
func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// modTime returns the modification time of path, or the zero time.
func modTime(path string) time.Time {
	if fi, err := os.Stat(path); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}
