package main

import (
	"runtime"
	"testing"
)

func TestSpareProc(t *testing.T) {
	base := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(base) })

	hold := spareProc(func(string) string { return "" })
	if hold == nil {
		t.Fatal("spareProc with GOMAXPROCS unset: no Parallel hook")
	}
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("spareProc changed GOMAXPROCS to %d before any worker started", got)
	}
	done := hold()
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("while workers run: GOMAXPROCS %d, want %d", got, base+1)
	}
	// A second run in the same process shares the spare P.
	done2 := hold()
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("two runs: GOMAXPROCS %d, want %d", got, base+1)
	}
	done()
	done() // a release counts once
	if got := runtime.GOMAXPROCS(0); got != base+1 {
		t.Fatalf("after the first run ended: GOMAXPROCS %d, want %d while the second runs", got, base+1)
	}
	done2()
	if got := runtime.GOMAXPROCS(0); got != base {
		t.Fatalf("after both runs: GOMAXPROCS %d, want %d restored", got, base)
	}

	// The user's GOMAXPROCS is theirs: no hook.
	if spareProc(func(k string) string {
		if k == "GOMAXPROCS" {
			return "1"
		}
		return ""
	}) != nil {
		t.Fatal("spareProc with GOMAXPROCS set returned a hook")
	}
}
