package analyzers

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// skipDir reports the directories never searched for packages or
// sources: version control, virtual environments, Gaia's own output, the
// shared SDK checkout, caches and every hidden directory.
func skipDir(name string) bool {
	switch name {
	case "venv", "node_modules", "gaia-sdk", "__pycache__":
		return true
	}
	return strings.HasPrefix(name, ".") // .git, .venv, .gaia, ...
}

// pyproject is the part of pyproject.toml discovery reads.
type pyproject struct {
	Project struct {
		Name         string   `toml:"name"`
		Dependencies []string `toml:"dependencies"`
	} `toml:"project"`
	Tool map[string]any `toml:"tool"`
}

// isGaia reports whether a pyproject found while walking a tree describes
// a Gaia package rather than some other Python project.
func (p *pyproject) isGaia() bool {
	if strings.HasSuffix(p.Project.Name, "-gaia") {
		return true
	}
	if _, ok := p.Tool["gaia"]; ok {
		return true
	}
	return slices.ContainsFunc(p.Project.Dependencies, func(d string) bool {
		return strings.HasPrefix(strings.TrimSpace(strings.ToLower(d)), "gaia-lang")
	})
}

// ImportName is Gaia's import name for a project name: a trailing "-gaia"
// removed and hyphens turned into underscores (gaia/engine/packaging.py).
func ImportName(projectName string) string {
	return strings.ReplaceAll(strings.TrimSuffix(projectName, "-gaia"), "-", "_")
}

// discovery accumulates packages and the diagnostics of broken ones.
type discovery struct {
	pkgs  []Package
	diags []diag.Diagnostic
	seen  map[string]bool // cleaned package dirs already added
}

// Discover finds the Gaia packages named by paths. A path may be a package
// directory, a .py file (linted alone, in the context of the package that
// holds it when there is one), or any directory, searched for packages. A
// path that does not exist, or a directory with no package in or above it,
// is an error; a package whose module cannot be found is a diagnostic.
func Discover(paths []string) ([]Package, []diag.Diagnostic, error) {
	d := &discovery{seen: map[string]bool{}}
	for _, p := range paths {
		if err := d.add(p); err != nil {
			return nil, nil, err
		}
	}
	return d.pkgs, d.diags, nil
}

func (d *discovery) add(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such file or directory", path)
		}
		return err
	}
	if !fi.IsDir() {
		return d.addFile(path)
	}
	before := len(d.pkgs) + len(d.diags)
	// A named directory with a pyproject.toml is a package, unless it is
	// some other Python project (a repository root with tooling config)
	// that holds Gaia packages below it.
	_, statErr := os.Stat(filepath.Join(path, "pyproject.toml"))
	hasProject := statErr == nil
	if hasProject && looksGaia(path) {
		d.addPackage(path, true)
	}
	if err := d.walk(path); err != nil {
		return err
	}
	if hasProject && len(d.pkgs)+len(d.diags) == before {
		d.addPackage(path, true)
	}
	if len(d.pkgs)+len(d.diags) > before {
		return nil
	}
	// No package at or below: a directory inside a package (its module
	// folder, say) lints the package's files under it.
	if pkgDir, ok := enclosingPackage(path); ok {
		return d.addSubset(pkgDir, path)
	}
	return fmt.Errorf("no Gaia package found under %s (a package is a directory with a pyproject.toml)", path)
}

// looksGaia reports whether dir's pyproject.toml parses and describes a
// Gaia package; a broken file counts, so its GAIA003 is reported.
func looksGaia(dir string) bool {
	pp, dg := readPyproject(dir)
	return dg != nil || pp.isGaia()
}

// walk adds every Gaia package strictly below root.
func (d *discovery) walk(root string) error {
	return filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable corner of a tree is not a package
		}
		if !e.IsDir() || p == root {
			return nil
		}
		if skipDir(e.Name()) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "pyproject.toml")); err == nil {
			d.addPackage(p, false)
		}
		return nil
	})
}

