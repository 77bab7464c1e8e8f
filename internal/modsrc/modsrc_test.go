package modsrc

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestGoFilesOfThisModule(t *testing.T) {
	rels := GoFiles(t, Root(t))
	for _, want := range []string{"cmd/nullius/main.go", "internal/modsrc/modsrc.go", "pyscan/parse.go"} {
		if !slices.Contains(rels, want) {
			t.Errorf("GoFiles misses %s", want)
		}
	}
}

// What the walk skips, on a tree made for it.
func TestGoFilesSkips(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"a.go", "a_test.go", "b/c.go", "b/c.py", "b/testdata/d.go", ".git/e.go",
		"b/.hidden/f.go", "node_modules/g.go", "internal/third_party/h.go",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := goFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.go", "b/c.go", "internal/third_party/h.go"}; !slices.Equal(got, want) {
		t.Fatalf("goFiles = %q, want %q", got, want)
	}
}

func TestUnder(t *testing.T) {
	for _, c := range []struct {
		rel, dir string
		want     bool
	}{
		{"pyscan/parse.go", ".", true},
		{"pyscan/parse.go", "pyscan", true},
		{"pyscan/parse.go", "pyscan/parse.go", true},
		{"pyscanner/x.go", "pyscan", false},
		{"internal/config/c.go", "internal", true},
		{"analyzers/x.go", "pyscan", false},
	} {
		if got := Under(c.rel, c.dir); got != c.want {
			t.Errorf("Under(%q, %q) = %v, want %v", c.rel, c.dir, got, c.want)
		}
	}
}
