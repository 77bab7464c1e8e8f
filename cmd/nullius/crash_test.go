package main

import (
	"os"
	"syscall"

	"github.com/nullius-dev/nullius/pipeline/absorb"
)

// installCrashPoint makes the test build of nullius kill itself with
// SIGKILL at the absorb crash point named by $NULLIUS_TEST_CRASH_AT (see
// absorb.CrashPoints), so scripts can leave an interrupted absorb behind
// and show how recover, lint and a second absorb settle it. The production
// binary has no such variable: this file is compiled into tests only.
func installCrashPoint() {
	at := os.Getenv("NULLIUS_TEST_CRASH_AT")
	if at == "" {
		return
	}
	absorb.SetCrashHook(func(point, _ string) {
		if point == at {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	})
}
