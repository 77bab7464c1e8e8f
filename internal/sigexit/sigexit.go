// Package sigexit ends the process at once on SIGINT or SIGTERM, with one
// line on stderr and exit status 128+signal, without os/signal.
//
// os/signal costs every process that calls signal.Notify an OS thread
// parked for good in the runtime's signal receiver (and the handoff of a P
// to start it), ~0.3 ms of a 3.5 ms `nullius version`. Commands that start
// no child need nothing of it: a signal stops them at once. They run under
// this handler, a few lines of C installed with sigaction; a command that
// stops its children itself restores Go's handler (Restore) before it
// calls signal.Notify.
package sigexit

/*
#include <signal.h>
#include <string.h>
#include <unistd.h>

static struct sigaction sigexit_prev_int, sigexit_prev_term;

static void sigexit_handler(int sig) {
	static const char intmsg[] = "nullius: interrupted by SIGINT\n";
	static const char termmsg[] = "nullius: interrupted by SIGTERM\n";
	if (sig == SIGINT) {
		(void)!write(2, intmsg, sizeof intmsg - 1);
		_exit(128 + SIGINT);
	}
	(void)!write(2, termmsg, sizeof termmsg - 1);
	_exit(128 + SIGTERM);
}

// SA_ONSTACK: the handler may run on any thread, a goroutine's small stack
// included, so it runs on the signal stack the Go runtime gives each thread.
static void sigexit_install(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = sigexit_handler;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigfillset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &sigexit_prev_int);
	sigaction(SIGTERM, &sa, &sigexit_prev_term);
}

static void sigexit_restore(void) {
	sigaction(SIGINT, &sigexit_prev_int, NULL);
	sigaction(SIGTERM, &sigexit_prev_term, NULL);
}
*/
import "C"

import "sync"

var state struct {
	sync.Mutex
	installed bool
}

// Install makes SIGINT and SIGTERM print "nullius: interrupted by SIGINT"
// (or SIGTERM) on stderr (file descriptor 2) and exit 130 (or 143) at
// once. It reports whether it installed the handler (false when it already
// was installed).
func Install() bool {
	state.Lock()
	defer state.Unlock()
	if state.installed {
		return false
	}
	C.sigexit_install()
	state.installed = true
	return true
}

// Restore puts back the handlers Install replaced: Go's, which
// signal.Notify then uses (Go installs its own handler only once, so
// signal.Notify would not replace this one).
func Restore() {
	state.Lock()
	defer state.Unlock()
	if !state.installed {
		return
	}
	C.sigexit_restore()
	state.installed = false
}
