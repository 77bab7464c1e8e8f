package writeback

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/procrun/procruntest"
)

func TestMain(m *testing.M) {
	// Adopt orphans so a killed background child's pid can be proven gone.
	procruntest.BecomeSubreaper()
	m.Run()
}

// Issue 13: an RPC that replies, exits 0 and leaves a background child
// holding stdout returns once WaitDelay has passed, not when the child
// ends, and the write counts as stored; the child is killed with the
// RPC's process group.
func TestRPCLingeringChildDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	reply := `{"result": {"idempotency": {"is_replay": false}}}`
	c := CommandCaller{
		Argv:      []string{"/bin/sh", "-c", `cat > /dev/null; sleep 1000 & echo $! > "$1/bg.pid"; echo "$2"; exit 0`, "rpc", dir, reply},
		Timeout:   time.Hour,
		WaitDelay: 20 * time.Millisecond,
	}
	out, errb, code, err := c.Call(context.Background(), []byte(`{"method": "node.set_posterior"}`))
	if err != nil || code != 0 || strings.TrimSpace(string(out)) != reply {
		t.Fatalf("exit %d, stdout %q, stderr %q, err %v", code, out, errb, err)
	}
	if o := Interpret(out, errb, code, err, "k"); o.Exit != 0 || o.Replay {
		t.Fatalf("interpreted as %+v", o)
	}
	pids, err := procruntest.WaitPids(nil, filepath.Join(dir, "bg.pid"))
	must(t, err)
	if err := procruntest.AwaitGone(pids[0]); err != nil {
		t.Error(err)
	}
}

// An interrupt (nullius got SIGINT or SIGTERM) stops the RPC and says the
// outcome is unknown, never that the store refused.
func TestRPCInterrupted(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		_, _, _, err := CommandCaller{Argv: []string{"/bin/sh", "-c", `echo $$ > "$1/rpc.pid"; exec sleep 1000`, "rpc", dir}}.Call(ctx, nil)
		done <- err
	}()
	pids, err := procruntest.WaitPids(nil, filepath.Join(dir, "rpc.pid"))
	must(t, err)
	cancel(errors.New("interrupted by SIGTERM"))
	err = <-done
	if err == nil || !strings.Contains(err.Error(), "whether it committed the write is unknown (interrupted by SIGTERM)") {
		t.Fatalf("err = %v", err)
	}
	if err := procruntest.AwaitGone(pids[0]); err != nil {
		t.Error(err)
	}
}
