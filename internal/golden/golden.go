// Package golden is the tests' one way to compare output with a recorded
// golden file and to record it again. Every golden test in the module takes
// the same switch:
//
//	go test ./<package> -run <Test> -update
//
// rewrites the golden files that test compares against (review the diff
// before committing it). A mismatch fails with a line diff of the golden
// file against the output, never with a bare "differs".
//
// The package registers the -update flag, so only tests import it, and a
// test package must not declare its own -update flag.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/udiff"
)

var update = flag.Bool("update", false, "rewrite golden files from the current output (review the diff before committing)")

// Update reports whether this test run records golden files (-update).
func Update() bool { return *update }

// Check compares got with the golden file at path. With -update it writes
// got there instead (creating the directory). A missing file or a mismatch
// fails the test; the mismatch message is a line diff.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (record it with go test -run '%s' -update)", err, t.Name())
	}
	if string(want) != string(got) {
		t.Errorf("output differs from %s (- golden, + output; go test -run '%s' -update records it):\n%s", path, t.Name(), Diff(string(want), string(got)))
	}
}

// Diff returns a unified diff (diff -u hunks, internal/udiff) that turns
// want into got, without file headers. It returns "" when the two are
// equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := udiff.SplitLines(want), udiff.SplitLines(got)
	var out strings.Builder
	udiff.Hunks(&out, a, udiff.Compare(a, b))
	return out.String()
}
