package analyzers

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/plaintoml"
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

// decodePyproject is toml.Unmarshal of src into a pyproject. A file of
// the plain shape Gaia packages have (quickPyproject) is read from the
// TOML parser's expressions directly: go-toml's decoder builds its
// reflection plan and pools on first use, ~35 us of a one-package lint.
// Anything else, errors included, is decoded by toml.Unmarshal itself;
// FuzzQuickPyproject holds the two to the same result.
func decodePyproject(src []byte) (pyproject, error) {
	if pp, ok := quickPyproject(src); ok {
		return pp, nil
	}
	var pp pyproject
	err := toml.Unmarshal(src, &pp)
	return pp, err
}

// quickPyproject reads a pyproject.toml of the plain shape (package
// plaintoml: table headers and one-word keys whose values are strings,
// booleans and arrays of them, each defined once) whose pyproject fields
// are spelled as named; ok is false for anything else (also a key that
// names a field in another case, which the decoder matches too), which
// toml.Unmarshal then decodes.
func quickPyproject(src []byte) (pp pyproject, ok bool) {
	ok = plaintoml.Walk(src, func(path [][]byte) bool {
		if !plainPath(path) || len(path) >= 2 && string(path[0]) == "project" &&
			(string(path[1]) == "name" || string(path[1]) == "dependencies") {
			return false
		}
		if len(path) >= 2 && string(path[0]) == "tool" {
			if pp.Tool == nil {
				pp.Tool = map[string]any{}
			}
			if _, ok := pp.Tool[string(path[1])]; !ok {
				pp.Tool[string(path[1])] = map[string]any{}
			}
		}
		return true
	}, func(table [][]byte, key []byte, v *unstable.Node) bool {
		if !plainPart(table, key) {
			return false
		}
		switch {
		case len(table) == 0:
			// A value where the decoder wants a table.
			return string(key) != "project" && string(key) != "tool"
		case len(table) == 1 && string(table[0]) == "project" && string(key) == "name":
			if v.Kind != unstable.String {
				return false
			}
			pp.Project.Name = string(v.Data)
		case len(table) == 1 && string(table[0]) == "project" && string(key) == "dependencies":
			deps, ok := plaintoml.Strings(v)
			if !ok {
				return false
			}
			pp.Project.Dependencies = deps
		case len(table) == 1 && string(table[0]) == "tool":
			if pp.Tool == nil {
				pp.Tool = map[string]any{}
			}
			pp.Tool[string(key)] = nil // only the keys of [tool] are read
		}
		return true
	})
	if !ok {
		return pyproject{}, false
	}
	return pp, true
}

// plainPath reports a table path whose parts the decoder maps exactly as
// spelled (plainPart).
func plainPath(path [][]byte) bool {
	for i, part := range path {
		if !plainPart(path[:i], part) {
			return false
		}
	}
	return true
}

