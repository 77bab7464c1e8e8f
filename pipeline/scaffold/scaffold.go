package scaffold

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/gaiacli"
)

// ErrExists is returned (wrapped) when the package directory already exists.
var ErrExists = errors.New("refusing to overwrite")

var slugRE = lazyre.New(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// CheckSlug accepts lower-case words of letters and digits joined by single
// hyphens, starting with a letter, so the module name is a Python
// identifier. A trailing "-gaia" is refused: the directory would read
// "<x>-gaia-gaia".
func CheckSlug(slug string) error {
	if !slugRE.MatchString(slug) {
		return fmt.Errorf("slug %q is not lower-case words of letters and digits joined by hyphens (e.g. my-idea)", slug)
	}
	if strings.HasSuffix(slug, "-gaia") {
		return fmt.Errorf("slug %q must not end in -gaia; nullius appends it (give %q)", slug, strings.TrimSuffix(slug, "-gaia"))
	}
	if slug == "gaia" {
		return fmt.Errorf("slug %q would make a module named gaia that hides the gaia library; choose another", slug)
	}
	if pythonKeywords.Get()[slug] {
		return fmt.Errorf("slug %q is a Python keyword, which cannot be imported as a module; choose another", slug)
	}
	return nil
}

// pythonKeywords are the lower-case hard keywords of Python 3.12; a module
// of that name cannot be imported.
// It is built on first use, not at every process start (issue 15).
var pythonKeywords = lazy.New(buildPythonKeywords)

// buildPythonKeywords builds pythonKeywords on first use.
func buildPythonKeywords() map[string]bool {
	return map[string]bool{
		"and": true, "as": true, "assert": true, "async": true, "await": true, "break": true, "class": true,
		"continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true, "finally": true,
		"for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
		"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true,
		"try": true, "while": true, "with": true, "yield": true,
	}
}

// Options configure one scaffold.
type Options struct {
	Slug string // e.g. "my-idea"; the package is <Dest>/<Slug>-gaia
	Dest string // an existing directory
	// Gaia, when set, builds the skeleton with `gaia build init` and
	// hardens it (the reference flow); the version must be the pinned one.
	Gaia gaiacli.Gaia
	// Binding, when set, binds the package to its idea in the store
	// ([tool.nullius] campaign-id and node-id of pyproject.toml).
	Binding *binding.Binding
}

// Create builds the package and returns its path. It refuses (ErrExists)
// when the package directory exists and leaves nothing behind on failure.
func Create(ctx context.Context, opts Options) (string, error) {
	if err := CheckSlug(opts.Slug); err != nil {
		return "", err
	}
	fi, err := os.Stat(opts.Dest)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("destination %q is not a directory", opts.Dest)
	}
	target := filepath.Join(opts.Dest, ProjectName(opts.Slug))
	if _, err := os.Lstat(target); err == nil {
		return "", fmt.Errorf("%w %q: it already exists", ErrExists, target)
	}
	if opts.Gaia != nil {
		if err := checkGaia(ctx, opts.Gaia); err != nil {
			return "", err
		}
	}
	tmp, err := os.MkdirTemp(opts.Dest, ".nullius-scaffold-*")
	if err != nil {
		return "", fmt.Errorf("could not create a temporary directory in %q: %w", opts.Dest, err)
	}
	defer os.RemoveAll(tmp) // after a successful rename only the empty shell is left
	built := filepath.Join(tmp, ProjectName(opts.Slug))
	if opts.Gaia != nil {
		err = viaGaia(ctx, opts.Gaia, tmp, opts.Slug)
	} else {
		err = skeleton(built, opts.Slug)
	}
	if err != nil {
		return "", err
	}
	if opts.Binding != nil {
		if err := bind(built, *opts.Binding); err != nil {
			return "", err
		}
	}
	if err := renameNoReplace(built, target); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("%w %q: it already exists", ErrExists, target)
		}
		return "", fmt.Errorf("could not move the package into %q: %w", target, err)
	}
	return target, nil
}

// skeleton writes the package files into dir (which must not exist yet).
func skeleton(dir, slug string) error {
	mod := filepath.Join(dir, "src", ModuleName(slug))
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return fmt.Errorf("could not create %q: %w", mod, err)
	}
	files := []struct{ path, body string }{
		{filepath.Join(dir, "pyproject.toml"), Pyproject(slug)},
		{filepath.Join(dir, ".python-version"), PythonVersion},
		{filepath.Join(mod, "__init__.py"), Template(slug)},
	}
	for _, f := range files {
		if err := atomicfile.WriteNew(f.path, []byte(f.body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// bind adds the binding to the pyproject.toml of the package being built
// (not yet visible, so no lock is needed).
func bind(pkg string, b binding.Binding) error {
	path := binding.Path(pkg)
	data, err := readlimit.ReadFile(path, readlimit.Config)
	if err != nil {
		return fmt.Errorf("could not read %q: %w", path, err)
	}
	out, err := binding.Edit(path, data, b)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, out, 0o644)
}

func checkGaia(ctx context.Context, g gaiacli.Gaia) error {
	banner, err := g.Version(ctx)
	if err != nil {
		return err
	}
	return gaiacli.CheckVersion(banner)
}

// viaGaia runs `gaia build init` inside tmp, hardens the result and writes
// the template into its single module.
func viaGaia(ctx context.Context, g gaiacli.Gaia, tmp, slug string) error {
	res, err := g.Init(ctx, tmp, ProjectName(slug))
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return &InitError{Result: res}
	}
	pkg := filepath.Join(tmp, ProjectName(slug))
	if err := Harden(pkg); err != nil {
		return err
	}
	mod, err := FindModuleDir(pkg)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(mod, "__init__.py"), []byte(Template(slug)), 0o644)
}

// InitError is a failed `gaia build init`, with the tool's own output.
type InitError struct{ Result gaiacli.Result }

func (e *InitError) Error() string {
	return fmt.Sprintf("`%s` failed (exit %d)", e.Result.Command(), e.Result.ExitCode)
}

// InGitWorkTree reports whether dir or an ancestor holds .git (a directory,
// or a file as in worktrees and submodules). nullius never runs git itself.
func InGitWorkTree(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}
