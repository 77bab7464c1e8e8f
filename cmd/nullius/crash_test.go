package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nullius-dev/nullius/analyzers/fix"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/pipeline/absorb"
)

// installTestHooks gives the test build of nullius two seams the scripts
// steer through the environment. The production binary has neither
// variable: this file is compiled into tests only.
//
//   - $NULLIUS_TEST_CRASH_AT names an absorb crash point (see
//     absorb.CrashPoints): nullius kills itself with SIGKILL there, so
//     scripts can leave an interrupted absorb behind and show how recover,
//     lint and a second absorb settle it.
//   - $NULLIUS_TEST_PAUSE_AT names an absorb crash point or "fix-planned"
//     (lint --fix holding a package's lock, its plan made, nothing written):
//     nullius creates $NULLIUS_TEST_PAUSE_DIR/paused there and waits until
//     $NULLIUS_TEST_PAUSE_DIR/go exists, so a script can act while a step
//     holds its locks mid-way (another step refused or waiting, the artifact
//     edited under an absorb) without depending on timing.
func installTestHooks() {
	crashAt := os.Getenv("NULLIUS_TEST_CRASH_AT")
	pauseAt, pauseDir := os.Getenv("NULLIUS_TEST_PAUSE_AT"), os.Getenv("NULLIUS_TEST_PAUSE_DIR")
	if crashAt != "" || pauseAt != "" {
		absorb.SetCrashHook(func(point, _ string) {
			if point == crashAt {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
			if point == pauseAt {
				pause(pauseDir)
			}
		})
	}
	if pauseAt == "fix-planned" {
		fix.SetTestHook(func(point, _ string) {
			if point == "planned" {
				pause(pauseDir)
			}
		})
	}
}

// pause says it is paused and waits for the script's go. The wait is
// bounded so a broken script fails instead of hanging the test run.
func pause(dir string) {
	_ = os.WriteFile(filepath.Join(dir, "paused"), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	for range 6000 {
		if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "nullius test hook: no go file after 5 minutes")
	os.Exit(9)
}

// holdLock is the script program `holdlock DIR READY RELEASE`: it takes
// DIR's nullius lock (the lock of internal/lockfile every writer takes),
// creates READY, and holds the lock until RELEASE exists (at most 5
// minutes), standing in for another nullius step at work.
func holdLock() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: holdlock DIR READY RELEASE")
		os.Exit(2)
	}
	l, err := lockfile.Acquire(os.Args[1], 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	defer l.Release()
	if err := os.WriteFile(os.Args[2], nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for range 6000 {
		if _, err := os.Stat(os.Args[3]); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, "holdlock: no release after 5 minutes")
	os.Exit(4)
}

// lockOpeners counts the processes that have the lock file of dir open.
// A nullius step opens the lock file before it waits for the lock, so
// while a holder holds it, a second opener is a step blocked on it: the
// event a script waits for instead of sleeping.
func lockOpeners(dir string) (int, error) {
	want, err := filepath.Abs(filepath.Join(dir, lockfile.Name))
	if err != nil {
		return 0, err
	}
	if r, err := filepath.EvalSymlinks(want); err == nil {
		want = r
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue // gone, or not ours to look at
		}
		for _, fd := range fds {
			if target, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); err == nil && strings.TrimSuffix(target, " (deleted)") == want {
				n++
				break
			}
		}
	}
	return n, nil
}
