package shortid

import "testing"

// Messages quote Pattern (the engine's own wording): it must not drift.
func TestPattern(t *testing.T) {
	if Pattern != "^[0123456789abcdefghjkmnpqrstvwxyz]{8}$" || len(Alphabet) != 32 {
		t.Fatalf("Pattern %q, %d symbols", Pattern, len(Alphabet))
	}
}
