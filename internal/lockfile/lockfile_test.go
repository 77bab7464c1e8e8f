package lockfile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain lets the test binary act as a second process holding a lock:
// with NULLIUS_LOCK_HOLD=DIR it locks DIR, says "locked" and waits until
// its stdin closes or it is killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("NULLIUS_LOCK_HOLD"); dir != "" {
		l, err := Acquire(dir, DefaultWait)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(3)
		}
		os.Stdout.WriteString("locked\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		l.Release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestAcquireExcludesInOneProcess(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir, 0)
	var busy *BusyError
	if !errors.As(err, &busy) {
		t.Fatalf("second Acquire = %v, want *BusyError", err)
	}
	if busy.PID != os.Getpid() {
		t.Errorf("holder pid %d, want %d", busy.PID, os.Getpid())
	}
	want := "another nullius step is working in " + dir + " (lock held by pid "
	if !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; wait for it or remove "+filepath.Join(dir, Name)+" if no nullius is running") {
		t.Errorf("message %q", err)
	}
	l.Release()
	l.Release() // a second release is harmless
	l2, err := Acquire(dir, 0)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
}

func TestAcquireWaitsForRelease(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(200 * time.Millisecond)
		l.Release()
	}()
	start := time.Now()
	l2, err := Acquire(dir, 5*time.Second)
	if err != nil {
		t.Fatalf("waiting Acquire: %v", err)
	}
	defer l2.Release()
	if time.Since(start) < 150*time.Millisecond {
		t.Error("Acquire did not wait for the holder")
	}
}

func TestAcquireGivesUpAfterWait(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	start := time.Now()
	_, err = Acquire(dir, 300*time.Millisecond)
	var busy *BusyError
	if !errors.As(err, &busy) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > 5*time.Second {
		t.Errorf("gave up after %v, want about 300ms", d)
	}
}

// Goroutines racing for the lock never hold it at the same time.
func TestAcquireMutualExclusion(t *testing.T) {
	dir := t.TempDir()
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := Acquire(dir, 10*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			if inside.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(5 * time.Millisecond)
			inside.Add(-1)
			l.Release()
		}()
	}
	wg.Wait()
	if overlaps.Load() > 0 {
		t.Errorf("%d overlapping holders", overlaps.Load())
	}
}

// A second process sees the lock, names the holder's pid, and gets the
// lock once the holder is killed: the kernel releases a dead holder's
// flock, so a crash leaves no stale lock.
func TestAcquireAcrossProcessesAndAfterKill(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NULLIUS_LOCK_HOLD="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		cmd.Process.Kill()
		t.Fatalf("helper said %q", line)
	}
	_, err = Acquire(dir, 100*time.Millisecond)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.PID != cmd.Process.Pid {
		cmd.Process.Kill()
		t.Fatalf("got %v, want busy with pid %d", err, cmd.Process.Pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	l, err := Acquire(dir, 5*time.Second)
	if err != nil {
		t.Fatalf("lock of a killed holder was not released: %v", err)
	}
	l.Release()
}

// A symlink planted at the lock path is not followed.
func TestAcquireRefusesSymlinkedLockFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, Name)); err != nil {
		t.Skip("symlinks unsupported")
	}
	if l, err := Acquire(dir, 0); err == nil {
		l.Release()
		t.Fatal("locked through a symlink")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("symlink target rewritten: %q", b)
	}
}
