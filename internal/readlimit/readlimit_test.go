package readlimit

import (
	"errors"
	"io/fs"
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

// A file stat cannot size is bounded by the read itself.
func TestReadUnsizedInput(t *testing.T) {
	_, err := Read("/dev/zero", "thing", 1000)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "/dev/zero is more than 1000 bytes; nullius reads at most 1000 bytes") {
		t.Fatalf("got %v", err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no fifo:", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		chunk := make([]byte, 4096)
		for i := 0; i < 100; i++ {
			if _, err := f.Write(chunk); err != nil {
				return
			}
		}
	}()
	if _, err := Read(fifo, "thing", 8192); !errors.As(err, &tl) {
		t.Fatalf("fifo: %v", err)
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
	}{{JSON, 64 << 20, "JSON artifact"}, {Small, 4 << 20, "roster, commitment, vote or payload"}, {Markdown, 8 << 20, "Markdown material"}} {
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
