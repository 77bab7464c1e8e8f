package lazyre

import (
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"testing"
)

// builtPerCall are the constructors that must not run inside a function
// on the lint path: each call compiles a regular expression or builds a
// replacer's tables, and on a hot helper that is per claim or per value
// (issue 15: the GAIA510 stock-sentence check built a strings.Replacer per
// call, 48 % of all bytes allocated). Build them once, at package level
// with lazyre.New, lazy.New or lazy.NewReplacer (internal/lazy).
var builtPerCall = map[string]bool{
	"regexp.Compile": true, "regexp.MustCompile": true, "regexp.CompilePOSIX": true, "regexp.MustCompilePOSIX": true,
	"strings.NewReplacer": true, "lazyre.New": true,
}

// lintPath are the packages every `nullius lint` runs through (and their
// subpackages): files → pyscan model → analyzers → diagnostics →
// configuration → formatter.
var lintPath = []string{"pyscan", "analyzers", "internal/config", "internal/diag", "internal/output", "internal/readlimit", "internal/memo", "internal/pyfmt", "internal/lazyre"}

// allowedPerCall are the calls inside functions that are not per value,
// keyed "file function call" (the declared function, closures included),
// each with the reason. The list is exact: an entry that no longer
// matches a call fails the test too.
var allowedPerCall = map[string]string{
	"internal/config/config.go Glob regexp.Compile":                    "compiles a configuration's glob once when the file is loaded (configurations are memoized per directory)",
	"analyzers/internal/ruletest/ruletest.go parseWant regexp.Compile": "the want-comment harness of the analyzer tests, never linked into nullius",
}

// TestNothingBuiltPerCall scans the lint path for a regular expression or
// replacer built inside a function.
func TestNothingBuiltPerCall(t *testing.T) {
	found := map[string]bool{}
	n := goFiles(t, lintPath, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(x ast.Node) bool {
				call, name := calls(x, builtPerCall)
				if call == nil {
					return true
				}
				key := rel + " " + fd.Name.Name + " " + name
				if _, ok := allowedPerCall[key]; !ok {
					t.Errorf("%s:%d: %s inside %s: build it once at package level (lazyre.New, lazy.New, lazy.NewReplacer), not per call", rel, fset.Position(call.Pos()).Line, name, fd.Name.Name)
				}
				found[key] = true
				return true
			})
		}
	})
	if n < 100 {
		t.Fatalf("scanned only %d files: is the lint path list still right?", n)
	}
	for _, k := range slices.Sorted(maps.Keys(allowedPerCall)) {
		if !found[k] {
			t.Errorf("allowedPerCall lists %q, which no longer matches a call: remove it", k)
		}
	}
}
