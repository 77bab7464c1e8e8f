package match

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/nullius-dev/nullius/internal/lockfile"
)

// locks holds the nullius locks (<dir>/.nullius.lock) a step took, so two
// steps working in one match directory at once cannot interleave their
// writes or read each other's half-finished set of files (issue 7).
//
// Steps lock in one global order, work directories (materials, panel)
// before the campaign's matches directory, so two steps never wait on each
// other in a cycle; and every wait is bounded anyway.
type locks struct {
	dirs []string // resolved paths of the held locks
	held []*lockfile.Lock
}

// add locks every existing directory of dirs not already held. A
// directory that does not exist yet is skipped: the step fails on it, or
// creates it and adds it afterwards. A directory named twice (or twice
// through a symlink) is locked once, since one process's two locks on one
// directory would exclude each other.
func (l *locks) add(dirs ...string) error {
	var todo []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		r, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() || slices.Contains(l.dirs, r) || slices.Contains(todo, r) {
			continue
		}
		todo = append(todo, r)
	}
	slices.Sort(todo)
	for _, d := range todo {
		lk, err := lockfile.Acquire(d, lockfile.Wait())
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			// No nullius running as this user can write into a directory
			// it cannot create the lock file in, so there is nothing to
			// exclude: a read-only materials directory stays usable.
			continue
		}
		if err != nil {
			return err
		}
		l.dirs, l.held = append(l.dirs, d), append(l.held, lk)
	}
	return nil
}

// release drops every held lock, newest first.
func (l *locks) release() {
	for i := len(l.held) - 1; i >= 0; i-- {
		l.held[i].Release()
	}
	l.dirs, l.held = nil, nil
}
