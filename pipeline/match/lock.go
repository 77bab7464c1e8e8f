package match

import "github.com/nullius-dev/nullius/internal/lockfile"

// locks holds the nullius locks (<dir>/.nullius.lock) a step took, so two
// steps working in one match directory at once cannot interleave their
// writes or read each other's half-finished set of files (issue 7).
//
// Steps lock in one global order, work directories (materials, panel)
// before the campaign's matches directory, so two steps never wait on each
// other in a cycle; and every wait is bounded anyway (lockfile.Wait).
type locks struct{ set lockfile.Set }

// add locks every existing directory of dirs not already held (see
// lockfile.Set.Add: missing and unwritable directories are skipped, one
// directory under two names is locked once).
func (l *locks) add(dirs ...string) error { return l.set.Add(dirs...) }

// release drops every held lock, newest first.
func (l *locks) release() { l.set.Release() }
