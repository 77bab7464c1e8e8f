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
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// context is how many unchanged lines Diff shows around a change.
const context = 3

// maxCells bounds the line-matching table Diff builds (lines of want times
// lines of got, after the common head and tail are set aside); beyond it
// the differing middle is shown as removed then added, which is still a
// correct, if coarser, diff.
const maxCells = 4 << 20

// Diff returns a line diff of want and got in unified style: hunks headed
// "@@ -a,n +b,m @@", unchanged lines prefixed "  ", removed "- ", added
// "+ ". It returns "" when the two are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	ops := diffLines(a, b)
	var out strings.Builder
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before this change to context lines
		// after the last change that is within 2*context of the next.
		start := max(0, i-context)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		h := ops[start:end]
		aStart, bStart, an, bn := h[0].a, h[0].b, 0, 0
		for _, op := range h {
			if op.kind != '+' {
				an++
			}
			if op.kind != '-' {
				bn++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart+1, an, bStart+1, bn)
		for _, op := range h {
			if op.kind == '-' {
				fmt.Fprintf(&out, "- %s\n", a[op.a])
			} else {
				fmt.Fprintf(&out, "%c %s\n", op.kind, b[op.b])
			}
		}
		i = end
	}
	return out.String()
}

// op is one line of the diff: kind ' ', '-' or '+', and the indexes in a
// and b it stands at (for '-' the a line, for '+' and ' ' the b line).
type op struct {
	kind byte
	a, b int
}

// diffLines matches a and b by a longest common subsequence of lines.
func diffLines(a, b []string) []op {
	var ops []op
	// The common head and tail need no table.
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		ops = append(ops, op{' ', head, head})
		head++
	}
	ta, tb := len(a), len(b)
	for ta > head && tb > head && a[ta-1] == b[tb-1] {
		ta--
		tb--
	}
	ma, mb := a[head:ta], b[head:tb]
	if len(ma)*len(mb) > maxCells {
		for i := range ma {
			ops = append(ops, op{'-', head + i, head})
		}
		for j := range mb {
			ops = append(ops, op{'+', ta, head + j})
		}
	} else {
		// lcs[i][j]: length of the LCS of ma[i:] and mb[j:].
		w := len(mb) + 1
		lcs := make([]int32, (len(ma)+1)*w)
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, op{' ', head + i, head + j})
				i++
				j++
			case i < len(ma) && (j == len(mb) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
				ops = append(ops, op{'-', head + i, head + j})
				i++
			default:
				ops = append(ops, op{'+', head + i, head + j})
				j++
			}
		}
	}
	for k := 0; ta+k < len(a); k++ {
		ops = append(ops, op{' ', ta + k, tb + k})
	}
	return ops
}
