package pyscan

import (
	"strings"
	"testing"
)

// TestASCIIPrefix holds the 32-bytes-at-a-time scan to a byte loop
// with one non-ASCII byte at every position of every length up to 40, and
// checkEncoding's ascii to the whole body being ASCII.
func TestASCIIPrefix(t *testing.T) {
	for n := 0; n <= 80; n++ {
		for at := 0; at <= n; at++ {
			src := []byte(strings.Repeat("a", n))
			if at < n {
				src[at] = 0x80 | byte(at)
			}
			if got := asciiPrefix(src); got != at {
				t.Errorf("asciiPrefix(len %d, non-ASCII at %d) = %d", n, at, got)
			}
			if _, _, ascii := checkEncoding(src); ascii != (at == n) {
				t.Errorf("checkEncoding(len %d, non-ASCII at %d): ascii %v", n, at, ascii)
			}
		}
	}
}

// TestNonASCIIModuleFolds: the ASCII shortcut leaves a module with any
// non-ASCII byte (here in a comment, far from the names) to fold its
// identifiers and look for invisible characters as before.
func TestNonASCIIModuleFolds(t *testing.T) {
	src := "ｆｏｏ = 1\nx.ｂａｒ = ｆｏｏ\n" + strings.Repeat("y = 2\n", 10) + "z = 1\u200b\n# é\n"
	m, err := ParseSource("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Root.Bindings["foo"]) != 1 || len(m.Attrs) != 1 || m.Attrs[0].Expr.Name != "bar" {
		t.Errorf("identifiers not folded: bindings %v, attrs %v", m.Root.Bindings, m.Attrs)
	}
	if len(m.Syntax) != 1 || !strings.Contains(m.Syntax[0].Msg, "U+200B") {
		t.Errorf("invisible character not reported: %v", m.Syntax)
	}
}
