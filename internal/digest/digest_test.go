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

func TestOf(t *testing.T) {
	// sha256 of the empty input and of "abc" (FIPS 180-2 test vectors).
	for in, want := range map[string]string{
		"":    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	} {
		if got := Of([]byte(in)); got != want || !IsSHA256(got) {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
}
