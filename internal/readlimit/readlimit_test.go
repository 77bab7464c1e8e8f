package readlimit

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		size int
		max  int64
		want string // "" for success
	}{
		{"empty", 0, 10, ""},
		{"at the cap", 10, 10, ""},
		{"one over", 11, 10, "is 11 bytes; nullius reads at most 10 bytes for a thing (see --help)"},
		{"far over", 5000, 10, "is 5000 bytes; nullius reads at most 10 bytes for a thing (see --help)"},
		{"MiB cap", 2 << 20, 1 << 20, "is 2097152 bytes; nullius reads at most 1 MiB for a thing (see --help)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			data := []byte(strings.Repeat("x", tc.size))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Read(p, "thing", tc.max)
			if tc.want == "" {
				if err != nil || string(b) != string(data) {
					t.Fatalf("Read = %d bytes, %v", len(b), err)
				}
				return
			}
			var tl *TooLargeError
			if !errors.As(err, &tl) || err.Error() != p+" "+tc.want {
				t.Fatalf("Read error %v, want %q", err, p+" "+tc.want)
			}
			if b != nil {
				t.Error("returned data with the error")
			}
		})
	}
}

// Anything that is not a regular file is refused before it is opened: a
// FIFO with no writer would block the open forever, /dev/zero never ends.
// specials makes a FIFO and a symlink to /dev/zero in dir.
func specials(t *testing.T, dir string) (fifo, link string) {
	t.Helper()
	fifo, link = filepath.Join(dir, "fifo"), filepath.Join(dir, "zero.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	return fifo, link
}

func TestReadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo, link := specials(t, dir)
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct{ path, what string }{
		{"/dev/zero", "a character device"},
		{"/dev/null", "a character device"},
		{fifo, "a FIFO"},
		{link, "a character device"},
		{sock, "a socket"},
		{dir, "a directory"},
	} {
		b, err := ReadFile(tc.path, JSON)
		var nr *NotRegularError
		want := tc.path + " is " + tc.what + ", not a regular file; nullius reads only regular files"
		if !errors.As(err, &nr) || err.Error() != want || b != nil || !Refused(err) {
			t.Errorf("ReadFile(%s) = %d bytes, %v; want %q", tc.path, len(b), err, want)
		}
	}
}

// The path swapped between the stat and the open: a FIFO put there does
// not block the open (O_NONBLOCK) and is refused by the fstat check; a
// different regular file is refused as replaced.
func TestReadRace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in.json")
	other := filepath.Join(dir, "other.json")
	for _, tc := range []struct {
		name string
		swap func(string)
		want string
	}{
		{"fifo", func(p string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}, p + " is a FIFO, not a regular file; nullius reads only regular files"},
		{"file", func(p string) {
			if err := os.Rename(other, p); err != nil {
				t.Fatal(err)
			}
		}, p + " was replaced while nullius opened it; nullius reads only a regular file that stays put, so run again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(p)
			if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(other, []byte("[]"), 0o644); err != nil {
				t.Fatal(err)
			}
			testHookAfterStat = tc.swap
			defer func() { testHookAfterStat = nil }()
			b, err := ReadFile(p, JSON)
			if err == nil || err.Error() != tc.want || !Refused(err) || b != nil {
				t.Fatalf("got %d bytes, %v; want %q", len(b), err, tc.want)
			}
		})
	}
}

// A file that grows past the cap after it was sized is still bounded by
// the read itself, and one that grows within the cap is read whole.
func TestReadGrowing(t *testing.T) {
	_, err := readCapped(strings.NewReader(strings.Repeat("x", 5000)), "grow", "thing", 2, 1000)
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != "grow is more than 1000 bytes; nullius reads at most 1000 bytes for a thing (see --help)" {
		t.Fatalf("got %v", err)
	}
	b, err := readCapped(strings.NewReader(strings.Repeat("y", 900)), "grow", "thing", 2, 1000)
	if err != nil || string(b) != strings.Repeat("y", 900) {
		t.Fatalf("got %d bytes, %v", len(b), err)
	}
	// Sized right: one allocation of size+1, never a doubling.
	b, err = readCapped(strings.NewReader(strings.Repeat("z", 900)), "exact", "thing", 900, 1000)
	if err != nil || len(b) != 900 || cap(b) != 901 {
		t.Fatalf("got len %d cap %d, %v", len(b), cap(b), err)
	}
}

func TestReadStream(t *testing.T) {
	b, err := ReadStream(strings.NewReader("abc"), "stdin", Small)
	if err != nil || string(b) != "abc" {
		t.Fatalf("got %q, %v", b, err)
	}
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Fatal(err)
	}
	defer zero.Close()
	_, err = ReadStream(zero, "stdin", Config)
	if err == nil || err.Error() != "stdin is more than 1048576 bytes; nullius reads at most 1 MiB for a TOML configuration file (see --help)" {
		t.Fatalf("got %v", err)
	}
}

