package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/modsrc"
)

// TestEveryRuleIsDeclared holds the catalogue to the source: a family
// lists its rules by hand in the function it declares
// (diag.Family.Declare), so a rule left out of that list would still be
// reported, yet be missing from `nullius rules`, `nullius explain`, the
// SARIF rule table and the codes configuration accepts. Every string
// literal outside tests spelled exactly like a code (a rule's Code, or a
// message naming one) must therefore be a code of the catalogue. The test
// binary links every family, as nullius does.
func TestEveryRuleIsDeclared(t *testing.T) {
	root := modsrc.Root(t)
	fset := token.NewFileSet()
	found := 0
	for _, rel := range modsrc.GoFiles(t, root) {
		f, err := parser.ParseFile(fset, filepath.Join(root, filepath.FromSlash(rel)), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			code, err := strconv.Unquote(lit.Value)
			if err != nil || !codeShape.MatchString(code) {
				return true
			}
			found++
			if r, ok := diag.Lookup(code); !ok || r.Code != code {
				t.Errorf("%s: %q is spelled like a rule code but no rule has it: a rule declared without being listed in its family's Declare list, or a message naming a code that does not exist", fset.Position(lit.Pos()), code)
			}
			return true
		})
	}
	if found < 50 {
		t.Fatalf("found %d code literals; the scan is not seeing the families (the catalogue holds %d rules)", found, len(diag.All()))
	}
}

// codeShape is how every rule code is spelled (diag's validCode):
// a family prefix, then three digits.
var codeShape = regexp.MustCompile(`^(GAIA|MATCH|ROSTER|PRIOR|REPORT|NULLIUS)[0-9]{3}$`)
