package pyparse

import (
	"go/token"
	"testing"
)

// Lines gives each file its line table on first need; positions then
// agree with a FileSet whose tables were set eagerly from the content,
// at every offset of every file, the ends and empty files included.
func TestLinesOnFirstNeed(t *testing.T) {
	srcs := map[string]string{
		"a.py": "x = 1\ny = 2\n",
		"b.py": "",
		"c.py": "\n\nz = 3",
		"d.py": "w = 4\n",
	}
	order := []string{"a.py", "b.py", "c.py", "d.py"}
	fset, want := token.NewFileSet(), token.NewFileSet()
	res := &Result{}
	for _, name := range order {
		res.Files = append(res.Files, Load(fset, name, func(string) ([]byte, error) { return []byte(srcs[name]), nil }))
		want.AddFile(name, -1, len(srcs[name])).SetLinesForContent([]byte(srcs[name]))
	}
	// Last file first: a file's table must not depend on another's.
	for i := len(order) - 1; i >= 0; i-- {
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
