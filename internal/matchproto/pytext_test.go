package matchproto

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

// TestPySpaceClassIsIsPySpace holds the two spellings of Python's
// whitespace together: the class the statement and report patterns use
// matches exactly the code points IsPySpace accepts, and no others.
func TestPySpaceClassIsIsPySpace(t *testing.T) {
	in := regexp.MustCompile(`^[` + PySpaceClass + `]$`)
	out := regexp.MustCompile(`^[^` + PySpaceClass + `]$`)
	n := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		if want := IsPySpace(r); in.MatchString(s) != want || out.MatchString(s) == want {
			t.Errorf("%U: IsPySpace %v, [PySpaceClass] %v, [^PySpaceClass] %v", r, want, in.MatchString(s), out.MatchString(s))
		}
		if IsPySpace(r) {
			n++
		}
	}
	if n != 29 {
		t.Errorf("IsPySpace accepts %d code points; Python's str.isspace() accepts 29", n)
	}
}
