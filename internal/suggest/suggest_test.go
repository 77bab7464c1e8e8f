package suggest

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	flags := []string{"format", "color", "exit-zero", "show-suppressed", "config", "no-config", "fix", "diff"}
	for _, c := range []struct {
		typed string
		want  string
	}{
		{"formt", "format"},
		{"fromat", "format"},
		{"FORMAT", "format"},
		{"colour", "color"},
		{"show", "show-suppressed"},
		{"quiet", ""},
		{"fx", "fix"},
	} {
		got := strings.Join(Closest(c.typed, flags), ",")
		if !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("Closest(%q) = %q, want %q first", c.typed, got, c.want)
		}
	}
	if d := EditDistance("kitten", "sitting"); d != 3 {
		t.Errorf("EditDistance(kitten, sitting) = %d, want 3", d)
	}
	if d := EditDistance("π", ""); d != 1 {
		t.Errorf("editDistance counts runes: got %d, want 1", d)
	}
}
