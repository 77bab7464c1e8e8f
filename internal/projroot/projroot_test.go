package projroot

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestInitAndFind(t *testing.T) {
	dir := t.TempDir()
	if _, ok := Find(dir); ok {
		t.Skip("the temp directory already sits under a .nullius/ directory")
	}
	// An existing .gitignore without a final newline keeps its bytes; only
	// the missing patterns are appended, once.
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("bin\n/.nullius/journal/"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".nullius/", ".nullius/README.md"}; !slices.Equal(res.Created, want) {
		t.Errorf("created %v, want %v", res.Created, want)
	}
	if want := []string{".nullius.lock", ".*.tmp-*", ".nullius-scaffold-*/"}; !slices.Equal(res.Added, want) {
		t.Errorf("added %v, want %v", res.Added, want)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	want := "bin\n/.nullius/journal/\n\n" + ignoreHeader + "\n.nullius.lock\n.*.tmp-*\n.nullius-scaffold-*/\n"
	if string(got) != want {
		t.Errorf(".gitignore = %q, want %q", got, want)
	}
	if fi, _ := os.Stat(filepath.Join(dir, ".gitignore")); fi.Mode().Perm() != 0o600 {
		t.Errorf(".gitignore mode %v, want the file's own 0600 kept", fi.Mode().Perm())
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if root, ok := Find(sub); !ok || root != dir {
		t.Errorf("Find(%q) = %q, %v; want %q", sub, root, ok, dir)
	}
	again, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Created)+len(again.Updated) != 0 || len(again.Unchanged) != 3 {
		t.Errorf("second Init changed something: %+v", again)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(after) != want {
		t.Errorf("second Init rewrote .gitignore: %q", after)
	}
	// A nested root names the enclosing one.
	nested, err := Init(sub)
	if err != nil {
		t.Fatal(err)
	}
	if nested.Enclosing != dir {
		t.Errorf("enclosing = %q, want %q", nested.Enclosing, dir)
	}
}

// A regular file named .nullius is not a marker and stops Init.
func TestMarkerFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Marker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if root, ok := Find(dir); ok && root == dir {
		t.Error("a .nullius file counted as a marker")
	}
	if _, err := Init(dir); err == nil {
		t.Error("Init accepted a .nullius file")
	}
}

func TestFind(t *testing.T) {
	tmp := t.TempDir()
	os.Mkdir(filepath.Join(tmp, ".nullius"), 0o755)
	pkg := filepath.Join(tmp, "ideas", "deep", "my-idea-gaia")
	os.MkdirAll(pkg, 0o755)
	if root, ok := Find(pkg); !ok || root != tmp {
		t.Errorf("Find = %q, %v; want %q", root, ok, tmp)
	}
	// A regular file named .nullius is not a marker.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, ".nullius"), nil, 0o644)
	if root, ok := Find(other); ok {
		t.Errorf("Find with a .nullius file = %q, want none", root)
	}
	// The package itself counts first.
	os.Mkdir(filepath.Join(pkg, ".nullius"), 0o755)
	if root, _ := Find(pkg); root != pkg {
		t.Errorf("Find = %q, want the package itself", root)
	}
}
