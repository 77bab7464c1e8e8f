package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
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
	root := moduleRoot(t)
	n := goFiles(t, root, []string{"."}, func(rel string, fset *token.FileSet, f *ast.File) {
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
					t.Errorf("%s:%d: package-level %s runs at every process start; use lazyre.New or sync.OnceValue",
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

// moduleRoot is the module's root directory.
func moduleRoot(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("not the module root: ", root)
	}
	return root
}

// goFiles parses every non-test .go file under the dirs of root (skipping
// testdata, node_modules, third_party and hidden folders), hands each to
// fn with its slash-separated path relative to root, and returns how many
// it parsed.
func goFiles(t *testing.T, root string, dirs []string, fn func(rel string, fset *token.FileSet, f *ast.File)) int {
	n := 0
	for _, dir := range dirs {
		top := filepath.Join(root, dir)
		err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); p != top && (name == "testdata" || name == "node_modules" || name == "third_party" || strings.HasPrefix(name, ".")) {
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
			rel, _ := filepath.Rel(root, p)
			n++
			fn(filepath.ToSlash(rel), fset, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
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
	root := moduleRoot(t)
	n := goFiles(t, root, []string{".", "internal/third_party"}, func(rel string, fset *token.FileSet, f *ast.File) {
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

// TestRulesDeclared checks that every package-level rule variable (a
// &diag.Rule{...} literal, or the result of a function of the package
// returning *diag.Rule) is in a []*diag.Rule list of its package: families
// declare that list (diag.Family.Declare), so that the rules cost nothing
// at start, and a rule missing from it would be missing from the
// catalogue, `nullius rules`, docs/rules.md and every Lookup.
func TestRulesDeclared(t *testing.T) {
	type pkgRules struct {
		helpers map[string]bool   // functions returning *diag.Rule
		vars    map[string]string // rule variable → "file:line"
		listed  map[string]bool   // names in a []*diag.Rule literal
		calls   []struct {
			name, fn, at string
		}
	}
	pkgs := map[string]*pkgRules{}
	isRule := func(x ast.Expr) bool {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == "diag" && sel.Sel.Name == "Rule"
	}
	isRulePtr := func(x ast.Expr) bool {
		star, ok := x.(*ast.StarExpr)
		return ok && isRule(star.X)
	}
	root := moduleRoot(t)
	goFiles(t, root, []string{"."}, func(rel string, fset *token.FileSet, f *ast.File) {
		dir := filepath.ToSlash(filepath.Dir(rel))
		p := pkgs[dir]
		if p == nil {
			p = &pkgRules{helpers: map[string]bool{}, vars: map[string]string{}, listed: map[string]bool{}}
			pkgs[dir] = p
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.Results != nil &&
				len(fd.Type.Results.List) == 1 && isRulePtr(fd.Type.Results.List[0].Type) {
				p.helpers[fd.Name.Name] = true
			}
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if i >= len(vs.Names) || vs.Names[i].Name == "_" {
						continue
					}
					at := rel + ":" + strconv.Itoa(fset.Position(v.Pos()).Line)
					switch v := v.(type) {
					case *ast.UnaryExpr:
						if lit, ok := v.X.(*ast.CompositeLit); ok && v.Op == token.AND && isRule(lit.Type) {
							p.vars[vs.Names[i].Name] = at
						}
					case *ast.CallExpr:
						if fn, ok := v.Fun.(*ast.Ident); ok {
							p.calls = append(p.calls, struct{ name, fn, at string }{vs.Names[i].Name, fn.Name, at})
						}
					}
				}
			}
		}
		ast.Inspect(f, func(x ast.Node) bool {
			lit, ok := x.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if at, ok := lit.Type.(*ast.ArrayType); ok && isRulePtr(at.Elt) {
				for _, e := range lit.Elts {
					if id, ok := e.(*ast.Ident); ok {
						p.listed[id.Name] = true
					}
				}
			}
			return true
		})
	})
	n := 0
	for dir, p := range pkgs {
		for _, c := range p.calls {
			if p.helpers[c.fn] {
				p.vars[c.name] = c.at
			}
		}
		for name, at := range p.vars {
			n++
			if !p.listed[name] {
				t.Errorf("%s: rule %s of %s is in no []*diag.Rule list its family declares (diag.Family.Declare): the catalogue, `nullius rules` and docs/rules.md miss it",
					at, name, dir)
			}
		}
	}
	if n < 150 {
		t.Fatalf("found only %d rule variables", n)
	}
}