// addPackage resolves one package directory. explicit is true when the
// user named it; a pyproject met while walking is only taken when it
// describes a Gaia package.
func (d *discovery) addPackage(dir string, explicit bool) {
	key := filepath.Clean(dir)
	if d.seen[key] {
		return
	}
	pp, dg := readPyproject(dir)
	if dg != nil {
		d.seen[key] = true
		d.diags = append(d.diags, *dg)
		return
	}
	if !explicit && !pp.isGaia() {
		return
	}
	d.seen[key] = true
	pkg, dg := resolvePackage(dir, pp)
	if dg != nil {
		d.diags = append(d.diags, *dg)
		return
	}
	d.diags = append(d.diags, pkg.Notes...)
	d.pkgs = append(d.pkgs, pkg)
}

// readPyproject parses dir/pyproject.toml. A file that cannot be read or
// parsed, or that has no [project].name, is a GAIA003 diagnostic.
func readPyproject(dir string) (*pyproject, *diag.Diagnostic) {
	path := filepath.Join(dir, "pyproject.toml")
	shown := filepath.ToSlash(path)
	src, err := readlimit.ReadFile(path, readlimit.Config)
	if err != nil {
		// A FIFO or device named pyproject.toml is refused by the bounded
		// reader without being opened: reported here, never waited on.
		dg := ruleBadPyproject.New(shown, 1, 1, 1, 1, "could not read pyproject.toml: %v", err)
		return nil, &dg
	}
	var pp pyproject
	if err := toml.Unmarshal(src, &pp); err != nil {
		line, col := 1, 1
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col = de.Position()
		}
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		dg := ruleBadPyproject.New(shown, line, col, line, col, "pyproject.toml does not parse: %s", msg)
		return nil, &dg
	}
	if strings.TrimSpace(pp.Project.Name) == "" {
		line := lineOf(src, "[project]")
		dg := ruleBadPyproject.New(shown, line, 1, line, 1,
			"pyproject.toml has no [project].name; Gaia takes the import name from it, so add name = \"<slug>-gaia\"")
		return nil, &dg
	}
	if !projectNameRE.MatchString(strings.TrimSpace(pp.Project.Name)) {
		line := lineOf(src, "name")
		dg := ruleBadPyproject.New(shown, line, 1, line, 1,
			"project name %s is not a valid Python project name; use letters, digits, '.', '_' and '-' (e.g. 'my-idea-gaia')", pyfmt.Str(pp.Project.Name))
		return nil, &dg
	}
	return &pp, nil
}

// projectNameRE is PEP 508's project name; it also keeps the import name
// from escaping the package directory ("../x").
var projectNameRE = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)

// lineOf returns the 1-based line of the first occurrence of s, or 1.
func lineOf(src []byte, s string) int {
	if i := bytes.Index(src, []byte(s)); i >= 0 {
		return bytes.Count(src[:i], []byte("\n")) + 1
	}
	return 1
}

// resolvePackage finds the source root as Gaia does: <dir>/<import>/ (flat
// layout) before <dir>/src/<import>/, and lists its .py files. No module
// is GAIA002 (W1: the reference passes silently).
func resolvePackage(dir string, pp *pyproject) (Package, *diag.Diagnostic) {
	pkg, dg := resolveRoot(dir, pp)
	if dg == nil && pkg.SourceRoot == filepath.ToSlash(filepath.Join(dir, pkg.ImportName)) {
		// W1: with both layouts present Gaia compiles the flat copy; an
		// author editing src/ would see neither their edits compiled nor
		// this copy checked, so say which one counts.
		shadow := filepath.Join(dir, "src", pkg.ImportName)
		if fi, err := os.Stat(shadow); err == nil && fi.IsDir() {
			w := ruleShadowedSrc.New(filepath.ToSlash(filepath.Join(dir, "pyproject.toml")), 1, 1, 1, 1,
				"both %s and %s exist; Gaia imports the flat %s and ignores %s, so only the flat copy is checked; delete the copy you do not mean",
				pyfmt.Str(pkg.ImportName+"/"), pyfmt.Str("src/"+pkg.ImportName+"/"), pyfmt.Str(pkg.ImportName+"/"), pyfmt.Str("src/"+pkg.ImportName+"/"))
			pkg.Notes = append(pkg.Notes, w)
		}
	}
	return pkg, dg
}

