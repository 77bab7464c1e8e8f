package ir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// CheckOptions configure CheckPackage and Check.
type CheckOptions struct {
	// SourceMap maps findings back to Python source lines; nil reports
	// everything at its ir.json / beliefs.json location.
	SourceMap SourceMap
	// RequireIR turns a missing .gaia/ir.json (or, when beliefs are
	// needed, .gaia/beliefs.json) into GAIA206 instead of a silent skip.
	// Lint leaves it false (a package that was never compiled has no IR to
	// check); extract and writeback set it.
	RequireIR bool
	// RequireBeliefs also requires .gaia/beliefs.json (GAIA206).
	RequireBeliefs bool
	// SourceFiles are the package's .py files for the staleness warning
	// GAIA213. Nil means every .py under the package directory outside
	// .gaia, .venv, .git, node_modules, gaia-sdk and hidden directories.
	SourceFiles []string
}

// MaxArtifactSize bounds how much of ir.json / beliefs.json is read (the
// bounded reader's cap for a JSON artifact).
const MaxArtifactSize = readlimit.MaxJSON

// IRPath returns where `gaia build compile` writes the compiled IR.
func IRPath(pkgDir string) string { return filepath.Join(pkgDir, ".gaia", "ir.json") }

// BeliefsPath returns where `gaia run infer` writes the beliefs.
func BeliefsPath(pkgDir string) string { return filepath.Join(pkgDir, ".gaia", "beliefs.json") }

// CheckPackage runs every IR check on the package at pkgDir: it reads
// <pkg>/.gaia/ir.json (and .gaia/beliefs.json when present, for GAIA212),
// and returns the sorted, located diagnostics and the reader-flow graph
// (nil when ir.json is missing or unusable). Diagnostic paths are the
// artifact paths as reached from pkgDir, with forward slashes. The error is
// for I/O failures only (unreadable file, a directory in its place).
func CheckPackage(pkgDir string, opts CheckOptions) ([]diag.Diagnostic, *Graph, error) {
	return checkPackage(pkgDir, nil, opts)
}

// Compiled is a package's .gaia/ir.json that its caller has already read
// through the bounded reader and parsed with Parse (writeback, which pins
// those exact bytes): CheckCompiled judges it without reading or parsing
// ir.json again.
type Compiled struct {
	Doc  *jsonloc.Doc // nil when the bytes did not parse
	Err  error        // Parse's error
	Info fs.FileInfo  // the file read, whose time the staleness warning GAIA213 compares
	// Beliefs is the package's .gaia/beliefs.json as the caller read it
	// (ReadBeliefs), so the checks judge the bytes the caller goes on to
	// use (writeback's recount of value); nil reads it as CheckPackage
	// does.
	Beliefs *BeliefsFile
}

// BeliefsFile is one read of a package's .gaia/beliefs.json through the
// bounded reader: its bytes, or the error the read gave.
type BeliefsFile struct {
	Path string      // BeliefsPath of the package, as read
	Src  []byte      // the bytes read; nil when Err is set
	Info fs.FileInfo // the file read (from the open file); nil when Err is set
	Err  error       // the bounded reader's error: fs.ErrNotExist when there is none
}

// ReadBeliefs reads pkgDir's .gaia/beliefs.json once, for a caller that
// checks it (Compiled.Beliefs) and then uses its value.
func ReadBeliefs(pkgDir string) *BeliefsFile {
	path := BeliefsPath(pkgDir)
	src, info, err := readlimit.ReadFileInfo(path, readlimit.JSON)
	return &BeliefsFile{Path: path, Src: src, Info: info, Err: err}
}

// statErr is the error a stat of the path gave before the read (nil when
// the stat found something there): the bounded reader stats first, and
// only that stat's errors are *fs.PathError with Op "stat".
func (b *BeliefsFile) statErr() error {
	var pe *fs.PathError
	if errors.As(b.Err, &pe) && pe.Op == "stat" {
		return b.Err
	}
	return nil
}

// ParseCompiled parses ir.json bytes read with info into a Compiled.
func ParseCompiled(src []byte, info fs.FileInfo) *Compiled {
	c := &Compiled{Info: info}
	c.Doc, c.Err = Parse(src)
	return c
}

// CheckCompiled is CheckPackage over the package's ir.json as c holds it;
// the other artifacts (beliefs.json, the sources) are read as CheckPackage
// reads them.
func CheckCompiled(pkgDir string, c *Compiled, opts CheckOptions) ([]diag.Diagnostic, *Graph, error) {
	if c == nil || c.Info == nil {
		return nil, nil, errors.New("internal error: CheckCompiled needs the compiled IR and the file it was read from")
	}
	if c.Beliefs != nil && c.Beliefs.Path != BeliefsPath(pkgDir) {
		return nil, nil, fmt.Errorf("internal error: CheckCompiled of %s was given the beliefs of %s", pkgDir, c.Beliefs.Path)
	}
	return checkPackage(pkgDir, c, opts)
}

