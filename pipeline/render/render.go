package render

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/projroot"
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
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%w: package directory %q does not exist", ErrNoGraph, opts.Package)
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrNoGraph, err)
	case !fi.IsDir():
		return nil, fmt.Errorf("%w: package %q is not a directory", ErrNoGraph, opts.Package)
	}
	// The package's lock (the one extract holds while gaia rewrites
	// .gaia/): the page is drawn from one compile, never from an ir.json
	// and a beliefs.json of two, and written while no other step writes
	// the package.
	var locks lockfile.Set
	defer locks.Release()
	if err := locks.Add(opts.Package); err != nil {
		return nil, err
	}
	g, err := Load(opts.Package)
	if err != nil {
		return nil, err
	}
	out := opts.Output
	if out == "" {
		out = filepath.Join(opts.Package, PageName)
	}
	if err := notAnInput(opts.Package, out); err != nil {
		return nil, err
	}
	root := opts.ProjectRoot
	if root == "" {
		root = FindProjectRoot(opts.Package)
	} else if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project root %q is not a directory; pass an existing directory to --project-root", root)
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

// FindProjectRoot is the project root as every command finds it
// (projroot.Find: the nearest ancestor, inclusive, holding a .nullius/
// directory), else the nearest one holding .git, else pkg itself (so links
// never leave the package when the project cannot be told).
func FindProjectRoot(pkg string) string {
	abs, err := filepath.Abs(pkg)
	if err != nil {
		return pkg
	}
	if root, ok := projroot.Find(abs); ok {
		return root
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return abs
		}
	}
}

// notAnInput refuses an output path that names one of the files the page
// is drawn from: overwriting ir.json would silently break its sha256 pin.
func notAnInput(pkg, out string) error {
	fo, err := os.Stat(out)
	if err != nil {
		return nil // a new file cannot be an input
	}
	for _, name := range []string{"ir.json", "beliefs.json"} {
		in := filepath.Join(pkg, ".gaia", name)
		if fi, err := os.Stat(in); err == nil && os.SameFile(fi, fo) {
			return fmt.Errorf("refusing to write the page over its own input %q; choose another --output", in)
		}
	}
	return nil
}
