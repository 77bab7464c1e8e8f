package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/modsrc"
)

// eagerAtInit are the calls that must not initialise a package-level
// variable of nullius: each compiles or parses something in every process
// at start (issue 15: `nullius version` paid ~5 ms of init). Use
// lazyre.New, lazy.New (internal/lazy) or a function instead.
var eagerAtInit = map[string]bool{
	"regexp.MustCompile": true, "regexp.Compile": true, "regexp.MustCompilePOSIX": true,
	"template.Must": true, "template.New": true, "parser.ParseFile": true,
	"json.Unmarshal": true, "toml.Unmarshal": true,
}

// TestNothingCompiledAtInit scans every non-test .go file of the module
// for a package-level variable initialised by one of eagerAtInit.
func TestNothingCompiledAtInit(t *testing.T) {
	n := goFiles(t, []string{"."}, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			ast.Inspect(gd, func(x ast.Node) bool {
				if _, ok := x.(*ast.FuncLit); ok {
					return false // runs later, when called
				}
				if call, name := calls(x, eagerAtInit); call != nil {
					t.Errorf("%s:%d: package-level %s runs at every process start; use lazyre.New or lazy.New (internal/lazy)",
						rel, fset.Position(call.Pos()).Line, name)
				}
				return true
			})
		}
	})
	if n < 100 {
		t.Fatalf("scanned only %d files", n)
	}
}

// goFiles parses every non-test .go file of the module under dirs
// (modsrc.GoFiles: no testdata, node_modules or hidden folders; a
// third_party folder only when one of dirs is in it), hands each to fn
// with its slash-separated path relative to the module's root, and
// returns how many it parsed.
func goFiles(t *testing.T, dirs []string, fn func(rel string, fset *token.FileSet, f *ast.File)) int {
	root := modsrc.Root(t)
	n := 0
	for _, rel := range modsrc.GoFiles(t, root) {
		if !slices.ContainsFunc(dirs, func(dir string) bool {
			return modsrc.Under(rel, dir) && (!strings.Contains(rel, "third_party/") || strings.Contains(dir, "third_party"))
		}) {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(rel)), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		n++
		fn(rel, fset, f)
	}
	return n
}

// calls returns x and its "pkg.Func" name when x is a call of one of
// names, else nil.
func calls(x ast.Node, names map[string]bool) (*ast.CallExpr, string) {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || !names[id.Name+"."+sel.Sel.Name] {
		return nil, ""
	}
	return call, id.Name + "." + sel.Sel.Name
}

// heavyInit are packages whose package inits would run in every nullius
// process (issue 15: x/text's cases, language and message and the
// language tables they pull in cost ~0.1 ms of each start), with what
// nullius uses instead.
var heavyInit = map[string]string{
	"golang.org/x/text/cases":    "internal/pycase (Python's str.lower and str.casefold)",
	"golang.org/x/text/language": "nothing: nullius speaks English only",
	"golang.org/x/text/message":  "jsonschema's kind.Printer (its English printer)",
}

// TestNoHeavyInitImports scans every non-test .go file of the module,
// third_party included, for an import of heavyInit.
func TestNoHeavyInitImports(t *testing.T) {
	n := goFiles(t, []string{".", "internal/third_party"}, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			if instead, ok := heavyInit[path]; ok {
				t.Errorf("%s:%d: imports %s, whose package init runs in every nullius process; use %s",
					rel, fset.Position(imp.Pos()).Line, path, instead)
			}
		}
	})
	if n < 100 {
		t.Fatalf("scanned only %d files", n)
	}
}
