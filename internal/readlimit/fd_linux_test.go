package readlimit

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv("READLIMIT_POLLER_PROBE"); dir != "" {
		os.Exit(probePoller(dir))
	}
	os.Exit(m.Run())
}

// probePoller reads dir and its file a through every entry point of the
// bounded reader, then looks for an epoll descriptor among the process's
// open files: 0 when there is none, 3 when there is one, 4 when a read
// failed. It runs before the testing package starts a timer (whose first
// one also makes the runtime's epoll instance).
func probePoller(dir string) int {
	a := filepath.Join(dir, "a")
	if _, err := ReadDir(dir); err != nil {
		return 4
	}
	if _, err := ReadFile(a, Small); err != nil {
		return 4
	}
	if _, _, err := ReadFileInfo(a, Small); err != nil {
		return 4
	}
	if _, err := ReadListed(a, 0, Small); err != nil {
		return 4
	}
	fds, err := ReadDir("/proc/self/fd")
	if err != nil {
		return 4
	}
	for _, e := range fds {
		if l, _ := os.Readlink("/proc/self/fd/" + e.Name()); l == "anon_inode:[eventpoll]" {
			return 3
		}
	}
	return 0
}

// The bounded reader never registers what it reads with the runtime's
// network poller (an *os.File would: an epoll instance and an eventfd on
// the first open, an epoll_ctl for every one), since a regular file or a
// directory never waits on it: a process that only reads through it
// holds no epoll descriptor.
func TestNoPoller(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "READLIMIT_POLLER_PROBE="+dir)
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() == 3:
		t.Fatal("reading through the bounded reader made an epoll instance")
	default:
		t.Fatalf("probe: %v", err)
	}
}

// ReadDir's entries are what os.ReadDir gives, for every type of file.
func TestReadDirAsOS(t *testing.T) {
	dir := t.TempDir()
	specials(t, dir)
	for _, n := range []string{"b.py", "é.toml", "pyproject.toml"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("src", filepath.Join(dir, "lnk")); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) != 8 {
		t.Fatalf("ReadDir: %d entries, os.ReadDir %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		gi, gerr := g.Info()
		wi, werr := w.Info()
		if gerr != nil || werr != nil {
			t.Fatalf("Info: %v, %v", gerr, werr)
		}
		if g.Name() != w.Name() || g.IsDir() != w.IsDir() || g.Type() != w.Type() || fmt.Sprint(g) != fmt.Sprint(w) ||
			gi.Name() != wi.Name() || gi.Mode() != wi.Mode() || gi.Size() != wi.Size() || !gi.ModTime().Equal(wi.ModTime()) || !os.SameFile(gi, wi) {
			t.Errorf("entry %d: got %v (%v), want %v (%v)", i, g, gi.Mode(), w, wi.Mode())
		}
	}
	// An empty directory lists as an empty slice, not nil.
	empty := filepath.Join(dir, "src")
	if es, err := ReadDir(empty); es == nil || len(es) != 0 || err != nil {
		t.Errorf("ReadDir(empty) = %#v, %v", es, err)
	}
}

// ReadFileInfo's FileInfo is os's, of the file read: os.SameFile holds
// it to a later os.Stat of the path (writeback's check that the file it
// read is still the one there), and its errors are the os errors.
func TestReadFileInfoAsOS(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ir.json")
	if err := os.WriteFile(p, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	_, got, err := ReadFileInfo(p, JSON)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(got, want) || got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() || !got.ModTime().Equal(want.ModTime()) {
		t.Errorf("ReadFileInfo: %s %d %v %v, os.Stat: %s %d %v %v", got.Name(), got.Size(), got.Mode(), got.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
	}
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(p, JSON)
	var pe *fs.PathError
	if os.Getuid() != 0 && (!errors.As(err, &pe) || pe.Op != "open" || pe.Path != p || !errors.Is(err, fs.ErrPermission)) {
		t.Errorf("ReadFile(unreadable) = %v; want open's *fs.PathError", err)
	}
}
