package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/procrun"
	"github.com/nullius-dev/nullius/internal/sigexit"
)

// interruptible marks a command that runs child processes and stops them
// itself when its context is cancelled (cmd.Context()). Any other command
// starts no child, so an interrupt ends it at once.
const interruptible = "interrupt"

func markInterruptible(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[interruptible] = "context"
	return cmd
}

// interrupts turns SIGINT and SIGTERM into the cancellation of the root
// command's context. An interruptible command then kills every child's
// process group (internal/procrun) and returns; nullius exits 128+signal
// with one line saying what was stopped. A second signal, or one during a
// command that runs no child, exits at once.
//
// Until a command is known to be interruptible (aware), the signals are
// caught by internal/sigexit, which exits at once with the same line and
// status and costs no thread; os/signal is started only for an
// interruptible command.
type interrupts struct {
	ctx     context.Context
	cancel  context.CancelCauseFunc
	sigs    chan os.Signal
	done    chan struct{}
	got     atomic.Int32 // the first signal's number, 0 before one
	aware   atomic.Bool  // the running command is interruptible
	stderr  io.Writer
	exit    func(int)
	exiter  bool // installed sigexit's handler (to restore it at stop)
	watched bool // os/signal delivers to sigs
}

func watchInterrupts(stderr io.Writer) *interrupts {
	ctx, cancel := context.WithCancelCause(context.Background())
	in := &interrupts{ctx: ctx, cancel: cancel, stderr: stderr, exit: os.Exit}
	in.exiter = sigexit.Install()
	return in
}

// beAware is called once the command is known: an interruptible one gets
// the signals through os/signal, so it can stop its children first.
func (in *interrupts) beAware(aware bool) {
	in.aware.Store(aware)
	if !aware || in.watched {
		return
	}
	if in.exiter {
		sigexit.Restore()
		in.exiter = false
	}
	in.sigs, in.done, in.watched = make(chan os.Signal, 2), make(chan struct{}), true
	signal.Notify(in.sigs, os.Interrupt, syscall.SIGTERM)
	go in.loop()
}

func (in *interrupts) loop() {
	for {
		select {
		case <-in.done:
			return
		case s := <-in.sigs:
			sig, _ := s.(syscall.Signal)
			if !in.got.CompareAndSwap(0, int32(sig)) || !in.aware.Load() {
				fmt.Fprintf(in.stderr, "nullius: interrupted by %s\n", signalName(sig))
				in.exit(128 + int(sig))
				return
			}
			in.cancel(fmt.Errorf("interrupted by %s", signalName(sig)))
		}
	}
}

// stop restores the default signal handling.
func (in *interrupts) stop() {
	if in.watched {
		signal.Stop(in.sigs)
		close(in.done)
	}
	if in.exiter {
		sigexit.Restore()
	}
	in.cancel(nil)
}

// result replaces a command's outcome once a signal stopped it: one line
// with the signal, the children it stopped and the command's own account,
// and the exit status 128+signal (130 for SIGINT, 143 for SIGTERM).
func (in *interrupts) result(msg string) (int, bool) {
	n := in.got.Load()
	if n == 0 {
		return 0, false
	}
	stopped, _ := procrun.Stopped()
	line := fmt.Sprintf("nullius: interrupted by %s: %s", signalName(syscall.Signal(n)), procrun.Describe(stopped))
	if msg != "" {
		line += "; " + oneLineError(msg)
	}
	fmt.Fprintln(in.stderr, line)
	return 128 + int(n), true
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// childStdin is the stdin children inherit, as the Python tools let them:
// nullius's own when it is a file or pipe, nil (/dev/null) when it is a
// terminal (see procrun.Inherit) or not a file at all.
func (a *app) childStdin() *os.File {
	f, ok := a.stdin.(*os.File)
	if !ok || procrun.Inherit(f) == nil {
		return nil
	}
	return f
}