// checkPackage is CheckPackage, reading ir.json when c is nil.
func checkPackage(pkgDir string, c *Compiled, opts CheckOptions) ([]diag.Diagnostic, *Graph, error) {
	irPath := IRPath(pkgDir)
	display := filepath.ToSlash(irPath)
	var out []diag.Diagnostic
	var beliefs *BeliefsFile
	if c != nil {
		beliefs = c.Beliefs
	}
	if opts.RequireBeliefs {
		// Beliefs first, as the reference checks them first (§3.2 step 11a).
		var d *diag.Diagnostic
		var err error
		if beliefs != nil {
			d, err = missingAfter(beliefs.Path, beliefs.statErr())
		} else {
			d, err = missing(BeliefsPath(pkgDir))
		}
		if err != nil {
			return nil, nil, err
		} else if d != nil {
			out = append(out, *d)
		}
	}
	if c == nil {
		src, info, err := readArtifact(irPath)
		if errors.Is(err, fs.ErrNotExist) {
			if opts.RequireIR || opts.RequireBeliefs {
				d, err := missing(irPath)
				if err != nil {
					return nil, nil, err
				}
				if d != nil {
					out = append(out, *d)
				}
			}
			return diag.SortDedup(out), nil, nil
		}
		if err != nil {
			return nil, nil, err
		}
		c = ParseCompiled(src, info)
	}
	ir, ds := LoadParsed(display, c.Doc, c.Err)
	out = append(out, ds...)
	if ir == nil {
		return diag.SortDedup(out), nil, nil
	}
	ds, g := Check(ir, opts)
	out = append(out, ds...)
	bs, err := checkBeliefs(pkgDir, beliefs, ir)
	if err != nil {
		return nil, nil, err
	}
	out = append(out, bs...)
	out = append(out, staleIR(pkgDir, display, c.Info.ModTime(), opts.SourceFiles)...)
	return diag.SortDedup(out), g, nil
}

// missing returns GAIA206 when path does not exist.
func missing(path string) (*diag.Diagnostic, error) {
	_, err := os.Stat(path)
	return missingAfter(path, err)
}

// missingAfter is missing given the error of path's stat.
func missingAfter(path string, err error) (*diag.Diagnostic, error) {
	if err == nil {
		return nil, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("could not read %s: %w", pyfmt.Str(path), err)
	}
	p := filepath.ToSlash(path)
	d := GAIA206.New(p, 1, 1, 1, 1, "missing %s; run the inference stages first (gaia build compile, gaia run infer)", p)
	return &d, nil
}

// readArtifact reads a regular file of bounded size through the bounded
// reader; its refusals (not a regular file, too large) pass up as they
// are, one line naming the file.
func readArtifact(path string) ([]byte, fs.FileInfo, error) {
	src, info, err := readlimit.ReadFileInfo(path, readlimit.JSON)
	return src, info, readError(path, err)
}

// readError is the bounded reader's error as readArtifact returns it.
func readError(path string, err error) error {
	if err != nil && !readlimit.Refused(err) && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("could not read %s: %w", pyfmt.Str(path), err)
	}
	return err
}

// checkBeliefs loads beliefs.json when present (as read, or read now when
// read is nil) and checks it is bound to the IR (GAIA212).
func checkBeliefs(pkgDir string, read *BeliefsFile, ir *IR) ([]diag.Diagnostic, error) {
	path := BeliefsPath(pkgDir)
	var src []byte
	var err error
	if read != nil {
		src, err = read.Src, readError(path, read.Err)
	} else {
		src, _, err = readArtifact(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b, ds := LoadBeliefs(filepath.ToSlash(path), src)
	if b == nil {
		return ds, nil
	}
	return append(ds, staleBeliefs(b, ir)...), nil
}

// skipDir reports the directories never searched for package sources.
func skipDir(name string) bool {
	switch name {
	case ".gaia", ".venv", ".git", "node_modules", "gaia-sdk", "__pycache__":
		return true
	}
	return false
}

// staleIR is GAIA213: ir.json is older than a source file of the package.
func staleIR(pkgDir, display string, irTime time.Time, files []string) []diag.Diagnostic {
	if files == nil {
		_ = filepath.WalkDir(pkgDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable corners only make the warning less complete
			}
			if d.IsDir() && p != pkgDir && (skipDir(d.Name()) || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".py") {
				files = append(files, p)
			}
			return nil
		})
	}
	var newest string
	var newestTime time.Time
	for _, f := range files {
		info, err := os.Stat(f)
		if err == nil && info.ModTime().After(irTime) && info.ModTime().After(newestTime) {
			newest, newestTime = f, info.ModTime()
		}
	}
	if newest == "" {
		return nil
	}
	return []diag.Diagnostic{codeIRStale.New(display, 1, 1, 1, 1,
		"%s is older than source %s (modified %s after the compile); recompile with gaia build compile so the IR checks see the current graph",
		display, pyfmt.Str(filepath.ToSlash(newest)), newestTime.Sub(irTime).Round(time.Second))}
}
