package prior

import (
	"regexp"
	"strings"
	"testing"
)

// TestCanonicalTextIsTheReplacement holds canonicalText to the regular
// expression it spells out as a loop: lowercase, every run of characters
// outside [a-z0-9] one space, trimmed.
func TestCanonicalTextIsTheReplacement(t *testing.T) {
	re := regexp.MustCompile(`[^a-z0-9]+`)
	for _, s := range []string{
		"", " ", "---", "A", "Two-Loop  Width\tMatching!", "  leading and trailing  ",
		"ÉCOLE Normale Supérieure", "İstanbul", "K\u212a kelvin", "Σ-model (2nd ed.)",
		"x\xffy", "\xff", "a\u00a0b\u3000c", "123 456", "--a--b--", "ß straße",
		"2308.06230v2", "arXiv:2308.06230", "DOI: 10.1103/PhysRevD.1.1",
	} {
		want := strings.TrimSpace(re.ReplaceAllString(strings.ToLower(s), " "))
		if got := canonicalText(s); got != want {
			t.Errorf("canonicalText(%q) = %q, want %q", s, got, want)
		}
	}
	if got := canonicalText(5); got != "" {
		t.Errorf("canonicalText(5) = %q, want \"\"", got)
	}
}
