package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct{ want, got, diff string }{
		{"a\nb\nc", "a\nb\nc", ""},
		{"a\nb\nc", "a\nB\nc", "@@ -1,3 +1,3 @@\n  a\n- b\n+ B\n  c\n"},
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13",
			"@@ -10,3 +10,4 @@\n  10\n  11\n  12\n+ 13\n"},
		{"x\n1\n2\n3\n4\n5\n6\n7\n8\n9\ny", "X\n1\n2\n3\n4\n5\n6\n7\n8\n9\nY",
			"@@ -1,4 +1,4 @@\n- x\n+ X\n  1\n  2\n  3\n@@ -8,4 +8,4 @@\n  7\n  8\n  9\n- y\n+ Y\n"},
		{"a\nb\nc\nd", "a\nc\nd\ne", "@@ -1,4 +1,4 @@\n  a\n- b\n  c\n  d\n+ e\n"},
		{"", "new", "@@ -1,1 +1,1 @@\n- \n+ new\n"},
	}
	for _, tt := range tests {
		if got := Diff(tt.want, tt.got); got != tt.diff {
			t.Errorf("Diff(%q, %q) =\n%s\nwant\n%s", tt.want, tt.got, got, tt.diff)
		}
	}
}

// TestDiffLarge: past the table bound the middle is shown whole, and the
// diff still accounts for every line.
func TestDiffLarge(t *testing.T) {
	var a, b []string
	for i := range 3000 {
		a = append(a, "a"+strings.Repeat("x", i%7))
		b = append(b, "b"+strings.Repeat("x", i%5))
	}
	d := Diff(strings.Join(a, "\n"), strings.Join(b, "\n"))
	if strings.Count(d, "\n- ") != 3000 || strings.Count(d, "\n+ ") != 3000 {
		t.Errorf("large diff has %d removals and %d additions", strings.Count(d, "\n- "), strings.Count(d, "\n+ "))
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
