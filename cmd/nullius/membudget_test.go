package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/readlimit"
)

// The document commands run under the budget, the Python ones do not; the
// limit starts at memoryBase, grows by memoryFactor per byte read, and is
// lifted when the command ends.
func TestMemoryBudget(t *testing.T) {
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	root := a.rootCmd()
	markBudgeted(root)
	for path, want := range map[string]bool{
		"validate match": true, "validate survey": true, "match pairs": true, "gate close-prior": true,
		"report portfolio": true, "render": true, "lint": false, "extract": false, "match absorb": false, "writeback": false,
	} {
		cmd, _, err := root.Find(strings.Fields(path))
		if err != nil || hasBudget(cmd) != want {
			t.Errorf("%s: budgeted %v, want %v (%v)", path, hasBudget(cmd), want, err)
		}
	}

	before := debug.SetMemoryLimit(-1)
	lift := budgetMemory()
	if got := debug.SetMemoryLimit(-1); got != memoryBase {
		t.Errorf("limit %d before any read, want %d", got, memoryBase)
	}
	p := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(p, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readlimit.ReadFile(p, readlimit.JSON); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryBase+memoryFactor*1000 {
		t.Errorf("limit %d after reading 1000 bytes, want %d", got, memoryBase+memoryFactor*1000)
	}
	lift()
	if got := debug.SetMemoryLimit(-1); got != before && !(before <= 0 && got == math.MaxInt64) {
		t.Errorf("limit %d after lifting, want %d", got, before)
	}
}
