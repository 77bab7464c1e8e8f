package plaintoml

import (
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Respelled is strings.ToLower's verdict, for ASCII and other parts alike.
func FuzzRespelled(f *testing.F) {
	for _, s := range []string{"tool", "TOOL", "Tool", "tools", "\u212aey", "ſ", "nullius", "NULLİUS", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, part string) {
		for _, word := range []string{"tool", "key", "nullius", "dependencies"} {
			if got, want := Respelled([]byte(part), word), part != word && strings.ToLower(part) == word; got != want {
				t.Fatalf("Respelled(%q, %q) = %v, want %v", part, word, got, want)
			}
		}
	})
}

// Walk takes the plain shape and refuses everything else, before or after
// the calls it made.
func TestWalk(t *testing.T) {
	var got []string
	ok := Walk([]byte("top = true\n[a]\nx = \"1\"\ny = ['2', \"3\"]\n[a.b.c]\nz = []\n"), func(path [][]byte) bool {
		got = append(got, "["+string(joinParts(path))+"]")
		return true
	}, func(table [][]byte, key []byte, v *unstable.Node) bool {
		got = append(got, string(joinParts(table))+":"+string(key))
		return true
	})
	if want := ":top [a] a:x a:y [a.b.c] a.b.c:z"; !ok || strings.Join(got, " ") != want {
		t.Errorf("walk = %v %q, want true %q", ok, got, want)
	}
	for _, src := range []string{
		"a = 1\n", "a = 1.5\n", "a = 2024-01-01\n", "a = {b = \"c\"}\n", "[[a]]\n", "a.b = \"c\"\n",
		"a = \"x\"\na = \"y\"\n", "[a]\n[a]\n", "a = \"x\"\n[a]\n", "[a.b]\n[a]\nb = \"x\"\n", "[a\n", "a = [1]\n",
	} {
		if Walk([]byte(src), func([][]byte) bool { return true }, func([][]byte, []byte, *unstable.Node) bool { return true }) {
			t.Errorf("%q walked; it is not plain", src)
		}
	}
}

func joinParts(parts [][]byte) []byte {
	var out []byte
	for i, p := range parts {
		if i > 0 {
			out = append(out, '.')
		}
		out = append(out, p...)
	}
	return out
}
