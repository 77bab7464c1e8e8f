// Package analyzers is the Gaia discipline scan: package discovery, the
// registry of rule analyzers (one golang.org/x/tools/go/analysis Analyzer
// per rule family, in subpackages), and Lint, which runs them over Python
// files through the driver in internal/driver and adds the compiled-IR
// checks of package ir.
package analyzers

import (
	"runtime"
	"slices"
	"sync"

	"github.com/nullius-dev/nullius/analyzers/internal/driver"
	"github.com/nullius-dev/nullius/analyzers/internal/suppress"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/internal/config"
	"github.com/nullius-dev/nullius/internal/diag"
)

// Options configure a lint run.
type Options struct {
	// NoIR skips the compiled-IR checks even when .gaia/ir.json exists.
	NoIR bool
	// Workers bounds how many packages are linted at once; 0 means
	// GOMAXPROCS. The files of one package are parsed in parallel by the
	// pyparse analyzer, one parser per worker goroutine.
	Workers int
	// ConfigFile, when set, is the one configuration (nullius.toml or a
	// pyproject.toml with [tool.nullius]) applied to every file; otherwise
	// each file's closest configuration applies.
	ConfigFile string
	// NoConfig ignores every configuration file.
	NoConfig bool
	// Overlay holds in-memory contents that replace Python files on disk
	// (an editor's unsaved buffers), keyed by the path as it appears in
	// Package.Files. Only the source scan reads them; the IR checks judge
	// .gaia/ir.json, which is compiled from the files on disk.
	Overlay map[string][]byte
}

// Package is one discovered Gaia package.
type Package struct {
	Dir        string   // the package directory (holds pyproject.toml)
	ImportName string   // from [project].name, "-gaia" trimmed, "-" -> "_"
	SourceRoot string   // <Dir>/<import> (flat layout) or <Dir>/src/<import>
	Files      []string // the .py files Gaia imports, sorted
	// Partial is true when only some files of the package are linted (a
	// .py file or a folder inside the package was named); the IR checks,
	// which judge the whole package, are skipped then.
	Partial bool
	// Notes are review flags about the package's layout (GAIA903),
	// also returned among Discover's diagnostics.
	Notes []diag.Diagnostic
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
	pkgs, diags, err := Discover(paths)
	if err != nil {
		return nil, err
	}
	res := &Result{Packages: pkgs}
	out := make([][]diag.Diagnostic, len(pkgs))
	errs := make([]error, len(pkgs))
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i := range pkgs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i], errs[i] = lintPackage(pkgs[i], opts)
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, p := range pkgs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		diags = append(diags, out[i]...)
		for _, f := range p.Files {
			seen[f] = true
		}
	}
	res.Files = len(seen)
	if !opts.NoConfig {
		if diags, err = applyConfig(diags, opts.ConfigFile); err != nil {
			return nil, err
		}
	}
	res.Diagnostics = diag.SortDedup(diags)
	return res, nil
}

// applyConfig applies nullius.toml / [tool.nullius]: warnings switched off
// are dropped; excluded files and ignored rules are marked Suppressed, never
// dropped, so the gate still sees a disabled error (spec README, honesty
// rules).
func applyConfig(ds []diag.Diagnostic, file string) ([]diag.Diagnostic, error) {
	var explicit *config.Config
	if file != "" {
		c, err := config.Load(file)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, &config.Error{Path: file, Msg: "has no [tool.nullius] table"}
		}
		explicit = c
	}
	return config.NewResolver(explicit).Apply(ds)
}

// lintPackage runs the source scan and, for whole packages, the IR checks.
func lintPackage(p Package, opts Options) ([]diag.Diagnostic, error) {
	// Suppressions are applied below, once, so they also cover IR findings
	// mapped to source lines.
	ds, parsed, err := driver.RunParsed(p.Dir, p.Files, forFiles(p.Partial), driver.Options{Overlay: opts.Overlay})
	if err != nil {
		return nil, err
	}
	irRun := !opts.NoIR && !p.Partial
	if irRun {
		var sm ir.SourceMap // nil unless the files were parsed (a nil *sourceMap would not be a nil interface)
		if parsed != nil {
			sm = newSourceMap(p, parsed)
		}
		irds, _, err := ir.CheckPackage(p.Dir, ir.CheckOptions{SourceFiles: p.Files, SourceMap: sm})
		if err != nil {
			return nil, err
		}
		ds = append(ds, dropRepeated(irds, ds)...)
	}
	if parsed != nil {
		var notRun func(string) bool
		if !irRun {
			notRun = ir.Reports
		}
		ds = suppress.ApplyPartial(ds, parsed, notRun)
	}
	return ds, nil
}

// dropRepeated removes the IR findings the source scan already reported:
// GAIA507 is found in the source (readerflow) and again in the compiled
// graph, and the IR finding maps to the same declaration line. The source
// finding is kept; an IR finding the source did not make (a criterion
// only the compiled graph shows disconnected) stays.
func dropRepeated(irds, src []diag.Diagnostic) []diag.Diagnostic {
	type at struct {
		code, path string
		line       int
	}
	seen := map[at]bool{}
	for _, d := range src {
		if d.Code == readerflow.GAIA507.Code {
			seen[at{d.Code, d.Path, d.Line}] = true
		}
	}
	return slices.DeleteFunc(irds, func(d diag.Diagnostic) bool { return seen[at{d.Code, d.Path, d.Line}] })
}
