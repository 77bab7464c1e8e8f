package digest

import (
	"regexp"
	"strings"
	"testing"
)

// The pattern the four callers used before this package; IsSHA256 must
// accept exactly what it matches.
var pattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

var hex64 = strings.Repeat("0123456789abcdef", 4)

func TestIsSHA256(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"sha256:" + hex64, true},
		{"sha256:" + strings.Repeat("f", 64), true},
		{"sha256:" + strings.ToUpper(hex64), false},
		{"sha256:" + hex64[:63], false},
		{"sha256:" + hex64 + "0", false},
		{"sha256:" + hex64 + "\n", false},
		{"SHA256:" + hex64, false},
		{"sha512:" + hex64, false},
		{" sha256:" + hex64, false},
		{"sha256:" + hex64[:63] + "g", false},
		{"sha256:" + hex64[:62] + "é", false},
		{"", false},
		{"sha256:", false},
	} {
		if got := IsSHA256(c.s); got != c.want || got != pattern.MatchString(c.s) {
			t.Errorf("IsSHA256(%q) = %v, want %v (the pattern says %v)", c.s, got, c.want, pattern.MatchString(c.s))
		}
	}
}

func FuzzIsSHA256(f *testing.F) {
	f.Add("sha256:" + hex64)
	f.Add("sha256:" + hex64[:63] + "G")
	f.Add("sha256:" + hex64 + "\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsSHA256(s), pattern.MatchString(s); got != want {
			t.Fatalf("IsSHA256(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
