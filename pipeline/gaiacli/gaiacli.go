// Package gaiacli drives the external `gaia` program (gaia-lang 0.5.0a4): the
// version banner, `gaia build compile|check`, `gaia run infer|render` and
// `gaia build init`. It runs the binary directly (never through a shell),
// captures its output and bounds every call with a timeout (gaia-discipline.md
// §0.4, §3.2 steps 3-9). It knows nothing about the discipline: callers
// decide what a failure means.
package gaiacli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/procrun"
)

// PinnedVersion is the only gaia-lang release the discipline is written for.
const PinnedVersion = "0.5.0a4"

// InstallHint is the recipe printed whenever the pinned gaia cannot be used.
// It names the exact pin so the user can copy it.
const InstallHint = `install the pinned gaia with: uv venv .gaia-venv --python 3.12 && uv pip install --python .gaia-venv/bin/python "gaia-lang==0.5.0a4", then pass --gaia .gaia-venv/bin/gaia (or set GAIA_BIN)`

// Default timeouts (§3.2): the version banner must come back within a
// minute; compile, check and infer get ten minutes each.
const (
	DefaultVersionTimeout = 60 * time.Second
	DefaultStageTimeout   = 600 * time.Second
	DefaultInitTimeout    = 300 * time.Second
)

// Result is what one finished gaia invocation produced. A non-zero ExitCode
// is not an error of the driver: the caller reports it as the stage failing.
type Result struct {
	Args     []string // the full argument vector, program first
	Stdout   []byte
	Stderr   []byte
	ExitCode int
}

// Command renders Args for messages, e.g. "gaia build compile /p".
func (r Result) Command() string { return strings.Join(r.Args, " ") }

// Output is the child's stdout followed by its stderr, trimmed, for showing
// the tool's own words under a failure message.
func (r Result) Output() string {
	var parts []string
	for _, b := range [][]byte{r.Stdout, r.Stderr} {
		if s := strings.TrimRight(string(b), " \t\r\n"); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// RunError means gaia could not be run to completion: it could not be
// started, or it ran past its timeout and was killed.
type RunError struct {
	Args     []string
	TimedOut bool
	Timeout  time.Duration
	Err      error
}

func (e *RunError) Error() string {
	cmd := strings.Join(e.Args, " ")
	if e.TimedOut {
		return fmt.Sprintf("could not run `%s`: timed out after %d s", cmd, int(e.Timeout.Seconds()))
	}
	if errors.Is(e.Err, context.Canceled) {
		return fmt.Sprintf("`%s` was interrupted", cmd)
	}
	return fmt.Sprintf("could not run `%s`: %v", cmd, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// Gaia is the driver interface the pipeline steps use; tests substitute a
// fake. Version returns the raw banner (stdout, or stderr when stdout is
// empty); its exit status is ignored, as in the reference.
type Gaia interface {
	Version(ctx context.Context) (string, error)
	Compile(ctx context.Context, pkg string) (Result, error)
	Check(ctx context.Context, pkg string) (Result, error)
	Infer(ctx context.Context, pkg string) (Result, error)
	Render(ctx context.Context, pkg string) (Result, error)
	Init(ctx context.Context, dir, name string) (Result, error)
}

// CLI runs a real gaia executable. Zero timeouts mean the defaults.
type CLI struct {
	Bin            string // path or name of the executable
	VersionTimeout time.Duration
	StageTimeout   time.Duration
	RenderTimeout  time.Duration // `gaia run render`; 0 means StageTimeout
	InitTimeout    time.Duration
}

var _ Gaia = (*CLI)(nil)

// Version runs `gaia --version`.
func (c *CLI) Version(ctx context.Context) (string, error) {
	r, err := c.run(ctx, "", or(c.VersionTimeout, DefaultVersionTimeout), "--version")
	if err != nil {
		return "", err
	}
	if len(bytes.TrimSpace(r.Stdout)) == 0 {
		return string(r.Stderr), nil
	}
	return string(r.Stdout), nil
}

// Compile runs `gaia build compile <pkg>`.
func (c *CLI) Compile(ctx context.Context, pkg string) (Result, error) {
	return c.run(ctx, "", or(c.StageTimeout, DefaultStageTimeout), "build", "compile", pkg)
}

// Check runs `gaia build check <pkg>`.
func (c *CLI) Check(ctx context.Context, pkg string) (Result, error) {
	return c.run(ctx, "", or(c.StageTimeout, DefaultStageTimeout), "build", "check", pkg)
}

// Infer runs `gaia run infer <pkg>`.
func (c *CLI) Infer(ctx context.Context, pkg string) (Result, error) {
	return c.run(ctx, "", or(c.StageTimeout, DefaultStageTimeout), "run", "infer", pkg)
}

// Render runs `gaia run render --target docs <pkg>` (presentation only).
func (c *CLI) Render(ctx context.Context, pkg string) (Result, error) {
	return c.run(ctx, "", or(c.RenderTimeout, or(c.StageTimeout, DefaultStageTimeout)), "run", "render", "--target", "docs", pkg)
}

// Init runs `gaia build init <name>` inside dir.
func (c *CLI) Init(ctx context.Context, dir, name string) (Result, error) {
	return c.run(ctx, dir, or(c.InitTimeout, DefaultInitTimeout), "build", "init", name)
}

// run executes the binary with args, never through a shell, through the
// one child-process runner: its own process group, killed whole on timeout
// or interrupt (a compile that spawned `uv sync` does not outlive us), and
// a grandchild holding the pipes is cut off after the runner's WaitDelay.
func (c *CLI) run(ctx context.Context, dir string, timeout time.Duration, args ...string) (Result, error) {
	res := Result{Args: append([]string{c.Bin}, args...)}
	out := procrun.Run(ctx, procrun.Spec{Argv: res.Args, Dir: dir, Timeout: timeout, Label: "gaia " + strings.Join(args, " ")})
	res.Stdout, res.Stderr = out.Stdout, out.Stderr
	switch {
	case out.StartErr != nil:
		return res, &RunError{Args: res.Args, Err: out.StartErr}
	case out.TimedOut:
		return res, &RunError{Args: res.Args, TimedOut: true, Timeout: timeout, Err: context.DeadlineExceeded}
	case out.Interrupted: // not a verdict on the package
		return res, &RunError{Args: res.Args, Err: context.Canceled}
	case out.Signal != 0: // killed by a signal: still a failed stage
		res.ExitCode = 128
		return res, nil
	}
	res.ExitCode = out.ExitCode
	return res, nil
}

func or(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
