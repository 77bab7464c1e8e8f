//go:build unix

package pyscan

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process has used, so
// benchmarks can report throughput per CPU second, which stays meaningful
// on a machine shared with other jobs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
