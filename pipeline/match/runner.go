package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Command is one judge invocation: an argv run directly (never through a
// shell), its environment and its time limit. ReplyFile names the file the
// program writes its reply to; "" means the reply is its stdout.
type Command struct {
	Argv      []string
	Env       []string
	Timeout   time.Duration
	ReplyFile string
}

// Outcome is what one invocation produced.
type Outcome struct {
	Stdout, Stderr []byte
	ExitCode       int
	TimedOut       bool
	Err            error // the program could not be started
}

// Runner runs judge commands. ExecRunner is the real one; tests substitute
// stubs.
type Runner interface {
	Run(ctx context.Context, c Command) Outcome
}

// ExecRunner runs commands with os/exec in their own process group, so a
// timeout kills the judge and everything it spawned.
type ExecRunner struct{}

// maxOutput bounds what nullius keeps of a judge's stdout and stderr.
const maxOutput = 8 << 20

// Run implements Runner.
func (ExecRunner) Run(ctx context.Context, c Command) Outcome {
	if len(c.Argv) == 0 {
		return Outcome{Err: errors.New("empty command")}
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Env = c.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var so, se limitedBuffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	out := Outcome{Stdout: so.Bytes(), Stderr: se.Bytes()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		out.TimedOut = true
	case errors.As(err, &ee):
		out.ExitCode = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			out.ExitCode = -int(ws.Signal())
		}
	case err != nil:
		out.Err = err
	}
	return out
}

// limitedBuffer keeps the first maxOutput bytes written to it. The buffer
// is a field, not embedded: an embedded bytes.Buffer promotes ReadFrom,
// which io.Copy (and so os/exec) prefers to Write, and the cap would be
// bypassed (issue 7).
type limitedBuffer struct{ buf bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxOutput - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}

// Bytes returns what was kept.
func (b *limitedBuffer) Bytes() []byte { return b.buf.Bytes() }

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
