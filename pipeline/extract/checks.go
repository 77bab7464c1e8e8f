package extract

import (
	"path/filepath"
	"slices"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
)

// CheckFunc runs one family of discipline checks over a package directory
// and returns its findings; the error means the checks could not run.
type CheckFunc func(pkg string) ([]diag.Diagnostic, error)

// Checks are the discipline checks extraction runs: Static before any gaia
// stage, IR on the freshly compiled .gaia/ir.json. Tests substitute their
// own; the zero value means DefaultChecks.
type Checks struct {
	Static CheckFunc
	IR     CheckFunc
}

// DefaultChecks runs the analyzers engine: the source scan without the IR
// (analyzers.Lint with NoIR), then, after compile, the compiled-IR contract
// (ir.CheckPackage, ir.json required). Findings about beliefs.json (GAIA207,
// GAIA212, ...) are left out of the post-compile pass: beliefs.json is still
// the previous run's until gaia run infer rewrites it, and extraction checks
// the fresh one itself.
func DefaultChecks() Checks {
	return Checks{
		Static: func(pkg string) ([]diag.Diagnostic, error) {
			res, err := analyzers.Lint([]string{pkg}, analyzers.Options{NoIR: true})
			if err != nil {
				return nil, err
			}
			return res.Diagnostics, nil
		},
		IR: func(pkg string) ([]diag.Diagnostic, error) {
			ds, _, err := ir.CheckPackage(pkg, ir.CheckOptions{RequireIR: true})
			if err != nil {
				return nil, err
			}
			beliefs := filepath.ToSlash(ir.BeliefsPath(pkg))
			return slices.DeleteFunc(ds, func(d diag.Diagnostic) bool {
				return d.Code == "GAIA212" || d.Path == beliefs
			}), nil
		},
	}
}
