package main

import (
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/pipeline/writeback"
)

// A store failure never points "above" at nothing (issue 16): a refusal
// with a known reason gets its next step, one without ends with the
// store's own error, and an infrastructure failure (exit 2) carries the
// RPC caller's output and no store hint.
func TestStoreFailureMessage(t *testing.T) {
	for _, c := range []struct {
		name, stdout string
		exit         int
		want, not    string
	}{
		{"unknown reason: the store's error, in full, ends the line",
			`{"error":{"code":-32002,"message":"schema_validation_failed","data":{"reason":"node_not_found"}}}`, 1,
			`store rejected the write: {"code":-32002,"data":{"reason":"node_not_found"},"message":"schema_validation_failed"}`, "above"},
		{"known reason: the next step follows",
			`{"error":{"code":-32002,"message":"x","data":{"reason":"idempotency_key_conflict"}}}`, 1,
			"re-run with --new-write", "above"},
		{"the caller crashed: its output, no store hint",
			"not json", 3, `RPC caller exited 3: stdout "not json"`, "above"},
	} {
		oc := writeback.Interpret([]byte(c.stdout), nil, c.exit, nil, "k")
		got := storeFailure(oc)
		if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("%s: %q, want %q and no %q", c.name, got, c.want, c.not)
		}
	}
}
