package match

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/procrun"
)

// Command is one judge invocation: an argv run directly (never through a
// shell), its environment, stdin and time limit. ReplyFile names the file
// the program writes its reply to; "" means the reply is its stdout.
type Command struct {
	Argv      []string
	Env       []string
	Stdin     io.Reader // nil: /dev/null
	Timeout   time.Duration
	ReplyFile string
	Label     string // names the seat when an interrupt stops it
}

// Outcome is what one invocation produced.
type Outcome struct {
	Stdout, Stderr []byte
	ExitCode       int // negative: killed by that signal, as Python's returncode
	TimedOut       bool
	Interrupted    bool  // nullius was interrupted (SIGINT, SIGTERM) and stopped the judge
	Err            error // the program could not be started
}

// Runner runs judge commands. ExecRunner is the real one; tests substitute
// stubs.
type Runner interface {
	Run(ctx context.Context, c Command) Outcome
}

// ExecRunner runs commands through the one child-process runner
// (internal/procrun): each judge in its own process group, so a timeout or
// an interrupt kills the judge and everything it spawned.
type ExecRunner struct{}

// maxOutput bounds what nullius keeps of a judge's stdout and stderr.
const maxOutput = 8 << 20

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, c Command) Outcome {
	res := procrun.Run(ctx, procrun.Spec{Argv: c.Argv, Env: c.Env, Stdin: c.Stdin, Timeout: c.Timeout,
		StdoutCap: maxOutput, StderrCap: maxOutput, Label: c.Label})
	out := Outcome{Stdout: res.Stdout, Stderr: res.Stderr, ExitCode: res.ExitCode,
		TimedOut: res.TimedOut, Interrupted: res.Interrupted, Err: res.StartErr}
	if res.Signal != 0 {
		out.ExitCode = -int(res.Signal)
	}
	return out
}

// childEnv is the environment of every judge process: the caller's, plus
// REVIEW_SWARM_NO_AUTO_CONFIG=1 so a launcher does not pick up its own
// configuration (§0.4).
func childEnv() []string {
	env := os.Environ()
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "REVIEW_SWARM_NO_AUTO_CONFIG=") {
			out = append(out, kv)
		}
	}
	return append(out, "REVIEW_SWARM_NO_AUTO_CONFIG=1")
}
