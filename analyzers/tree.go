package analyzers

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/memo"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// fsTree is one run's view of the file system: every directory listed at
// most once (the discovery walk, the source-root lookup, the module walk
// and the configuration lookup all ask it, from any goroutine), and every
// configuration file (pyproject.toml, nullius.toml) read at most once,
// for both discovery and configuration. Listings replace the per-directory
// stat calls a path-probing walk would make.
type fsTree struct {
	cwd   string
	dirs  memo.Map[[]fs.DirEntry] // by key; sorted by name
	files memo.Map[[]byte]        // by key
	// plain holds the pyproject.toml files (by key)
	// discovery decoded and found without a [tool.nullius] table, so
	// configuration does not decode them again.
	plain memo.Map[bool]
}

func newFSTree() *fsTree { return newFSTreeIn("") }

// newFSTreeIn is newFSTree in the working directory cwd, which the caller
// has asked for already; "" asks the OS.
func newFSTreeIn(cwd string) *fsTree {
	if cwd == "" {
		cwd, _ = getwd()
	}
	return &fsTree{cwd: cwd}
}

// getwd is os.Getwd; a test counts the calls.
var getwd = os.Getwd

// abs makes a path absolute and clean against the run's working
// directory, which is asked once (filepath.Abs asks the OS on every call).
// Paths inside a run are clean already (the walk cleans its roots and
// builds the rest with join), so no Clean is paid per call unless the
// path climbs above the working directory.
func (t *fsTree) abs(p string) string {
	switch {
	case filepath.IsAbs(p):
		return p
	case p == ".":
		return t.cwd
	case strings.HasPrefix(p, ".."):
		// A clean relative path may climb ("../pkg"): joined as it is, the
		// key would not be clean and would miss the clean absolute paths
		// the configuration lookup asks for.
		return filepath.Join(t.cwd, p)
	}
	return join(t.cwd, p)
}

// key is the memo key of a path: the clean path relative to the run's
// working directory when it lies there, else the absolute one, so every
// spelling of one path (discovery's relative paths, the configuration
// lookup's absolute ones) finds one entry. A relative path is its own
// key and an absolute one under the working directory a substring of
// itself: no key is built per lookup.
func (t *fsTree) key(p string) string {
	switch {
	case t.cwd == "":
		return t.abs(p) // the working directory could not be asked: keys stay as abs gives them
	case filepath.IsAbs(p):
		return t.rel(p)
	case strings.HasPrefix(p, ".."):
		return t.rel(t.abs(p))
	}
	return p
}

// rel is the clean absolute path abs relative to the working directory
// when it lies there ("." for the directory itself), else abs.
func (t *fsTree) rel(abs string) string {
	rest, ok := strings.CutPrefix(abs, t.cwd)
	switch {
	case !ok:
		return abs
	case rest == "":
		return "."
	case t.cwd[len(t.cwd)-1] == filepath.Separator: // the root
		return rest
	case rest[0] == filepath.Separator:
		return rest[1:]
	}
	return abs // a sibling sharing a prefix: /work/a-b under /work/a
}

// absPath is filepath.Abs(p) against the run's working directory, asked
// once (filepath.Abs asks the OS, two stats, on every call), for any
// path, clean or not.
func (t *fsTree) absPath(p string) (string, error) {
	switch {
	case filepath.IsAbs(p):
		return filepath.Clean(p), nil
	case t.cwd == "":
		return filepath.Abs(p) // the working directory could not be asked at the start
	}
	return filepath.Join(t.cwd, p), nil
}

