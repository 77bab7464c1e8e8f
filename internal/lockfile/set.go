package lockfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// Set holds the locks one step took, so a step that works in several
// directories (a match step: materials, panel, matches; absorb: the
// journal, the matches directory and two packages) takes and drops them
// as one.
//
// Two steps never wait on each other in a cycle when every step takes its
// locks in one global order: Add sorts the directories of one call, and a
// step that calls Add several times does so in an order fixed for all
// steps (documented where the step does it). Every wait is bounded anyway
// (Wait), so a mistake costs a BusyError, never a hang.
type Set struct {
	dirs []string // resolved paths of the held locks
	held []*Lock
}

// Add locks every existing directory of dirs not already held, waiting
// Wait() for each busy one, in sorted order of their resolved paths. A
// directory that does not exist yet is skipped: the step fails on it, or
// creates it and adds it afterwards. A directory named twice (or twice
// through a symlink) is locked once, since one process's two locks on one
// directory would exclude each other. A directory the user cannot create
// the lock file in is skipped: no nullius running as this user can write
// into it either, so there is nothing to exclude (a read-only archived
// work directory stays readable).
func (s *Set) Add(dirs ...string) error {
	var todo []string
	for _, d := range dirs {
		if d == "" {
			continue
		}
		r, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() || slices.Contains(s.dirs, r) || slices.Contains(todo, r) {
			continue
		}
		todo = append(todo, r)
	}
	slices.Sort(todo)
	for _, d := range todo {
		lk, err := Acquire(d, Wait())
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			continue
		}
		if err != nil {
			return err
		}
		s.dirs, s.held = append(s.dirs, d), append(s.held, lk)
	}
	return nil
}

// Holds reports whether the set holds the lock of dir (a resolved path).
func (s *Set) Holds(dir string) bool { return slices.Contains(s.dirs, dir) }

// Len is the number of locks held.
func (s *Set) Len() int { return len(s.held) }

// Release drops every held lock, newest first. It is safe to call twice.
func (s *Set) Release() {
	for i := len(s.held) - 1; i >= 0; i-- {
		s.held[i].Release()
	}
	s.dirs, s.held = nil, nil
}
