package match

import (
	"context"
	"fmt"
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

// ShellSplit splits a --runner template like Python's shlex.split (POSIX
// mode): whitespace separates words, single quotes are literal, double
// quotes allow \" \\ \$ \` escapes, a backslash outside quotes escapes the
// next character. Nothing is expanded and no shell runs.
func ShellSplit(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					cur.WriteByte(s[i])
				}
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("no closing quotation in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("no closing quotation in %q", s)
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