// join appends the name of a directory entry (no separator, not . or ..)
// or a clean relative path to a clean directory path: what filepath.Join
// gives, without re-cleaning the whole path on every call.
func join(dir, name string) string {
	switch {
	case dir == "" || dir == ".":
		return name
	case dir[len(dir)-1] == filepath.Separator:
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// list returns the entries of dir sorted by name, reading the directory
// once per run through the bounded reader's ReadDir. A failure is not
// shared: a caller that did not make it reads again, so the error names
// the path as that caller spelled it.
func (t *fsTree) list(dir string) ([]fs.DirEntry, error) {
	mine := false
	es, err := t.dirs.Get(t.key(dir), func() ([]fs.DirEntry, error) { mine = true; return readlimit.ReadDir(dir) })
	if err != nil && !mine {
		return readlimit.ReadDir(dir)
	}
	return es, err
}

// listed returns dir's entries if dir has been listed already (without
// listing it), for lookups that would rather stat than list a large
// directory outside the walk (the ancestors of a named path).
func (t *fsTree) listed(dir string) ([]fs.DirEntry, bool) {
	es, err, ok := t.dirs.Peek(t.key(dir))
	return es, ok && err == nil
}

// entry returns the entry named name in a listing.
func entry(es []fs.DirEntry, name string) (fs.DirEntry, bool) {
	i, ok := slices.BinarySearchFunc(es, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !ok {
		return nil, false
	}
	return es[i], true
}

// isDir reports whether dir/name is a directory, following a symlink as
// os.Stat does, from dir's listing.
func (t *fsTree) isDir(dir, name string) bool {
	es, err := t.list(dir)
	if err != nil {
		return false
	}
	e, ok := entry(es, name)
	if !ok {
		return false
	}
	if e.Type()&fs.ModeSymlink != 0 {
		fi, err := os.Stat(join(dir, name))
		return err == nil && fi.IsDir()
	}
	return e.IsDir()
}

// holds reports whether dir/name exists and is not a directory (a
// symlink is followed), when dir has been listed; known is false
// otherwise. It answers the configuration lookup.
func (t *fsTree) holds(dir, name string) (exists, known bool) {
	es, ok := t.listed(dir)
	if !ok {
		return false, false
	}
	e, ok := entry(es, name)
	if !ok {
		return false, true
	}
	if e.Type()&fs.ModeSymlink != 0 {
		fi, err := os.Stat(join(dir, name))
		return err == nil && !fi.IsDir(), true
	}
	return !e.IsDir(), true
}

// markPlain records that discovery decoded the pyproject.toml at path and
// found no [tool.nullius] table in it.
func (t *fsTree) markPlain(path string) {
	t.plain.Get(t.key(path), func() (bool, error) { return true, nil })
}

// isPlain reports whether markPlain recorded the pyproject.toml at abs
// (absolute, clean). It answers the configuration lookup.
func (t *fsTree) isPlain(abs string) bool {
	v, err, ok := t.plain.Peek(t.key(abs))
	return ok && err == nil && v
}

// readListed reads path through the bounded reader, as a regular file
// without the stat before the open when the listing of its directory
// (made already by the walk) says it is one (readlimit.ReadListed).
func (t *fsTree) readListed(path string, k readlimit.Kind) ([]byte, error) {
	if es, ok := t.listed(filepath.Dir(path)); ok {
		if e, ok := entry(es, filepath.Base(path)); ok {
			return readlimit.ReadListed(path, e.Type(), k)
		}
	}
	return readlimit.ReadFile(path, k)
}

// readSource reads a package's .py file (readListed).
func (t *fsTree) readSource(path string) ([]byte, error) {
	return t.readListed(path, readlimit.Python)
}

// readConfig reads a configuration file (pyproject.toml or nullius.toml)
// once per run through the bounded reader. A failure is not shared: a
// caller that did not make it reads again, so its error names the path
// as that caller spelled it.
func (t *fsTree) readConfig(path string) ([]byte, error) {
	mine := false
	data, err := t.files.Get(t.key(path), func() ([]byte, error) { mine = true; return t.readListed(path, readlimit.Config) })
	if err != nil && !mine {
		return readlimit.ReadFile(path, readlimit.Config)
	}
	return data, err
}
