package analyzers

import (
	"errors"

	"github.com/nullius-dev/nullius/internal/diag"
)

// Options configure a lint run.
type Options struct {
	// NoIR skips the compiled-IR checks even when .gaia/ir.json exists.
	NoIR bool
	// Workers bounds parallel parsing; 0 means GOMAXPROCS.
	Workers int
}

// Package is one discovered Gaia package.
type Package struct {
	Dir        string   // the package directory (holds pyproject.toml)
	ImportName string   // from [project].name, "-gaia" trimmed, "-" -> "_"
	SourceRoot string   // <Dir>/<import> (flat layout) or <Dir>/src/<import>
	Files      []string // the .py files Gaia imports, sorted
}

// Result is the outcome of a lint run.
type Result struct {
	Packages    []Package
	Files       int
	Diagnostics []diag.Diagnostic // sorted and deduplicated
}

// Lint discovers the Gaia packages under paths (a package directory, a
// Python file, or any directory containing packages) and runs every
// analyzer over them. The error is for failures that stop the run (a path
// that does not exist); problems with the packages are diagnostics.
func Lint(paths []string, opts Options) (*Result, error) {
	return nil, errors.New("analyzers: Lint not implemented yet")
}
