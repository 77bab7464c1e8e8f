package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiff: a golden mismatch is shown as diff -u shows it (internal/udiff,
// the renderer of lint --diff too); where GNU diff is installed, it agrees.
func TestDiff(t *testing.T) {
	tests := []struct{ want, got, diff string }{
		{"a\nb\nc\n", "a\nb\nc\n", ""},
		{"a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n",
			"@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n"},
		{"x\n1\n2\n3\n4\n5\n6\n7\n8\n9\ny\n", "X\n1\n2\n3\n4\n5\n6\n7\n8\n9\nY\n",
			"@@ -1,4 +1,4 @@\n-x\n+X\n 1\n 2\n 3\n@@ -8,4 +8,4 @@\n 7\n 8\n 9\n-y\n+Y\n"},
		{"a\nb\nc\nd\n", "a\nc\nd\ne\n", "@@ -1,4 +1,4 @@\n a\n-b\n c\n d\n+e\n"},
		{"", "new\n", "@@ -0,0 +1 @@\n+new\n"},
		{"a\nb", "a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"old\n", "", "@@ -1 +0,0 @@\n-old\n"},
	}
	_, noGNU := exec.LookPath("diff")
	for _, tt := range tests {
		if got := Diff(tt.want, tt.got); got != tt.diff {
			t.Errorf("Diff(%q, %q) =\n%s\nwant\n%s", tt.want, tt.got, got, tt.diff)
		}
		if noGNU != nil {
			continue
		}
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if err := os.WriteFile(a, []byte(tt.want), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b, []byte(tt.got), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command("diff", "-u", a, b).Output()
		gnu := string(out)
		if i := strings.Index(gnu, "@@"); i >= 0 {
			gnu = gnu[i:]
		}
		if gnu != tt.diff {
			t.Errorf("Diff(%q, %q): GNU diff says\n%s", tt.want, tt.got, gnu)
		}
	}
}

// TestDiffLarge: past the table bound the middle is shown whole, and the
// diff still accounts for every line.
func TestDiffLarge(t *testing.T) {
	var a, b []string
	for i := range 3000 {
		a = append(a, "a"+strings.Repeat("x", i%7)+"\n")
		b = append(b, "b"+strings.Repeat("x", i%5)+"\n")
	}
	d := Diff(strings.Join(a, ""), strings.Join(b, ""))
	if strings.Count(d, "\n-a") != 3000 || strings.Count(d, "\n+b") != 3000 || !strings.HasPrefix(d, "@@ -1,3000 +1,3000 @@\n") {
		t.Errorf("large diff has %d removals and %d additions: %.40q", strings.Count(d, "\n-a"), strings.Count(d, "\n+b"), d)
	}
}

type fakeT struct {
	testing.TB
	failed string
}

func (f *fakeT) Helper()                   {}
func (f *fakeT) Name() string              { return "TestX" }
func (f *fakeT) Errorf(s string, a ...any) { f.failed = s }
func (f *fakeT) Fatalf(s string, a ...any) { f.failed = s }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	ft := &fakeT{}
	Check(ft, path, []byte("a\n"))
	if ft.failed == "" {
		t.Fatal("a missing golden file passed")
	}
	*update = true
	Check(ft, path, []byte("a\n"))
	*update = false
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\n" {
		t.Fatalf("-update did not record: %q, %v", b, err)
	}
	ft = &fakeT{}
	Check(ft, path, []byte("a\n"))
	if ft.failed != "" {
		t.Fatal("an equal output failed")
	}
	Check(ft, path, []byte("b\n"))
	if !strings.Contains(ft.failed, "differs") {
		t.Fatal("a different output passed")
	}
}
