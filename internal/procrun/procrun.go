// Package procrun runs the external programs nullius drives (gaia, the
// idea-store RPC, judge runners): one implementation of starting a child,
// bounding it and stopping it, so the three callers cannot drift apart.
//
// Every child runs in its own process group. A timeout or a cancelled
// context kills the whole group (SIGKILL), so nothing the child started
// outlives the call; when the child exits, whatever it left behind in its
// group is killed too. WaitDelay bounds how long a grandchild that
// inherited the output pipes can hold them after the child is gone or
// killed. Output is captured up to a cap and never fails the child's
// writes (a flood is truncated, not turned into EPIPE mid-reply).
//
// A context cancelled from outside (nullius interrupted by SIGINT or
// SIGTERM) is reported as Interrupted, distinct from TimedOut, and the
// run is remembered so the CLI can say what it stopped (Stopped).
package procrun

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
)

// DefaultWaitDelay is how long a child's output pipes may stay open after
// the child exited or was killed, before they are closed under whatever
// still holds them.
const DefaultWaitDelay = 5 * time.Second

// DefaultCap bounds what is kept of each output stream.
const DefaultCap = 8 << 20

// Spec is one child process.
type Spec struct {
	Argv []string // program first; a name without a slash is looked up on PATH
	Dir  string   // working directory; "" inherits nullius's
	Env  []string // nil inherits nullius's environment
	// Stdin is the child's standard input: nil gives it /dev/null; an
	// *os.File is handed over as is (inherited), anything else is copied.
	Stdin io.Reader
	// Timeout bounds the run; 0 means only ctx bounds it.
	Timeout time.Duration
	// WaitDelay overrides DefaultWaitDelay (tests use a short one).
	WaitDelay time.Duration
	// StdoutCap and StderrCap bound the kept output; 0 means DefaultCap.
	StdoutCap, StderrCap int
	// Label names the child in the interruption report ("judge kimi");
	// "" uses the program's base name.
	Label string
}

// Result is what one run produced. Exactly one of StartErr, TimedOut,
// Interrupted, or an exit (ExitCode >= 0, or Signal != 0) describes how it
// ended.
type Result struct {
	Stdout, Stderr []byte
	StdoutOver     bool // stdout went past its cap and was truncated
	StderrOver     bool
	ExitCode       int            // the exit status; -1 when the child did not exit on its own
	Signal         syscall.Signal // the signal that ended the child, when one did and we did not send it
	TimedOut       bool           // Timeout elapsed and the group was killed
	Interrupted    bool           // ctx was cancelled and the group was killed
	StartErr       error          // the program could not be started (not found, not executable, ...)
	Lingered       bool           // the child exited but something it started held its output past WaitDelay
	Pid            int            // the child's pid (and process group), 0 when it never started
}

