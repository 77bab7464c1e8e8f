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

	"github.com/nullius-dev/nullius/internal/readlimit"
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
}

// SplitCommand splits a configured command line into argv without a shell:
// whitespace separates words, single and double quotes group, a backslash
// escapes the next character outside single quotes.
func SplitCommand(s string) ([]string, error) {
	var (
		argv  []string
		cur   strings.Builder
		inArg bool
		quote rune
	)
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inArg = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inArg = true
		case r == ' ' || r == '\t' || r == '\n':
			if inArg {
				argv = append(argv, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c quote in RPC command %q", quote, s)
	}
	if inArg {
		argv = append(argv, cur.String())
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

// Call runs the command once.
func (c CommandCaller) Call(ctx context.Context, request []byte) ([]byte, []byte, int, error) {
	t := c.Timeout
	if t == 0 {
		t = 120 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Stdin = bytes.NewReader(request)
	// The store's reply is a JSON record; a caller that floods its output
	// is stopped at the cap instead of filling memory (issue 7).
	out, errb := &cappedBuffer{max: readlimit.MaxJSON}, &cappedBuffer{max: 1 << 20}
	cmd.Stdout, cmd.Stderr = out, errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.Bytes(), errb.Bytes(), -1, fmt.Errorf("timed out after %s", t)
	}
	if out.over {
		return nil, errb.Bytes(), -1, fmt.Errorf("the RPC caller wrote more than %d MiB to stdout; a store reply is one JSON record", readlimit.MaxJSON>>20)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.Bytes(), errb.Bytes(), ee.ExitCode(), nil
	}
	if err != nil {
		return nil, nil, -1, err
	}
	return out.Bytes(), errb.Bytes(), 0, nil
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

// cappedBuffer keeps the first max bytes written to it and notes overflow;
// it never fails a write, so the child is not killed by EPIPE mid-reply.
// The buffer is a field, not embedded: an embedded bytes.Buffer would
// promote ReadFrom, which io.Copy (and so os/exec) prefers to Write,
// bypassing the cap.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
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

// Bytes returns what was kept.
func (b *cappedBuffer) Bytes() []byte { return b.buf.Bytes() }
