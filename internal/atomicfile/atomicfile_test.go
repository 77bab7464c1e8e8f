package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
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
