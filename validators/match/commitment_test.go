package match

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

// The §7.1 conformance rows of test_commit_criteria.py.
func TestCommitConformance(t *testing.T) {
	h := func(in ...string) string {
		s, err := matchproto.CommitmentHash(in)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if h("tension resolution", "verification cost") != h("verification cost", "tension resolution") {
		t.Error("hash is not order invariant")
	}
	if h("mechanism insight") != h("  mechanism   insight  ") || h(norm.NFC.String("critérion")) != h(norm.NFD.String("critérion")) {
		t.Error("hash is not whitespace/NFC invariant")
	}
	if h("tension resolution") == h("verification cost") {
		t.Error("different criteria hash equal")
	}
	c1, _ := matchproto.BuildCommitment([]string{"x"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c2, _ := matchproto.BuildCommitment([]string{"x"}, time.Date(2026, 6, 1, 12, 34, 56, 0, time.UTC))
	if mustGet(c1, "commitment_hash") != mustGet(c2, "commitment_hash") {
		t.Error("hash covers committed_at")
	}
	for _, bad := range []any{[]any{}, []any{"ok", "   "}, []any{"same", "same "}, []any{"ok", jsonInt(3)}, "notalist"} {
		if _, err := matchproto.Canonicalize(bad); err == nil {
			t.Errorf("Canonicalize(%v) accepted", bad)
		}
	}
	c, _ := matchproto.BuildCommitment([]string{"b criterion", "a criterion"}, time.Now())
	if got := c[1].Value.([]string); got[0] != "a criterion" {
		t.Errorf("criteria not sorted: %v", got)
	}
	v := roundTrip(t, c)
	if ps := ValidateCommitment(v, ""); len(ps) != 0 {
		t.Errorf("fresh commitment invalid: %v", Messages(ps))
	}
	tampered := roundTrip(t, c).(matchproto.Object).Set("criteria", []any{"a criterion", "c criterion"})
	wantProblem(t, ValidateCommitment(tampered, ""), "does not match")
	extra := roundTrip(t, c).(matchproto.Object).Set("surprise", "x")
	wantProblem(t, ValidateCommitment(extra, ""), "unknown keys")
	badHash := roundTrip(t, c).(matchproto.Object).Set("commitment_hash", "sha256:zzz")
	wantProblem(t, ValidateCommitment(badHash, ""), "sha256:<64 hex>")
	notSorted := roundTrip(t, c).(matchproto.Object).Set("criteria", []any{"b criterion", "a criterion"})
	wantProblem(t, ValidateCommitment(notSorted, ""), "canonical sorted form")
	wantProblem(t, ValidateCommitment([]any{}, ""), "not a JSON object")
	noTime := roundTrip(t, c).(matchproto.Object).Set("committed_at", "2026-07-05T08:00:00")
	wantProblem(t, ValidateCommitment(noTime, ""), "lacks a timezone offset")
}

func roundTrip(t *testing.T, v any) any {
	t.Helper()
	d, err := matchproto.Decode(matchproto.Marshal(v))
	if err != nil {
		t.Fatal(err)
	}
	return d.Value
}

func wantProblem(t *testing.T, ps []Problem, sub string) {
	t.Helper()
	for _, p := range ps {
		if strings.Contains(p.Msg, sub) {
			return
		}
	}
	t.Errorf("no problem contains %q; got %q", sub, Messages(ps))
}