// plainPart reports whether the decoder maps part, below the path parent,
// exactly as spelled: project and tool at the top and name and
// dependencies under project only in those spellings (the decoder also
// takes "Project" or "NAME" for them).
func plainPart(parent [][]byte, part []byte) bool {
	switch {
	case len(parent) == 0:
		return !plaintoml.Respelled(part, "project") && !plaintoml.Respelled(part, "tool")
	case len(parent) == 1 && string(parent[0]) == "project":
		return !plaintoml.Respelled(part, "name") && !plaintoml.Respelled(part, "dependencies")
	}
	return true
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

// scan is the file-system side of one run: discovery of the packages the
// paths name (streamed as jobs to the lint workers) and their resolution
// into files, over one tree of cached directory listings and
// configuration files.
type scan struct {
	t *fsTree
}

func newScan() *scan { return newScanIn("") }

// newScanIn is newScan in the working directory wd ("": asked of the OS).
func newScanIn(wd string) *scan { return &scan{t: newFSTreeIn(wd)} }

// jobKind says what a discovery job asks for.
type jobKind uint8

const (
	jobPackage jobKind = iota // the package at dir (explicit: named by the user)
	jobFile                   // the .py file at path, in the context of its package
	jobSubset                 // the files under path of the package at dir
)

// job is one unit of discovery, numbered in discovery order (seq) and
// tagged with the index of the path argument it came from (arg).
type job struct {
	kind      jobKind
	seq, arg  int
	dir, path string
	explicit  bool
}

// found is a resolved job: the package (nil when the package is broken
// and only diagnostics remain), its discovery diagnostics, and whether it
// counts as a package found under its argument.
type found struct {
	accepted bool
	key      string // the cleaned package dir; "" for a single file (never deduplicated)
	pkg      *Package
	diags    []diag.Diagnostic
	err      error // a subset whose directory cannot be listed
	// unlinted is set when the package was found but not linted (its
	// configuration is broken, or linting it failed): its files are not
	// counted as examined.
	unlinted bool
	// noIR, when splitIR (Options.AlsoNoIR, IR checks run), is what diags
	// would be with NoIR; otherwise that is diags.
	noIR    []diag.Diagnostic
	splitIR bool
}

// Discover finds the Gaia packages named by paths. A path may be a package
// directory, a .py file (linted alone, in the context of the package that
// holds it when there is one), or any directory, searched for packages. A
// path that does not exist, or a directory with no package in or above it,
// is an error; a package whose module cannot be found is a diagnostic.
func Discover(paths []string) ([]Package, []diag.Diagnostic, error) {
	s := newScan()
	var outs []found
	var jobs []job
	for arg, p := range paths {
		if err := s.walkArg(arg, p, func(j job) { jobs = append(jobs, j) }); err != nil {
			return nil, nil, err
		}
	}
	for _, j := range jobs {
		outs = append(outs, s.resolve(j))
	}
	var pkgs []Package
	var diags []diag.Diagnostic
	err := s.merge(paths, jobs, outs, func(j job) found { return s.resolve(j) }, func(f found) {
		if f.pkg != nil {
			pkgs = append(pkgs, *f.pkg)
		}
		diags = append(diags, f.diags...)
	})
	if err != nil {
		return nil, nil, err
	}
	return pkgs, diags, nil
}

// merge takes the resolved jobs in discovery order, keeps the first
// accepted result of each package, and, for a path argument under which
// nothing was found, tries what a user naming it would mean: the
// directory itself as a package (a project root that is not marked as
// Gaia), then the package holding it (a module folder). take receives
// every kept result; run resolves (and lints) a fallback job.
func (s *scan) merge(paths []string, jobs []job, outs []found, run func(job) found, take func(found)) error {
	seen := map[string]bool{}
	hit := make([]bool, len(paths))
	keep := func(arg int, f found) {
		if !f.accepted {
			return
		}
		hit[arg] = true
		if f.key != "" {
			if seen[f.key] {
				return
			}
			seen[f.key] = true
		}
		take(f)
	}
	for i, j := range jobs {
		keep(j.arg, outs[i])
	}
	for arg, path := range paths {
		if hit[arg] {
			continue
		}
		if s.hasPyproject(path) {
			if key := filepath.Clean(path); seen[key] {
				continue // named twice: linted once
			}
			keep(arg, run(job{kind: jobPackage, arg: arg, dir: path, explicit: true}))
			if hit[arg] {
				continue
			}
		}
		// No package at or below: a directory inside a package (its module
		// folder, say) lints the package's files under it.
		pkgDir, ok := s.enclosingPackage(path)
		if !ok {
			return fmt.Errorf("no Gaia package found under %s (a package is a directory with a pyproject.toml)", path)
		}
		f := run(job{kind: jobSubset, arg: arg, dir: pkgDir, path: path})
		if f.err != nil {
			return f.err
		}
		if !f.accepted {
			return fmt.Errorf("no Gaia package found under %s and no .py file in it", path)
		}
		keep(arg, f)
	}
	return nil
}

// walkArg turns one path argument into jobs, in discovery order: a file
// is one job; a directory is a candidate package when it holds a
// pyproject.toml, then every directory below it holding one, in lexical
// pre-order (what filepath.WalkDir visits), from directory listings alone.
func (s *scan) walkArg(arg int, path string, emit func(job)) error {
	// Clean once: every path below is built from it with join.
	path = filepath.Clean(path)
	// The bounded lister stats path before opening it: its refusal of a
	// non-directory is the one stat that tells a file argument apart.
	es, err := s.t.list(path)
	var nd *readlimit.NotDirError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file or directory", path)
	case errors.As(err, &nd):
		switch {
		case filepath.Base(path) == "pyproject.toml":
			emit(job{kind: jobPackage, arg: arg, dir: filepath.Dir(path), explicit: true})
		case strings.HasSuffix(path, ".py"):
			emit(job{kind: jobFile, arg: arg, path: path})
		default:
			return fmt.Errorf("%s: not a Python file or a directory", path)
		}
		return nil
	case err != nil:
		return err
	}
	// A named directory with a pyproject.toml is a package, unless it is
	// some other Python project (a repository root with tooling config)
	// that holds Gaia packages below it: a candidate, like the ones below.
	if s.hasPyprojectIn(path, es) {
		emit(job{kind: jobPackage, arg: arg, dir: path})
	}
	s.walkBelow(arg, path, es, emit)
	return nil
}