func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b", "a", "c"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	es, err := ReadDir(dir)
	if err != nil || len(es) != 3 || es[0].Name() != "a" || es[2].Name() != "c" {
		t.Fatalf("got %v, %v", es, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, filepath.Join(dir, "a"), os.DevNull} {
		_, err = ReadDir(p)
		var nd *NotDirError
		if !errors.As(err, &nd) || !Refused(err) || !strings.HasSuffix(err.Error(), ", not a directory") {
			t.Fatalf("ReadDir(%s): %v", p, err)
		}
	}
	// A missing path is the stat's error, as when ReadDir stat'ed first.
	missing := filepath.Join(dir, "missing")
	var pe *fs.PathError
	if _, err = ReadDir(missing); !errors.As(err, &pe) || pe.Op != "stat" || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadDir(%s): %v", missing, err)
	}
}

func TestReadPassesOSErrors(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "missing"), JSON)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
}

func TestKinds(t *testing.T) {
	for _, tc := range []struct {
		k    Kind
		max  int64
		name string
	}{
		{JSON, 64 << 20, "JSON artifact"}, {Small, 4 << 20, "roster, commitment, vote or payload"}, {Markdown, 8 << 20, "Markdown material"},
		{Config, 1 << 20, "TOML configuration file"}, {Python, 8 << 20, "Python source file"},
	} {
		if tc.k.Max() != tc.max || tc.k.Name() != tc.name {
			t.Errorf("kind %d: %d %q", tc.k, tc.k.Max(), tc.k.Name())
		}
	}
	p := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: over the cap without writing 4 MiB.
	if err := f.Truncate(MaxSmall + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(p, Small)
	if err == nil || err.Error() != p+" is 4194305 bytes; nullius reads at most 4 MiB for a roster, commitment, vote or payload (see --help)" {
		t.Fatalf("got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("{}"), int64(2))
	f.Add([]byte("abc"), int64(2))
	f.Add([]byte{}, int64(0))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, max int64) {
		if max < 0 || max > 1<<16 {
			return
		}
		p := filepath.Join(dir, "in")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Read(p, "x", max)
		if int64(len(data)) <= max {
			if err != nil || string(b) != string(data) {
				t.Fatalf("len %d max %d: %v", len(data), max, err)
			}
		} else if _, ok := err.(*TooLargeError); !ok || b != nil {
			t.Fatalf("len %d max %d: %v", len(data), max, err)
		}
	})
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok")
	if err := os.WriteFile(ok, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxConfig+1); err != nil {
		t.Fatal(err)
	}
	if err := Check(ok, Config); err != nil {
		t.Errorf("ok: %v", err)
	}
	for _, p := range []string{big, "/dev/zero", dir} {
		if err := Check(p, Config); !Refused(err) {
			t.Errorf("%s: %v", p, err)
		}
	}
	if err := Check(filepath.Join(dir, "missing"), Config); !errors.Is(err, fs.ErrNotExist) || Refused(err) {
		t.Errorf("missing: %v", err)
	}
}

func TestObserve(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(p, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []int64
	Observe(func(total int64) { seen = append(seen, total) })
	defer Observe(nil)
	if _, err := ReadFile(p, Small); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStream(strings.NewReader("abc"), "stdin", Small); err != nil {
		t.Fatal(err)
	}
	_, _ = ReadFile("/dev/zero", Small) // refused: not counted
	if len(seen) != 2 || seen[1]-seen[0] != 3 {
		t.Fatalf("observed %v", seen)
	}
	Observe(nil)
	if _, err := ReadFile(p, Small); err != nil || len(seen) != 2 {
		t.Fatalf("observer still called: %v", seen)
	}
}

// ReadListed takes a listing's word for a regular file instead of a stat,
// and keeps every refusal: a FIFO behind a listing that said regular (a
// name replaced after it was listed) is opened without blocking and
// refused by the fstat, a listed FIFO or symlink goes through ReadFile's
// stat, and a file over the cap is refused.
func TestReadListed(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "a.py"), filepath.Join(dir, "big.toml")
	for p, data := range map[string][]byte{small: []byte("x = 1\n"), big: make([]byte, Config.Max()+1)} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo, link := specials(t, dir)
	stats := 0
	testHookAfterStat = func(string) { stats++ }
	defer func() { testHookAfterStat = nil }()
	if b, err := ReadListed(small, 0, Python); err != nil || string(b) != "x = 1\n" || stats != 0 {
		t.Errorf("ReadListed(regular) = %q, %v after %d stats; want the contents and no stat", b, err, stats)
	}
	var tl *TooLargeError
	if _, err := ReadListed(big, 0, Config); !errors.As(err, &tl) {
		t.Errorf("ReadListed(too large) = %v", err)
	}
	var nr *NotRegularError
	for _, tc := range []struct {
		path string
		typ  fs.FileMode
	}{{fifo, 0}, {fifo, fs.ModeNamedPipe}, {link, fs.ModeSymlink}, {os.DevNull, fs.ModeDevice | fs.ModeCharDevice}} {
		if b, err := ReadListed(tc.path, tc.typ, Python); !errors.As(err, &nr) || b != nil {
			t.Errorf("ReadListed(%s, %v) = %d bytes, %v; want a refusal", tc.path, tc.typ, len(b), err)
		}
	}
}