// resolveRoot finds the source root and the files of one package.
func resolveRoot(dir string, pp *pyproject) (Package, *diag.Diagnostic) {
	imp := ImportName(strings.TrimSpace(pp.Project.Name))
	pkg := Package{Dir: filepath.ToSlash(dir), ImportName: imp}
	for _, root := range []string{filepath.Join(dir, imp), filepath.Join(dir, "src", imp)} {
		if fi, err := os.Stat(root); err == nil && fi.IsDir() {
			pkg.SourceRoot = filepath.ToSlash(root)
			break
		}
	}
	shown := filepath.ToSlash(filepath.Join(dir, "pyproject.toml"))
	if pkg.SourceRoot == "" {
		dg := ruleNoModule.New(shown, 1, 1, 1, 1,
			"no module found for project %s: neither %s nor %s exists; Gaia imports <package>/<import_name>/ (flat layout) or <package>/src/<import_name>/",
			pyfmt.Str(pp.Project.Name), pyfmt.Str(imp+"/"), pyfmt.Str("src/"+imp+"/"))
		return pkg, &dg
	}
	files, err := pyFiles(pkg.SourceRoot)
	if err != nil || len(files) == 0 {
		why := "it holds no .py file"
		if err != nil {
			why = err.Error()
		}
		dg := ruleNoModule.New(shown, 1, 1, 1, 1, "no module found for project %s under %s: %s", pyfmt.Str(pp.Project.Name), pyfmt.Str(pkg.SourceRoot+"/"), why)
		return pkg, &dg
	}
	pkg.Files = files
	return pkg, nil
}

// pyFiles lists the .py files below root (what Gaia imports, W17), sorted
// by path components as Python's Path ordering does.
func pyFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != root && skipDir(e.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(e.Name(), ".py") {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	slices.SortFunc(files, comparePaths)
	return files, err
}

// comparePaths orders slash paths component by component, so "a/b.py"
// sorts before "a.py" as in Python's Path ordering.
func comparePaths(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}

// enclosingPackage walks up from path to the nearest directory holding a
// pyproject.toml.
func enclosingPackage(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "pyproject.toml")); err == nil {
			rel, err := filepath.Rel(abs, dir)
			if err != nil || filepath.IsAbs(path) {
				return dir, true
			}
			// Keep the user's spelling: relative arguments give relative
			// paths ("b.py/../.." cleans to the package directory).
			return filepath.Join(path, rel), true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// addFile lints one file: a .py file in the context of its package, or
// alone when no pyproject.toml is above it.
func (d *discovery) addFile(path string) error {
	if filepath.Base(path) == "pyproject.toml" {
		d.addPackage(filepath.Dir(path), true)
		return nil
	}
	if !strings.HasSuffix(path, ".py") {
		return fmt.Errorf("%s: not a Python file or a directory", path)
	}
	pkg := Package{Dir: filepath.ToSlash(filepath.Dir(path)), Files: []string{filepath.ToSlash(filepath.Clean(path))}, Partial: true}
	if dir, ok := enclosingPackage(path); ok {
		if pp, dg := readPyproject(dir); dg == nil {
			pkg.Dir = filepath.ToSlash(filepath.Clean(dir))
			pkg.ImportName = ImportName(pp.Project.Name)
		}
	}
	d.pkgs = append(d.pkgs, pkg)
	return nil
}

// addSubset lints the files of the package at pkgDir that lie under sub.
func (d *discovery) addSubset(pkgDir, sub string) error {
	files, err := pyFiles(sub)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no Gaia package found under %s and no .py file in it", sub)
	}
	pkg := Package{Dir: filepath.ToSlash(filepath.Clean(pkgDir)), SourceRoot: filepath.ToSlash(filepath.Clean(sub)), Files: files, Partial: true}
	if pp, dg := readPyproject(pkgDir); dg == nil {
		pkg.ImportName = ImportName(pp.Project.Name)
	}
	d.pkgs = append(d.pkgs, pkg)
	return nil
}