// walkBelow emits a candidate for every directory strictly below dir
// that holds a pyproject.toml, skipping skipDir's directories and not
// following symlinks; an unreadable corner of the tree is not a package.
func (s *scan) walkBelow(arg int, dir string, es []fs.DirEntry, emit func(job)) {
	for _, e := range es {
		if !e.IsDir() || skipDir(e.Name()) {
			continue
		}
		p := join(dir, e.Name())
		sub, err := s.t.list(p)
		if err != nil {
			// A directory that can be searched but not listed may still
			// hold a package.
			if _, err := os.Stat(join(p, "pyproject.toml")); err == nil {
				emit(job{kind: jobPackage, arg: arg, dir: p})
			}
			continue
		}
		if s.hasPyprojectIn(p, sub) {
			emit(job{kind: jobPackage, arg: arg, dir: p})
		}
		s.walkBelow(arg, p, sub, emit)
	}
}

// hasPyprojectIn reports whether a listing of dir has a pyproject.toml
// that os.Stat would find (a symlink is followed).
func (s *scan) hasPyprojectIn(dir string, es []fs.DirEntry) bool {
	e, ok := entry(es, "pyproject.toml")
	if !ok {
		return false
	}
	if e.Type()&fs.ModeSymlink != 0 {
		_, err := os.Stat(join(dir, "pyproject.toml"))
		return err == nil
	}
	return true
}

// hasPyproject reports whether dir holds a pyproject.toml.
func (s *scan) hasPyproject(dir string) bool {
	es, err := s.t.list(dir)
	return err == nil && s.hasPyprojectIn(dir, es)
}

// resolve turns a job into its package: the package's pyproject.toml read
// and judged (a candidate met while walking is only taken when it
// describes a Gaia package; a broken one counts, so its GAIA003 is
// reported), its source root and files found.
func (s *scan) resolve(j job) found {
	switch j.kind {
	case jobFile:
		return s.resolveFile(j.path)
	case jobSubset:
		return s.resolveSubset(j.dir, j.path)
	}
	key := filepath.Clean(j.dir)
	pp, dg := s.readPyproject(j.dir)
	if dg != nil {
		return found{accepted: true, key: key, diags: []diag.Diagnostic{*dg}}
	}
	if !j.explicit && !pp.isGaia() {
		return found{}
	}
	pkg, dg := s.resolvePackage(j.dir, key, pp)
	if dg != nil {
		return found{accepted: true, key: key, diags: []diag.Diagnostic{*dg}}
	}
	return found{accepted: true, key: key, pkg: &pkg, diags: pkg.Notes}
}

