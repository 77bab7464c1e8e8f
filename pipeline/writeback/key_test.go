package writeback

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Golden vectors computed with the reference (close-prior-and-writeback.md
// §3.4): campaign c0ffee12, node n0de0001, evidence_count 2.
func TestDeriveKeyGoldenVectors(t *testing.T) {
	ref := "project://argument-graphs/my-idea-gaia#sha256:" + strings.Repeat("a", 64)
	for _, tc := range []struct {
		value float64
		repr  string
		key   string
	}{
		{0.8499370175790979, "0.8499370175790979", "idea-posterior-4f977de3521a2636bd0431ba842ef227"},
		{1, "1.0", "idea-posterior-4f91a7603ef424a3e5ebe0ad600c10ca"},
		{0.00001, "1e-05", "idea-posterior-5c5b850c7cae680790f2c93e8aa42f2e"},
		{0, "0.0", "idea-posterior-066a392500c18efc3ede6dc89c4132b9"},
	} {
		if got := pyfmt.Repr(tc.value); got != tc.repr {
			t.Errorf("pyfmt.Repr(%v) = %q, want %q", tc.value, got, tc.repr)
		}
		if got := DeriveKey("c0ffee12", "n0de0001", ref, tc.value, 2); got != tc.key {
			t.Errorf("DeriveKey(value %v) = %s, want %s", tc.value, got, tc.key)
		}
	}
}

// W12, W13, W32: deterministic, sensitive to every input, immune to
// delimiter injection.
func TestDeriveKeyProperties(t *testing.T) {
	ref := "project://example-idea-gaia#sha256:" + strings.Repeat("b", 64)
	k := DeriveKey("campaign-1", "node-7", ref, 0.5, 2)
	if k != DeriveKey("campaign-1", "node-7", ref, 0.5, 2) {
		t.Fatal("not deterministic")
	}
	for name, other := range map[string]string{
		"value":    DeriveKey("campaign-1", "node-7", ref, 0.6, 2),
		"ulp":      DeriveKey("campaign-1", "node-7", ref, 0.5000000000000001, 2),
		"campaign": DeriveKey("campaign-2", "node-7", ref, 0.5, 2),
		"node":     DeriveKey("campaign-1", "node-8", ref, 0.5, 2),
		"count":    DeriveKey("campaign-1", "node-7", ref, 0.5, 3),
	} {
		if other == k {
			t.Errorf("key does not change with %s", name)
		}
	}
	if DeriveKey("a\nb", "c", ref, 0.5, 2) == DeriveKey("a", "b\nc", ref, 0.5, 2) {
		t.Error("delimiter injection collides")
	}
	if got := KeyBasis("é", "n", "r", 1, 0); got != `["\u00e9","n","r","1.0",0]` {
		t.Errorf("basis %s", got)
	}
}

// W9: --new-write keys differ per run and keep the derived key as prefix.
func TestFreshKey(t *testing.T) {
	d := DeriveKey("c", "n", "r", 0.5, 1)
	a, _ := FreshKey(d, nil)
	b, _ := FreshKey(d, nil)
	if a == b || !strings.HasPrefix(a, d+"-fresh-") || len(a) != len(d)+len("-fresh-")+12 {
		t.Fatalf("fresh keys %q %q", a, b)
	}
	c, _ := FreshKey(d, bytes.NewReader(make([]byte, 16)))
	if c != d+"-fresh-000000000000" {
		t.Fatalf("deterministic fresh key %q", c)
	}
}
