// Package projroot knows the nullius project root: the directory holding a
// .nullius/ directory, which extract, writeback, absorb and the gate use to
// make package and artifact references relative (project://...), and which
// holds the judge roster (.nullius/agents.json) and the absorb journal
// (.nullius/journal/). Init makes one, with the .gitignore lines that keep
// nullius's local state (lock files, interrupted-write temp files, the
// journal) out of git.
package projroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// Marker is the directory that marks a project root.
const Marker = ".nullius"

// Find walks from dir (itself first) upwards and returns the first
// directory that contains a directory named .nullius; a regular file of
// that name is not a marker. ok is false when no ancestor has one. dir is
// used as given (callers resolve it first when they need a real path).
func Find(dir string) (root string, ok bool) {
	for d := dir; ; {
		if fi, err := os.Stat(filepath.Join(d, Marker)); err == nil && fi.IsDir() {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// ReadmeName is the file Init writes inside .nullius/: git does not track
// an empty directory, so without a file in it a fresh clone would lose the
// project root.
const ReadmeName = "README.md"

const readme = `# .nullius/

This directory marks the nullius project root: extract, writeback, match
absorb and the close-prior gate name packages and artifacts relative to the
directory that holds it (project://...). Commit it, with this file, so a
fresh clone keeps its root.

- agents.json (optional, commit it): the judge roster of 'nullius match panel'.
- journal/ (never commit it): the intent journal of an absorb in progress;
  'nullius recover' completes or rolls back a killed one. .gitignore keeps it
  out of git.
`

// IgnoreLines are the .gitignore patterns Init guarantees, each with why.
var IgnoreLines = []struct{ Pattern, Why string }{
	{".nullius.lock", "the lock file nullius steps take in the directories they write"},
	{".*.tmp-*", "the temporary file of an atomic write that was interrupted"},
	{".nullius-scaffold-*/", "the staging directory of an interrupted nullius scaffold"},
	{"/.nullius/journal/", "the absorb journal: local recovery state"},
}

const ignoreHeader = "# nullius: local state, never committed (nullius init)"

// InitResult says what Init did, each path relative to the root.
type InitResult struct {
	Root      string   // the directory made a project root (absolute)
	Created   []string // paths created: ".nullius/", ".nullius/README.md", ".gitignore"
	Updated   []string // existing files changed: ".gitignore" when lines were added
	Unchanged []string // paths already as Init would leave them
	Added     []string // .gitignore patterns added
	// Enclosing is the project root above Root, when Root was not one
	// itself before Init: Root now shadows it for everything below.
	Enclosing string
}

// Init makes dir a project root: .nullius/ with its README.md, and the
// IgnoreLines in dir/.gitignore (appended when missing; a line the file
// already holds is not repeated). Running it again changes nothing.
func Init(dir string) (*InitResult, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%q is not a directory", dir)
	}
	res := &InitResult{Root: abs}
	marker := filepath.Join(abs, Marker)
	switch fi, err := os.Lstat(marker); {
	case err == nil && fi.IsDir():
		res.Unchanged = append(res.Unchanged, Marker+"/")
	case err == nil:
		return nil, fmt.Errorf("%q exists and is not a directory; move it away, then run nullius init again", marker)
	case errors.Is(err, fs.ErrNotExist):
		if up, ok := Find(filepath.Dir(abs)); ok {
			res.Enclosing = up
		}
		if err := os.Mkdir(marker, 0o755); err != nil {
			return nil, err
		}
		res.Created = append(res.Created, Marker+"/")
	default:
		return nil, err
	}
	rd := filepath.Join(marker, ReadmeName)
	switch err := atomicfile.WriteNew(rd, []byte(readme), 0o644); {
	case err == nil:
		res.Created = append(res.Created, Marker+"/"+ReadmeName)
	case errors.Is(err, atomicfile.ErrExists):
		res.Unchanged = append(res.Unchanged, Marker+"/"+ReadmeName)
	default:
		return nil, err
	}
	if err := res.gitignore(filepath.Join(abs, ".gitignore")); err != nil {
		return nil, err
	}
	return res, nil
}

// gitignore appends the missing IgnoreLines to path under one header.
func (res *InitResult) gitignore(path string) error {
	old, fi, err := readlimit.ReadFileInfo(path, readlimit.Config)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var add []string
	for _, l := range IgnoreLines {
		if !have[l.Pattern] {
			add = append(add, l.Pattern)
		}
	}
	if len(add) == 0 {
		res.Unchanged = append(res.Unchanged, ".gitignore")
		return nil
	}
	var b strings.Builder
	b.Write(old)
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		b.WriteString("\n")
	}
	if len(old) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(ignoreHeader + "\n")
	for _, l := range add {
		b.WriteString(l + "\n")
	}
	perm := fs.FileMode(0o644)
	if exists {
		perm = fi.Mode().Perm()
	}
	if err := atomicfile.WriteFile(path, []byte(b.String()), perm); err != nil {
		return err
	}
	res.Added = add
	if exists {
		res.Updated = append(res.Updated, ".gitignore")
	} else {
		res.Created = append(res.Created, ".gitignore")
	}
	return nil
}
