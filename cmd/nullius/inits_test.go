package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initAllocBudget is how many allocations a package of nullius may make
// before main. Zero for every package not listed: a package-level value
// that needs code or memory at start is static data instead (a literal of
// constants, a switch in place of a map literal), or is built on first use
// (lazy.New of a named function, lazy.NewReplacer, lazyre.New), and rules
// are declared (diag.Family.Declare), not registered one by one (issue 15).
var initAllocBudget = map[string]int{}

// inittraceLine is one line of GODEBUG=inittrace=1: the package, its
// start and clock times (never compared: they are not deterministic),
// and the bytes and allocations of its init, which are.
var inittraceLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestNothingAtInit builds nullius as it ships (this test binary links
// test-only packages and cmd/nullius's tests) and runs `nullius version`
// with GODEBUG=inittrace=1: no package of nullius may allocate more than
// its initAllocBudget before main. Every process pays for what runs
// there, `nullius version` and a one-file lint included.
func TestNothingAtInit(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool builds nullius for this test: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "nullius")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("nullius version: %v\n%s", err, stderr.String())
	}
	traced := 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		m := inittraceLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pkg := m[1]
		if pkg != "main" && !strings.HasPrefix(pkg, "github.com/nullius-dev/nullius/") {
			continue
		}
		traced++
		bytes, _ := strconv.Atoi(m[2])
		allocs, _ := strconv.Atoi(m[3])
		if budget := initAllocBudget[pkg]; allocs > budget {
			t.Errorf("%s allocates %d bytes in %d allocations at package init (budget %d): make the package-level value static data or build it on first use",
				pkg, bytes, allocs, budget)
		}
	}
	// Families declare their rules at init, so at least those packages
	// are traced; fewer means the trace format changed under this test.
	if traced < 20 {
		t.Fatalf("only %d packages of nullius in the init trace:\n%s", traced, stderr.String())
	}
}
