package writeback

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/procrun"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/internal/shlex"
)

// Caller sends one request to the idea store's RPC program and returns what
// it printed. err is for a program that could not run or timed out.
type Caller interface {
	Call(ctx context.Context, request []byte) (stdout, stderr []byte, exitCode int, err error)
	// Check reports a caller that cannot possibly run (step 13).
	Check() error
}

// CommandCaller runs an argv (no shell) with the request on stdin, as the
// reference runs `node idea-rpc.mjs`.
type CommandCaller struct {
	Argv    []string
	Timeout time.Duration // 0 means 120 s, the reference's bound
	// WaitDelay bounds how long something the program left behind may
	// hold its output after it exited; 0 means the runner's default.
	WaitDelay time.Duration
}

// SplitCommand splits a configured command line into argv without a
// shell, exactly as Python's shlex.split (internal/shlex, the splitter of
// --runner templates too): whitespace separates words, quotes group, a
// backslash escapes outside single quotes (inside double quotes only \"
// and \\).
func SplitCommand(s string) ([]string, error) {
	argv, err := shlex.Split(s)
	if err != nil {
		return nil, fmt.Errorf("the RPC command %q cannot be split: %v", s, err)
	}
	if len(argv) == 0 {
		return nil, errors.New("the RPC command is empty")
	}
	return argv, nil
}

// Check finds the program on PATH and every argument that names a script
// file (a path with a separator) on disk.
func (c CommandCaller) Check() error {
	if len(c.Argv) == 0 {
		return errors.New("RPC caller not found: no command configured (pass --rpc or set NULLIUS_IDEA_RPC)")
	}
	if _, err := exec.LookPath(c.Argv[0]); err != nil {
		return fmt.Errorf("RPC caller not found: %q is not an executable program", c.Argv[0])
	}
	for _, a := range c.Argv[1:] {
		if strings.HasPrefix(a, "-") || !strings.ContainsRune(a, os.PathSeparator) {
			continue
		}
		if fi, err := os.Stat(a); err != nil || !fi.Mode().IsRegular() {
			return fmt.Errorf("RPC caller not found: %q is not a file", a)
		}
	}
	return nil
}

// Call runs the command once, through the one child-process runner: its
// own process group, killed whole on timeout or interrupt; a background
// child it leaves holding stdout is cut off after the runner's WaitDelay,
// and the reply it already wrote counts (issue 13).
func (c CommandCaller) Call(ctx context.Context, request []byte) ([]byte, []byte, int, error) {
	t := c.Timeout
	if t == 0 {
		t = 120 * time.Second
	}
	res := procrun.Run(ctx, procrun.Spec{
		Argv:      c.Argv,
		Stdin:     bytes.NewReader(request),
		Timeout:   t,
		WaitDelay: c.WaitDelay,
		// The store's reply is a JSON record; a caller that floods its
		// output is stopped at the cap instead of filling memory (issue 7).
		StdoutCap: readlimit.MaxJSON,
		StderrCap: 1 << 20,
		Label:     "idea-store RPC",
	})
	switch {
	case res.StartErr != nil:
		return nil, nil, -1, res.StartErr
	case res.Interrupted:
		return res.Stdout, res.Stderr, -1, fmt.Errorf("interrupted before the store replied; whether it committed the write is unknown (%w)", context.Cause(ctx))
	case res.TimedOut:
		return res.Stdout, res.Stderr, -1, fmt.Errorf("timed out after %s", t)
	case res.StdoutOver:
		return nil, res.Stderr, -1, fmt.Errorf("the RPC caller wrote more than %d MiB to stdout; a store reply is one JSON record", readlimit.MaxJSON>>20)
	case res.Signal != 0:
		return res.Stdout, res.Stderr, -1, fmt.Errorf("the RPC caller was killed by signal %d (%s)", int(res.Signal), res.Signal)
	}
	return res.Stdout, res.Stderr, res.ExitCode, nil
}

// Outcome is the interpretation of one RPC exchange (§3.8).
type Outcome struct {
	Exit     int            // 0 stored or replayed, 1 the store refused, 2 infrastructure failure
	Replay   bool           // the store replayed an earlier identical write
	Response map[string]any // the parsed response, nil when there was none
	Message  string         // the one-line account for stderr
}

// Interpret applies the reference's response table, in its order.
func Interpret(stdout, stderr []byte, exitCode int, callErr error, key string) Outcome {
	if callErr != nil {
		return Outcome{Exit: 2, Message: "could not run the RPC caller: " + callErr.Error()}
	}
	var resp map[string]any
	dec := json.NewDecoder(bytes.NewReader(stdout))
	dec.UseNumber()
	if err := dec.Decode(&resp); err != nil {
		resp = nil
	}
	if resp != nil && resp["error"] != nil {
		b, _ := json.Marshal(resp["error"])
		return Outcome{Exit: 1, Response: resp, Message: "store rejected the write: " + string(b)}
	}
	captured := func() string {
		return fmt.Sprintf("stdout %q, stderr %q", clip(stdout), clip(stderr))
	}
	if exitCode != 0 {
		return Outcome{Exit: 2, Message: fmt.Sprintf("RPC caller exited %d: %s", exitCode, captured())}
	}
	if resp == nil {
		return Outcome{Exit: 2, Message: "RPC caller did not return JSON on stdout: " + captured()}
	}
	res, _ := resp["result"].(map[string]any)
	idem, _ := res["idempotency"].(map[string]any)
	if idem["is_replay"] == true {
		return Outcome{Exit: 0, Replay: true, Response: resp, Message: fmt.Sprintf(
			"WARNING: the store REPLAYED an earlier identical write for idempotency key %s; nothing new was stored and the node may have changed since. To write again on purpose, re-run with --new-write", key)}
	}
	msg := fmt.Sprintf("posterior written (idempotency key %s)", key)
	if g := LifecycleGuidance(res); g != "" {
		msg += "\n" + g
	}
	return Outcome{Exit: 0, Response: resp, Message: msg}
}

// LifecycleGuidance explains where the write left the node (§3.7): admitted
// with a current posterior, or needs_refresh with a provisional one, and the
// operator's next step.
func LifecycleGuidance(result map[string]any) string {
	node, _ := result["node"].(map[string]any)
	if node == nil {
		return ""
	}
	post, _ := node["posterior"].(map[string]any)
	state, _ := node["lifecycle_state"].(string)
	status, _ := post["status"].(string)
	id, _ := node["node_id"].(string)
	line := fmt.Sprintf("node %s is now %s (posterior %s)", id, state, status)
	switch state {
	case "admitted":
		return line + ": it is rank- and allocation-eligible"
	case "needs_refresh":
		return line + ": not allocation-eligible; close the literature coverage debt (saturated survey and ledger), rebuild the matrix and write a current posterior to re-admit it (there is no needs_refresh -> admitted transition)"
	}
	return line
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}
