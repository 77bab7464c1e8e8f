package extract

import (
	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
)

// StaticFunc runs the source scan over a package directory; the error
// means the scan could not run.
type StaticFunc func(pkg string) ([]diag.Diagnostic, error)

// IRFunc runs the compiled-IR contract over the exact ir.json bytes of a
// package, so the findings are bound to the pin computed from the same
// bytes; the error means the checks could not run.
type IRFunc func(pkg string, irBytes []byte) ([]diag.Diagnostic, error)

// Checks are the discipline checks extraction runs: Static before any gaia
// stage, IR on the freshly compiled .gaia/ir.json. Tests substitute their
// own; a nil field means the default of DefaultChecks.
type Checks struct {
	Static StaticFunc
	IR     IRFunc
}

// DefaultChecks runs the analyzers engine: the source scan without the IR
// (analyzers.Lint with NoIR), then, after compile, the compiled-IR contract
// of analyzers/ir on the bytes extraction pins, located in the source.
// beliefs.json is not looked at here: until gaia run infer rewrites it, it
// is the previous run's, and extraction checks the fresh one itself.
func DefaultChecks() Checks {
	return Checks{Static: lintSource, IR: checkIR}
}

func lintSource(pkg string) ([]diag.Diagnostic, error) {
	res, err := analyzers.Lint([]string{pkg}, analyzers.Options{NoIR: true})
	if err != nil {
		return nil, err
	}
	return res.Diagnostics, nil
}

// checkIR locates findings about declared knowledge in the Python source,
// as lint does (analyzers.CheckIR).
func checkIR(pkg string, irBytes []byte) ([]diag.Diagnostic, error) {
	return analyzers.CheckIR(pkg, irBytes)
}
