package contain

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(base, "in"), 0o755))
	must(os.Symlink(outside, filepath.Join(base, "out")))
	must(os.Symlink(filepath.Join(outside, "gone"), filepath.Join(base, "dangling")))
	must(os.Symlink("in", filepath.Join(base, "rel")))
	must(os.Symlink(filepath.Join(base, "loop"), filepath.Join(base, "loop")))
	for _, tc := range []struct {
		rel, want string
		inside    bool
	}{
		{"in", filepath.Join(base, "in"), true},
		{"in/new/file", filepath.Join(base, "in/new/file"), true},
		{"rel/x", filepath.Join(base, "in/x"), true},
		{"out", outside, false},
		{"out/x", filepath.Join(outside, "x"), false},
		{"dangling", filepath.Join(outside, "gone"), false},
		{"dangling/x", filepath.Join(outside, "gone/x"), false},
	} {
		got, err := Resolve(filepath.Join(base, tc.rel))
		if err != nil || got != tc.want || Within(got, base) != tc.inside {
			t.Errorf("Resolve(%s) = %s, %v (inside %v); want %s (inside %v)", tc.rel, got, err, Within(got, base), tc.want, tc.inside)
		}
	}
	if _, err := Resolve(filepath.Join(base, "loop")); err == nil {
		t.Error("a symlink loop resolved")
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/a/../b", "/a", false}, {"/b", "/a", false}, {"/a/..b", "/a", true},
	} {
		if got := Within(tc.path, tc.dir); got != tc.want {
			t.Errorf("Within(%s, %s) = %v", tc.path, tc.dir, got)
		}
	}
}
