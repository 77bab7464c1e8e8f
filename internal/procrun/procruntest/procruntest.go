// Package procruntest holds what tests of child-process handling share:
// waiting for pid files a stub writes, and proving by pid that a process
// is gone.
package procruntest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// watchdog bounds a wait that only a defect makes long: it turns a hang
// into a failure; no assertion depends on how fast a correct run is.
const watchdog = 2 * time.Minute

// BecomeSubreaper makes this process adopt the orphans of its
// descendants, so a killed grandchild's zombie is ours to reap and
// kill(pid, 0) can report ESRCH for it (Linux; elsewhere a no-op that
// reports false).
func BecomeSubreaper() bool {
	return becomeSubreaper()
}

// WaitPids waits until every file in paths holds a pid (a stub writes it
// once it runs) and returns them. done, when it fires first, means the
// process under test ended before its stubs were all running.
func WaitPids(done <-chan struct{}, paths ...string) ([]int, error) {
	deadline := time.Now().Add(watchdog)
	pids := make([]int, len(paths))
	for i, p := range paths {
		for {
			b, err := os.ReadFile(p)
			if n, convErr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && convErr == nil && n > 0 {
				pids[i] = n
				break
			}
			select {
			case <-done:
				return nil, fmt.Errorf("the process under test ended before %s was written", p)
			case <-time.After(2 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("%s was never written", p)
			}
		}
	}
	return pids, nil
}

// AwaitGone waits until pid no longer exists: kill(pid, 0) reports ESRCH.
// A zombie child of ours (an orphan adopted as subreaper) is reaped on the
// way. It fails only if the process is still there after the watchdog.
func AwaitGone(pid int) error {
	deadline := time.Now().Add(watchdog)
	for {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pid %d is still alive (kill(pid, 0) = %v, state %s)", pid, err, state(pid))
		}
		time.Sleep(time.Millisecond)
	}
}

// Gone reports whether pid is dead now, counting a zombie someone else
// must reap as dead.
func Gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	return state(pid) == "Z"
}

func state(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "?"
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return "?"
}
