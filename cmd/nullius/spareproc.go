package main

import (
	"runtime"
	"sync"
)

// spareProc returns lint's Options.Parallel, which gives the Go scheduler
// one P more than lint has workers while they run, or nil when the user
// set GOMAXPROCS. A run of one package starts no workers, so its start is
// not charged for the change (~0.1-0.3 ms).
//
// Why: a lint worker spends most of its time in tree-sitter's parse, a cgo
// call, which the runtime accounts as a system call. While no P is idle,
// sysmon takes the P of every such call back once it has run 20 µs and,
// having found work, keeps waking every 20 µs instead of backing off, each
// wakeup preempting a parse on one of the CPUs: on two CPUs, ~4,000
// wakeups and 10,000 context switches in a 0.7 s run of the large-file
// corpus (issue 15). With one P idle, the runtime leaves a P in a cgo call
// alone (for up to 10 ms; pyparse.ParseWith yields between files so no
// parse runs 10 ms on one scheduling tick) and sysmon backs off to its
// long sleep: ~1,000 context switches, ~15 % less wall time on that
// corpus. The spare P runs Go code only while a worker is between parses
// or the collector runs, so the workers still bound the parallelism.
// `make bench` measures the floor (internal/benchcorpus/cmd/parseonly)
// with the same spare P.
//
// Runs in one process (in-process tests, `lint --fix` linting again)
// share one change: the first raises GOMAXPROCS, the last restores it.
// The language server sets no Parallel hook and keeps its GOMAXPROCS.
func spareProc(getenv func(string) string) func() (done func()) {
	if getenv("GOMAXPROCS") != "" {
		return nil
	}
	return holdSpareProc
}

// holdSpareProc raises GOMAXPROCS by one unless a run holds it raised
// already, and returns the function that lets it go.
func holdSpareProc() (done func()) {
	spare.mu.Lock()
	defer spare.mu.Unlock()
	if spare.users == 0 {
		spare.base = runtime.GOMAXPROCS(0)
		runtime.GOMAXPROCS(spare.base + 1)
	}
	spare.users++
	return sync.OnceFunc(releaseProc)
}

// spare counts the runs that hold the spare P and what GOMAXPROCS was
// before the first of them.
var spare struct {
	mu    sync.Mutex
	users int
	base  int
}

func releaseProc() {
	spare.mu.Lock()
	defer spare.mu.Unlock()
	if spare.users--; spare.users == 0 {
		runtime.GOMAXPROCS(spare.base)
	}
}
