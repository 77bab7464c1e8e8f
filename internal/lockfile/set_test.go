package lockfile

import (
	"os"
	"path/filepath"
	"testing"
)

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The lock of a directory named twice (out-dir = materials dir, or the
// same directory through a symlink) is taken once, not against itself.
func TestSetDeduplicates(t *testing.T) {
	t.Setenv("NULLIUS_LOCK_WAIT", "0s")
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	mustOK(t, os.Symlink(dir, link))
	var lk Set
	defer lk.Release()
	mustOK(t, lk.Add(dir, link, dir+"/", filepath.Join(dir, "missing")))
	mustOK(t, lk.Add(link))
	if lk.Len() != 1 {
		t.Errorf("held %d locks", lk.Len())
	}
	lk.Release()
	l, err := Acquire(dir, 0)
	mustOK(t, err)
	l.Release()
}

// A materials directory the user cannot write (an archived work
// directory) is still readable by assemble and panel: the lock is skipped
// where no lock file can be created.
func TestSetSkipsReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	mustOK(t, os.Chmod(dir, 0o555))
	defer os.Chmod(dir, 0o755)
	var lk Set
	defer lk.Release()
	if err := lk.Add(dir); err != nil || lk.Len() != 0 {
		t.Fatalf("add = %v, held %d", err, lk.Len())
	}
}