// readPyproject parses dir/pyproject.toml. A file that cannot be read or
// parsed, or that has no [project].name, is a GAIA003 diagnostic.
func (s *scan) readPyproject(dir string) (*pyproject, *diag.Diagnostic) {
	path := join(filepath.Clean(dir), "pyproject.toml")
	shown := filepath.ToSlash(path)
	src, err := s.t.readConfig(path)
	if err != nil {
		// A FIFO or device named pyproject.toml is refused by the bounded
		// reader without being opened: reported here, never waited on.
		dg := ruleBadPyproject.New(shown, 1, 1, 1, 1, "could not read pyproject.toml: %v", err)
		return nil, &dg
	}
	pp, err := decodePyproject(src)
	if err != nil {
		line, col := 1, 1
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col = de.Position()
		}
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		dg := ruleBadPyproject.New(shown, line, col, line, col, "pyproject.toml does not parse: %s", msg)
		return nil, &dg
	}
	if _, ok := pp.Tool["nullius"]; !ok {
		// Decoded without error and no [tool.nullius]: configuration's
		// own (strict) decode would find no table either.
		s.t.markPlain(path)
	}
	if strings.TrimSpace(pp.Project.Name) == "" {
		line := lineOf(src, "[project]")
		dg := ruleBadPyproject.New(shown, line, 1, line, 1,
			"pyproject.toml has no [project].name; Gaia takes the import name from it, so add name = \"<slug>-gaia\"")
		return nil, &dg
	}
	if !validProjectName(strings.TrimSpace(pp.Project.Name)) {
		line := lineOf(src, "name")
		dg := ruleBadPyproject.New(shown, line, 1, line, 1,
			"project name %s is not a valid Python project name; use letters, digits, '.', '_' and '-' (e.g. 'my-idea-gaia')", pyfmt.Str(pp.Project.Name))
		return nil, &dg
	}
	return &pp, nil
}

