package render

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/atomicfile"
)

// PageName is the file written into the package by default.
const PageName = "argument-graph.html"

// Options select what to render and where.
type Options struct {
	Package     string // package directory (holds .gaia/ir.json)
	Output      string // page path; default <Package>/argument-graph.html
	ProjectRoot string // links must stay inside; default FindProjectRoot(Package)
	Version     string // nullius version for the footer
}

// Result says what was written.
type Result struct {
	Path         string
	Nodes, Edges int
	Notes        []string
}

// Render loads the package's compiled graph, lays it out and writes the page
// atomically. It fails only when the graph cannot be read or the page
// cannot be written.
func Render(opts Options) (*Result, error) {
	fi, err := os.Stat(opts.Package)
	if err != nil {
		return nil, fmt.Errorf("package directory %q: %w", opts.Package, ErrNoGraph)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("package %q is not a directory: %w", opts.Package, ErrNoGraph)
	}
	g, err := Load(opts.Package)
	if err != nil {
		return nil, err
	}
	out := opts.Output
	if out == "" {
		out = filepath.Join(opts.Package, PageName)
	}
	root := opts.ProjectRoot
	if root == "" {
		root = FindProjectRoot(opts.Package)
	}
	page, err := Page(g, ComputeLayout(g), PageOptions{
		Version:  opts.Version,
		IRPin:    g.IRPin,
		Resolver: &Resolver{Package: opts.Package, Root: root, PageDir: filepath.Dir(out)},
	})
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(out, page, 0o644); err != nil {
		return nil, err
	}
	return &Result{Path: out, Nodes: len(g.Nodes), Edges: len(g.Edges), Notes: g.Notes}, nil
}

// FindProjectRoot is the nearest ancestor (inclusive) of pkg holding a
// .nullius/ directory, else one holding .git, else pkg itself (so links
// never leave the package when the project cannot be told).
func FindProjectRoot(pkg string) string {
	abs, err := filepath.Abs(pkg)
	if err != nil {
		return pkg
	}
	for _, marker := range []string{".nullius", ".git"} {
		for dir := abs; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return abs
}
