package atomicfile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMain doubles as the writer process of TestKillMidWrite: with
// ATOMICFILE_WRITER set it rewrites the target forever until killed.
func TestMain(m *testing.M) {
	if target := os.Getenv("ATOMICFILE_WRITER"); target != "" {
		for i := 0; ; i++ {
			// Each version is 4 MiB of one repeated byte, so any mix of two
			// versions, or a truncated one, is detectable.
			data := bytes.Repeat([]byte{byte('a' + i%26)}, 4<<20)
			if err := WriteFile(target, data, 0o644); err != nil {
				os.Exit(3)
			}
		}
	}
	os.Exit(m.Run())
}

// TestKillMidWrite kills a writer with SIGKILL at arbitrary moments and
// checks the destination is always one whole version, never half-written.
func TestKillMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "artifact.json")
	if err := WriteFile(target, bytes.Repeat([]byte{'z'}, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 8; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_WRITER="+target)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+round*17) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		data, err := os.ReadFile(target)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != 4<<20 || bytes.Count(data, data[:1]) != len(data) {
			t.Fatalf("round %d: destination is not one whole version (len %d)", round, len(data))
		}
	}
	// Killed writers may leave temp files beside the target (never the
	// target itself half-written); they carry the .tmp- marker.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "artifact.json" && !bytes.Contains([]byte(e.Name()), []byte(".tmp-")) {
			t.Errorf("unexpected file %s", e.Name())
		}
	}
}
