// Package lockfile takes an advisory exclusive lock on a directory, so two
// nullius steps working in one match directory at once cannot interleave
// their writes (issue 7). The lock is flock(2) on <dir>/.nullius.lock: the
// kernel drops it when the holder exits or is killed, so a crashed step
// never leaves a stale lock behind, only a stale file that the next step
// locks again. The holder's pid is written into the file for the message
// a waiting step prints; it is informational, the flock is the lock.
//
// flock locks belong to an open file description, so two Acquire calls in
// one process exclude each other exactly as two processes do.
package lockfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Name is the lock file created in a locked directory.
const Name = ".nullius.lock"

// DefaultWait is how long Acquire waits for a busy lock before it gives
// up: long enough to ride out a step that is finishing, short enough that
// a user is told quickly that another step is running.
const DefaultWait = 10 * time.Second

// Wait is how long a step waits for a busy lock: $NULLIUS_LOCK_WAIT (a Go
// duration such as 0s or 2m) when set and valid, else DefaultWait. Scripts
// that would rather queue than fail raise it; tests lower it.
func Wait() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("NULLIUS_LOCK_WAIT")); err == nil && d >= 0 {
		return d
	}
	return DefaultWait
}

// pollInterval is the pause between two non-blocking tries.
const pollInterval = 50 * time.Millisecond

// Lock is a held directory lock. Release it on every return path
// (defer l.Release()).
type Lock struct {
	f    *os.File
	path string
}

// BusyError says that another step holds the lock.
type BusyError struct {
	Dir string
	PID int // 0 when the holder's pid could not be read
}

func (e *BusyError) Error() string {
	holder := "lock held by an unknown process"
	if e.PID > 0 {
		holder = "lock held by pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("another nullius step is working in %s (%s); wait for it or remove %s if no nullius is running",
		e.Dir, holder, filepath.Join(e.Dir, Name))
}

// Acquire locks dir, which must exist, waiting up to wait for a busy lock;
// wait <= 0 tries once. It returns a *BusyError when the lock stays held.
func Acquire(dir string, wait time.Duration) (*Lock, error) {
	path := filepath.Join(dir, Name)
	// O_NOFOLLOW: a symlink planted at the lock path must not make us
	// create or truncate a file elsewhere.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("could not open the lock file %q: %w", path, err)
	}
	deadline := time.Now().Add(wait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("could not lock %q: %w", path, err)
		}
		if !time.Now().Before(deadline) {
			pid := holderPID(f)
			f.Close()
			return nil, &BusyError{Dir: dir, PID: pid}
		}
		time.Sleep(pollInterval)
	}
	l := &Lock{f: f, path: path}
	if err := l.recordPID(); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// recordPID writes our pid into the held lock file for waiting steps.
func (l *Lock) recordPID() error {
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("could not write the lock file %q: %w", l.path, err)
	}
	if _, err := l.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		return fmt.Errorf("could not write the lock file %q: %w", l.path, err)
	}
	return nil
}

// holderPID reads the pid the holder recorded; 0 when there is none yet
// (the holder may be between flock and its write).
func holderPID(f *os.File) int {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Release drops the lock. The file stays: removing it would let a waiter
// that already opened it lock an unlinked file while a newcomer locks a
// fresh one. Release is safe to call twice and on a nil *Lock.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	// Closing the descriptor releases the flock.
	l.f.Close()
	l.f = nil
}

// Path is the lock file's path.
func (l *Lock) Path() string { return l.path }
