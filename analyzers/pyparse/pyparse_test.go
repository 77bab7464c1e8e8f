package pyparse

import (
	"go/token"
	"testing"
)

// Lines gives each file its line table on first need; positions then
// agree with a FileSet whose tables were set eagerly from the content,
// at every offset of every file, the ends and empty files included.
func TestLinesOnFirstNeed(t *testing.T) {
	files := []struct{ name, src string }{
		{"a.py", "x = 1\ny = 2\n"}, {"b.py", ""}, {"c.py", "\n\nz = 3"}, {"d.py", "w = 4\n"},
	}
	fset, want := token.NewFileSet(), token.NewFileSet()
	res := &Result{}
	for _, f := range files {
		res.Files = append(res.Files, Load(fset, f.name, func(string) ([]byte, error) { return []byte(f.src), nil }))
		want.AddFile(f.name, -1, len(f.src)).SetLinesForContent([]byte(f.src))
	}
	// Last file first: a file's table must not depend on another's.
	for i := len(res.Files) - 1; i >= 0; i-- {
		f := res.Files[i]
		for off := 0; off <= len(f.Src); off++ {
			p := f.Pos(off)
			res.Lines(p)
			got, exp := fset.Position(p), want.Position(p)
			if got != exp {
				t.Errorf("%s offset %d: %v, want %v", f.Path, off, got, exp)
			}
		}
	}
}
