package main

import (
	"runtime"
	"testing"
)

func TestSpareProc(t *testing.T) {
	base := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(base) })
	unset := func(string) string { return "" }

	w, release := spareProc(unset, 0)
	if w != base || runtime.GOMAXPROCS(0) != base+1 {
		t.Fatalf("spareProc(0): %d workers, GOMAXPROCS %d; want %d workers, GOMAXPROCS %d", w, runtime.GOMAXPROCS(0), base, base+1)
	}
	// A second run in the same process shares the spare P.
	w2, release2 := spareProc(unset, 3)
	if w2 != 3 || runtime.GOMAXPROCS(0) != base+1 {
		t.Fatalf("nested spareProc(3): %d workers, GOMAXPROCS %d; want 3, %d", w2, runtime.GOMAXPROCS(0), base+1)
	}
	release()
	release() // a release runs once
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("after the first run ended: GOMAXPROCS %d, want %d while the second runs", got, base+1)
	}
	release2()
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("after both runs: GOMAXPROCS %d, want %d restored", got, base)
	}

	// The user's GOMAXPROCS is theirs: nothing changes.
	w, release = spareProc(func(k string) string {
		if k == "GOMAXPROCS" {
			return "1"
		}
		return ""
	}, 0)
	if w != 0 || runtime.GOMAXPROCS(0) != base {
		t.Fatalf("with GOMAXPROCS set: %d workers, GOMAXPROCS %d; want 0 (the engine's default), %d", w, runtime.GOMAXPROCS(0), base)
	}
	release()
	if runtime.GOMAXPROCS(0) != base {
		t.Fatal("with GOMAXPROCS set, the release changed it")
	}
}
