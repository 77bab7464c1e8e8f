package analyzers

import (
	"go/token"
	"path/filepath"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// CheckIR runs the compiled-IR contract over irBytes, the exact ir.json
// of the package at pkgDir (the bytes a caller pins), and locates each
// finding about declared knowledge in the package's Python source as
// 'nullius lint' does, not at its JSON pointer in ir.json (issue 16:
// extract reported GAIA507 at .gaia/ir.json where lint showed the source
// line). A package that cannot be discovered still gets its findings, at
// ir.json. DropRepeated then removes what the source scan already said.
func CheckIR(pkgDir string, irBytes []byte) ([]diag.Diagnostic, error) {
	doc, ds := ir.Load(filepath.ToSlash(ir.IRPath(pkgDir)), irBytes)
	if doc == nil {
		return ds, nil
	}
	opts := ir.CheckOptions{}
	if p, ok := packageAt(pkgDir); ok {
		parser := pyscan.NewParser()
		defer parser.Close()
		parsed := pyparse.ParseWith(parser, token.NewFileSet(), p.Files, nil, nil)
		opts.SourceFiles, opts.SourceMap = p.Files, newSourceMap(p, parsed)
	}
	more, _ := ir.Check(doc, opts)
	return append(ds, more...), nil
}

// DropRepeated removes from irds the IR findings the source scan (src)
// already reported at the same line (GAIA507 is found in both), as lint
// does.
func DropRepeated(irds, src []diag.Diagnostic) []diag.Diagnostic { return dropRepeated(irds, src) }

// packageAt discovers the package at dir itself (not one below it).
func packageAt(dir string) (Package, bool) {
	pkgs, _, err := Discover([]string{dir})
	if err != nil {
		return Package{}, false
	}
	for _, p := range pkgs {
		if filepath.Clean(p.Dir) == filepath.Clean(dir) && !p.Partial {
			return p, true
		}
	}
	return Package{}, false
}