// Run starts s and waits for it. It never returns before the child has
// been reaped; a start failure is reported as such however long it took.
func Run(ctx context.Context, s Spec) Result {
	res := Result{ExitCode: -1}
	if len(s.Argv) == 0 {
		res.StartErr = errors.New("empty command")
		return res
	}
	if err := ctx.Err(); err != nil { // interrupted before it began: start nothing
		res.Interrupted = true
		return res
	}
	parent := ctx
	var cancel context.CancelFunc
	if s.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()

	// Not exec.CommandContext: it refuses to start once ctx is done, and
	// a program that cannot start must be reported as such whatever the
	// clock says (issue 14: a slow failing start under load was taken for
	// a timeout). The watcher below does what its Cancel would.
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	cmd.Stdin = s.Stdin
	cmd.WaitDelay = s.WaitDelay
	if cmd.WaitDelay <= 0 {
		cmd.WaitDelay = DefaultWaitDelay
	}
	ownGroup(cmd)
	so := &capped{max: orCap(s.StdoutCap)}
	se := &capped{max: orCap(s.StderrCap)}
	cmd.Stdout, cmd.Stderr = so, se

	if err := cmd.Start(); err != nil {
		res.StartErr = err
		return res
	}
	res.Pid = cmd.Process.Pid
	id := track(s.label(), res.Pid)
	var killed atomic.Bool
	reaped, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			// The whole group: the child and everything it started. After
			// the kill, WaitDelay bounds how long an escaped process may
			// hold the pipes.
			if killGroup(res.Pid) == nil {
				killed.Store(true)
			}
		case <-reaped:
		}
	}()
	err := cmd.Wait()
	close(reaped)
	<-watched
	// Whatever the child left in its group dies with it: a background
	// process holding our pipes, a daemon it forgot. Its pgid cannot have
	// been reused while a member lived; an empty group is ESRCH.
	_ = killGroup(res.Pid)
	untrack(id)

	res.Stdout, res.Stderr = so.buf.Bytes(), se.buf.Bytes()
	res.StdoutOver, res.StderrOver = so.over, se.over
	st := cmd.ProcessState
	exited := st != nil && st.Exited()
	switch {
	case exited:
		// The child finished on its own, even if the deadline or an
		// interrupt came while a grandchild still held its output.
		res.ExitCode = st.ExitCode()
		res.Lingered = errors.Is(err, exec.ErrWaitDelay) || killed.Load()
	case killed.Load() && parent.Err() != nil:
		res.Interrupted = true
		noteStopped(s.label())
	case killed.Load():
		res.TimedOut = true
	default:
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = ws.Signal()
		}
	}
	return res
}

func (s Spec) label() string {
	if s.Label != "" {
		return s.Label
	}
	return filepath.Base(s.Argv[0])
}

func orCap(n int) int {
	if n > 0 {
		return n
	}
	return DefaultCap
}

// capped keeps the first max bytes written to it and notes overflow; it
// never fails a write, so the child is not killed by EPIPE mid-reply. The
// buffer is a field, not embedded: an embedded bytes.Buffer would promote
// ReadFrom, which io.Copy (and so os/exec) prefers to Write, bypassing the
// cap (issue 7).
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *capped) Write(p []byte) (int, error) {
	room := b.max - b.buf.Len()
	if len(p) > room {
		b.over = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

// The children alive now, and the ones an interrupt stopped, for the
// CLI's one-line account of an interruption. live is made by the first
// track, not at every process start.
var (
	mu      sync.Mutex
	nextID  int
	live    map[int]string
	stopped []string
)

func track(label string, pid int) int {
	mu.Lock()
	defer mu.Unlock()
	nextID++
	if live == nil {
		live = map[int]string{}
	}
	live[nextID] = label
	return nextID
}

func untrack(id int) {
	mu.Lock()
	defer mu.Unlock()
	delete(live, id)
}

func noteStopped(label string) {
	mu.Lock()
	defer mu.Unlock()
	stopped = append(stopped, label)
}

// Stopped lists, in the order they ended, the children an interrupt
// killed (their labels), and how many are still running.
func Stopped() (labels []string, running int) {
	mu.Lock()
	defer mu.Unlock()
	return append([]string(nil), stopped...), len(live)
}

// Describe renders Stopped for a message: "stopped 3 child processes
// (judge gpt, judge kimi, judge glm)", or that none was running.
func Describe(labels []string) string {
	switch len(labels) {
	case 0:
		return "no child process was running"
	case 1:
		return "stopped 1 child process (" + labels[0] + ")"
	}
	labels = slices.Sorted(slices.Values(labels))
	return "stopped " + strconv.Itoa(len(labels)) + " child processes (" + strings.Join(labels, ", ") + ")"
}

// Inherit returns f as a child's stdin when it is not a terminal, nil
// (/dev/null) when it is: every child runs in its own process group, which
// is a background group for the terminal, and a background read from a
// terminal stops the reader (SIGTTIN) until the timeout kills it.
func Inherit(f *os.File) io.Reader {
	if f == nil || isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()) {
		return nil
	}
	return f
}
