package report

import (
	"strings"
	"testing"
)

// RPo1–RPo4 and the §4.1 examples.
func TestNormalizePosteriors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Posterior value: `0.9255435028366992`.\n", "Posterior value: `0.926`.\n"},
		{"Posterior value: 0.123456", "Posterior value: 0.123"},
		{"Posterior value: 0.9", "Posterior value: 0.900"},
		{"* Posterior Value: 5e-1 (exact)", "* Posterior Value: 0.500 (exact)"},
		{"- **Posterior value**: `1.000`.", "- **Posterior value**: `1.000`."},
		{"Posterior value: 0.0005", "Posterior value: 0.001"},
		{"Posterior value: 0.0004999", "Posterior value: 0.000"},
		{"Posterior value: -0.0", "Posterior value: -0.000"},
		{"**Posterior value:** 0.84993", "**Posterior value:** 0.850"},
		{"Posterior: 0.84993", "Posterior: 0.84993"},
		{"| posterior value | 0.84993 |", "| posterior value | 0.84993 |"},
		{"a\r\nPosterior value: 0.5\r\n", "a\r\nPosterior value: 0.500\r\n"},
	} {
		got, _, err := NormalizePosteriors(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q -> %q, %v; want %q", tc.in, got, err, tc.want)
		}
		again, edits, _ := NormalizePosteriors(got)
		if again != got || len(edits) != 0 {
			t.Errorf("not idempotent on %q", got)
		}
	}
	_, _, err := NormalizePosteriors("x\nPosterior value: `1.234`.\n")
	if err == nil || !strings.Contains(err.Error(), "must be in [0, 1]") || err.(*RangeError).Line != 2 {
		t.Fatalf("RPo4: %v", err)
	}
}

func FuzzNormalizePosteriors(f *testing.F) {
	f.Add("Posterior value: `0.9255435028366992`.")
	f.Add("- **Posterior value**: 1e-400\nPosterior value: .5")
	f.Fuzz(func(t *testing.T, s string) {
		out, _, err := NormalizePosteriors(s)
		if err != nil {
			return
		}
		again, edits, err := NormalizePosteriors(out)
		if err != nil || again != out || len(edits) != 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", s, out, again, err)
		}
	})
}