// validProjectName reports a PEP 508 project name,
// ^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$; it also keeps the import
// name from escaping the package directory ("../x").
func validProjectName(name string) bool {
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	if name == "" || !alnum(name[0]) || !alnum(name[len(name)-1]) {
		return false
	}
	for i := 1; i < len(name)-1; i++ {
		if c := name[i]; !alnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

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
//
// dir is the package directory as spelled (Package.Dir keeps it), clean
// is filepath.Clean(dir), which every path below is built on.
func (s *scan) resolvePackage(dir, clean string, pp *pyproject) (Package, *diag.Diagnostic) {
	pkg, dg := s.resolveRoot(dir, clean, pp)
	if dg == nil && pkg.SourceRoot == filepath.ToSlash(joinName(clean, pkg.ImportName)) {
		// W1: with both layouts present Gaia compiles the flat copy; an
		// author editing src/ would see neither their edits compiled nor
		// this copy checked, so say which one counts.
		if s.t.isDir(join(clean, "src"), pkg.ImportName) {
			w := ruleShadowedSrc.New(filepath.ToSlash(filepath.Join(dir, "pyproject.toml")), 1, 1, 1, 1,
				"both %s and %s exist; Gaia imports the flat %s and ignores %s, so only the flat copy is checked; delete the copy you do not mean",
				pyfmt.Str(pkg.ImportName+"/"), pyfmt.Str("src/"+pkg.ImportName+"/"), pyfmt.Str(pkg.ImportName+"/"), pyfmt.Str("src/"+pkg.ImportName+"/"))
			pkg.Notes = append(pkg.Notes, w)
		}
	}
	return pkg, dg
}

// resolveRoot finds the source root and the files of one package.
func (s *scan) resolveRoot(dir, clean string, pp *pyproject) (Package, *diag.Diagnostic) {
	imp := ImportName(strings.TrimSpace(pp.Project.Name))
	pkg := Package{Dir: filepath.ToSlash(dir), ImportName: imp}
	// The import name may hold dots or be "."; look it up as a path, as
	// the os.Stat of the joined path would.
	for _, parent := range [...]string{clean, join(clean, "src")} {
		root := joinName(parent, imp)
		in, name := parent, imp
		if !component(imp) {
			in, name = filepath.Dir(root), filepath.Base(root)
		}
		if s.t.isDir(in, name) {
			pkg.SourceRoot = filepath.ToSlash(root)
			break
		}
	}
	if pkg.SourceRoot == "" {
		dg := ruleNoModule.New(filepath.ToSlash(join(clean, "pyproject.toml")), 1, 1, 1, 1,
			"no module found for project %s: neither %s nor %s exists; Gaia imports <package>/<import_name>/ (flat layout) or <package>/src/<import_name>/",
			pyfmt.Str(pp.Project.Name), pyfmt.Str(imp+"/"), pyfmt.Str("src/"+imp+"/"))
		return pkg, &dg
	}
	files, err := s.pyFiles(pkg.SourceRoot)
	if err != nil || len(files) == 0 {
		why := "it holds no .py file"
		if err != nil {
			why = err.Error()
		}
		dg := ruleNoModule.New(filepath.ToSlash(join(clean, "pyproject.toml")), 1, 1, 1, 1, "no module found for project %s under %s: %s", pyfmt.Str(pp.Project.Name), pyfmt.Str(pkg.SourceRoot+"/"), why)
		return pkg, &dg
	}
	pkg.Files = files
	return pkg, nil
}

// joinName is filepath.Join(clean, name) for a clean directory: join
// (no Clean of the whole path) when name is one path component, as an
// import name is (validProjectName), filepath.Join otherwise.
func joinName(clean, name string) string {
	if !component(name) {
		return filepath.Join(clean, name)
	}
	return join(clean, name)
}

// component reports whether name is one path component: not empty, "."
// or "..", and without a separator.
func component(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsRune(name, filepath.Separator)
}

// pyFiles lists the .py files below root (what Gaia imports, W17), sorted
// by path components as Python's Path ordering does. The first directory
// that cannot be listed is the error, as filepath.WalkDir reports it.
func (s *scan) pyFiles(root string) ([]string, error) {
	var files []string
	var walk func(dir string) error
	walk = func(dir string) error {
		es, err := s.t.list(dir)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.IsDir() {
				if skipDir(e.Name()) {
					continue
				}
				if err := walk(join(dir, e.Name())); err != nil {
					return err
				}
				continue
			}
			if strings.HasSuffix(e.Name(), ".py") {
				files = append(files, filepath.ToSlash(join(dir, e.Name())))
			}
		}
		return nil
	}
	err := walk(root)
	slices.SortFunc(files, comparePaths)
	return files, err
}

// comparePaths orders slash paths component by component, so "a/b.py"
// sorts before "a.py" as in Python's Path ordering.
func comparePaths(a, b string) int {
	for {
		ca, ra, moreA := strings.Cut(a, "/")
		cb, rb, moreB := strings.Cut(b, "/")
		if c := strings.Compare(ca, cb); c != 0 {
			return c
		}
		switch {
		case !moreA && !moreB:
			return 0
		case !moreA:
			return -1
		case !moreB:
			return 1
		}
		a, b = ra, rb
	}
}

// enclosingPackage walks up from the directory path to the nearest
// directory holding a pyproject.toml.
func (s *scan) enclosingPackage(path string) (string, bool) {
	abs, err := s.t.absPath(path)
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
			// paths ("src/m/.." cleans to the package directory).
			return filepath.Join(path, rel), true
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// resolveFile lints one file: a .py file in the context of its package,
// or alone when no pyproject.toml is above it.
func (s *scan) resolveFile(path string) found {
	pkg := Package{Dir: filepath.ToSlash(filepath.Dir(path)), Files: []string{filepath.ToSlash(filepath.Clean(path))}, Partial: true}
	// From the file's directory: the file itself holds no pyproject.toml.
	if dir, ok := s.enclosingPackage(filepath.Dir(path)); ok {
		if pp, dg := s.readPyproject(dir); dg == nil {
			pkg.Dir = filepath.ToSlash(filepath.Clean(dir))
			pkg.ImportName = ImportName(pp.Project.Name)
		}
	}
	return found{accepted: true, pkg: &pkg}
}

// resolveSubset lints the files of the package at pkgDir that lie under
// sub; it is not accepted when sub holds no .py file.
func (s *scan) resolveSubset(pkgDir, sub string) found {
	files, err := s.pyFiles(sub)
	if err != nil || len(files) == 0 {
		return found{err: err}
	}
	pkg := Package{Dir: filepath.ToSlash(filepath.Clean(pkgDir)), SourceRoot: filepath.ToSlash(filepath.Clean(sub)), Files: files, Partial: true}
	if pp, dg := s.readPyproject(pkgDir); dg == nil {
		pkg.ImportName = ImportName(pp.Project.Name)
	}
	return found{accepted: true, pkg: &pkg}
}
