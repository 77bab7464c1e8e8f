package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eagerAtInit are the calls that must not initialise a package-level
// variable of nullius: each compiles or parses something in every process
// at start (issue 15: `nullius version` paid ~5 ms of init). Use
// lazyre.New, sync.OnceValue or a function instead.
var eagerAtInit = map[string]bool{
	"regexp.MustCompile": true, "regexp.Compile": true, "regexp.MustCompilePOSIX": true,
	"template.Must": true, "template.New": true, "parser.ParseFile": true,
	"json.Unmarshal": true, "toml.Unmarshal": true,
}

// TestNothingCompiledAtInit scans every non-test .go file of the module
// for a package-level variable initialised by one of eagerAtInit.
func TestNothingCompiledAtInit(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("not the module root: ", root)
	}
	n := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (name == "testdata" || name == "node_modules" || name == "third_party" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		n++
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			ast.Inspect(gd, func(x ast.Node) bool {
				if _, ok := x.(*ast.FuncLit); ok {
					return false // runs later, when called
				}
				call, ok := x.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && eagerAtInit[id.Name+"."+sel.Sel.Name] {
						rel, _ := filepath.Rel(root, p)
						t.Errorf("%s:%d: package-level %s.%s runs at every process start; use lazyre.New or sync.OnceValue",
							rel, fset.Position(call.Pos()).Line, id.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("scanned only %d files", n)
	}
}
