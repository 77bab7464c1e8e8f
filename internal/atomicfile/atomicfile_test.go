package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteFileReplaces(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(got) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("got %q mode %v", got, fi.Mode())
	}
	assertNoTemps(t, filepath.Dir(p))
}

func TestWriteNewRefusesExisting(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	if err := WriteNew(p, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteNew(p, []byte("second"), 0o644)
	if !errors.Is(err, ErrExists) {
		t.Fatalf("second WriteNew error = %v, want ErrExists", err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != "first" {
		t.Fatalf("existing file changed to %q", got)
	}
	assertNoTemps(t, dir)
}

func TestWriteFileMissingDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "such", "dir", "x")
	if err := WriteFile(p, []byte("x"), 0o644); err == nil {
		t.Fatal("want an error for a missing directory")
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if filepath.Ext(e.Name()) != ".json" {
			t.Errorf("leftover file %s", e.Name())
		}
	}
}

// A killed writer's temporary files are found by TempPattern and removed
// by RemoveTemps; other files, even with glob characters in the name, stay.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "m[1]*.json")
	other := filepath.Join(dir, "m1x.json")
	for _, p := range []string{target, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	left, err := writeTemp(target, []byte("half"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	otherTemp, err := writeTemp(other, []byte("half"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveTemps(target)
	if err != nil || len(removed) != 1 || removed[0] != left {
		t.Fatalf("RemoveTemps = %v, %v; want [%s]", removed, err, left)
	}
	for _, p := range []string{target, other, otherTemp} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %v", p, err)
		}
	}
	if removed, err := RemoveTemps(target); err != nil || len(removed) != 0 {
		t.Fatalf("second RemoveTemps = %v, %v", removed, err)
	}
}

// A destination that exists and is not a regular file is never replaced:
// renamed over, a device node such as /dev/null would become a plain file
// for every process on the machine. (A FIFO stands in for the device: a
// test must not risk /dev/null itself.)
func TestWriteFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, sub, link} {
		err := WriteFile(p, []byte("x"), 0o644)
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			t.Errorf("%s: err = %v, want a NotRegularError", p, err)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
