// Package driver runs go/analysis analyzers over the Python files of one
// Gaia package. The stock drivers load Go packages; this one hands each
// analyzer a Pass whose OtherFiles are the package's .py files, whose Fset
// the pyparse analyzer fills with AddFile/SetLinesForContent, and whose
// diagnostics are converted into diag.Diagnostic records (the rule code is
// the Category, name and severity come from the registry; an analyzer may
// report only the rules its family owns).
//
// An analyzer must not keep its Pass, or anything holding it, past its
// Run: a runner and its one Pass are refilled for the next package, maybe
// on another goroutine, once RunParsed returns (TestResultsKeepNoPass).
package driver

import (
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/internal/suppress"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/diag"
)

// Options configure one run.
type Options struct {
	// Suppress applies `# nullius: ignore[CODE] reason` comments and
	// reports malformed and unused ones (NULLIUS001/NULLIUS002). Only
	// meaningful when every analyzer runs; a partial run would call every
	// suppression for a rule it skipped unused.
	Suppress bool
	// Overlay holds in-memory contents that replace files on disk, keyed
	// by the file path as listed in files (an editor's unsaved buffers).
	Overlay map[string][]byte
	// Parsed, when set, is the package already read and parsed into Fset
	// (the lint engine parses with its workers' long-lived parsers); the
	// pyparse analyzer is then not run.
	Parsed *pyparse.Result
	Fset   *token.FileSet
	// Validated says the caller has run analysis.Validate on this very
	// analyzer set, so a run per package does not repeat it.
	Validated bool
}

// Run runs analyzers (and everything they require) over files, the
// display paths of one package's Python files. The error is for a broken
// analyzer set or an analyzer that could not do its job, never for
// findings.
func Run(dir string, files []string, analyzers []*analysis.Analyzer, opts Options) ([]diag.Diagnostic, error) {
	ds, _, err := RunParsed(dir, files, analyzers, opts)
	return ds, err
}

// RunParsed is Run that also returns the parsed files (nil when no
// analyzer required pyparse), so callers can map other findings to
// source lines without parsing a file twice.
func RunParsed(dir string, files []string, analyzers []*analysis.Analyzer, opts Options) ([]diag.Diagnostic, *pyparse.Result, error) {
	if !opts.Validated {
		if err := analysis.Validate(analyzers); err != nil {
			return nil, nil, err
		}
	}
	fset := opts.Fset
	if fset == nil {
		fset = token.NewFileSet()
	}
	r := runners.Get().(*runner)
	defer r.release()
	if r.results == nil {
		r.results = make(map[*analysis.Analyzer]any, len(analyzers)+2)
		r.info, r.sizes = &types.Info{}, gcSizes()
		r.read = r.readFile
		r.report = func(d analysis.Diagnostic) { r.diags = append(r.diags, reported{r.pass.Analyzer, d}) }
	}
	r.fset, r.files, r.overlay = fset, files, opts.Overlay
	r.pass = analysis.Pass{
		Fset:       fset,
		OtherFiles: files,
		Pkg:        types.NewPackage(filepath.ToSlash(dir), "gaia"),
		TypesInfo:  r.info,
		TypesSizes: r.sizes,
		ResultOf:   r.results,
		ReadFile:   r.read,
		Report:     r.report,
	}
	if opts.Parsed != nil {
		r.results[pyparse.Analyzer] = opts.Parsed
	}
	for _, a := range analyzers {
		if err := r.exec(a); err != nil {
			return nil, nil, err
		}
	}
	ds, err := r.convert()
	if err != nil {
		return nil, nil, err
	}
	parsed, _ := r.results[pyparse.Analyzer].(*pyparse.Result)
	if opts.Suppress && parsed != nil {
		ds = suppress.Apply(ds, parsed)
	}
	return ds, parsed, nil
}

// runners holds runners whose run has ended, for the next package: its
// results map, diagnostics slice, Info, ReadFile and Report were most of
// the driver's own allocation per package. A runner is reused only after
// its run has returned, and nothing of a run refers to it then: no
// analyzer result keeps its Pass, and diagnostics are converted before
// RunParsed returns.
var runners = sync.Pool{New: func() any { return new(runner) }}

// release empties r (so it keeps no package's files, results or
// diagnostics alive) and returns it to runners.
func (r *runner) release() {
	r.pass = analysis.Pass{}
	clear(r.results)
	clear(r.diags)
	r.diags = r.diags[:0]
	r.fset, r.files, r.overlay = nil, nil, nil
	runners.Put(r)
}

type reported struct {
	a *analysis.Analyzer
	d analysis.Diagnostic
}

type runner struct {
	fset  *token.FileSet
	files []string
	// results holds the result of every analyzer that has run (nil for
	// one without a result type): it is every pass's ResultOf, and an
	// analyzer in it has run.
	results map[*analysis.Analyzer]any
	diags   []reported
	overlay map[string][]byte
	// Made once per runner and shared by every pass of its runs: one
	// empty types.Info, the sizes (a map lookup in go/types), one ReadFile
	// and one Report (which credits the analyzer of pass).
	info   *types.Info
	sizes  types.Sizes
	read   func(string) ([]byte, error)
	report func(analysis.Diagnostic)
	// pass is the Pass of every analyzer of a run, its Analyzer set to
	// the one running: an analyzer uses its Pass only during its Run,
	// runs do not nest (requirements run first), and no analyzer assigns
	// a field of its Pass, so one serves them all and a run makes none.
	pass analysis.Pass
}

// exec runs a after its requirements, once (a memoised depth-first walk
// of the Requires graph, which Validate proved acyclic). Every analyzer
// gets the run's one Pass, whose ResultOf is the run's results map (an
// analyzer looks up only what it Requires, and everything it requires
// has run).
func (r *runner) exec(a *analysis.Analyzer) error {
	if _, ok := r.results[a]; ok {
		return nil
	}
	for _, req := range a.Requires {
		if err := r.exec(req); err != nil {
			return err
		}
	}
	r.pass.Analyzer = a
	res, err := a.Run(&r.pass)
	if err != nil {
		return fmt.Errorf("analyzer %s: %w", a.Name, err)
	}
	// Validate does not check result types; a mismatch would panic in a
	// dependent's type assertion, so catch it here.
	if a.ResultType != nil && (res == nil || reflect.TypeOf(res) != a.ResultType) {
		return fmt.Errorf("analyzer %s returned %T, want %v", a.Name, res, a.ResultType)
	}
	r.results[a] = res
	return nil
}

// gcSizes are the sizes Pass.TypesSizes promises (no analyzer here uses
// Go types; the field is filled because go/analysis documents it): a
// lookup in go/types' table, made once per runner rather than at process
// start.
func gcSizes() types.Sizes { return types.SizesFor("gc", "amd64") }

// readFile serves the package's own files only, from the overlay when it
// holds the file, else through the bounded reader: a file larger than
// pyparse.MaxFileSize is refused before it is read, and a FIFO or device
// named like a module is refused without being opened (its GAIA000 says
// so), so it never blocks the run.
func (r *runner) readFile(name string) ([]byte, error) {
	if !slices.Contains(r.files, name) {
		return nil, fmt.Errorf("%s is not a file of this package", name)
	}
	return pyparse.ReadSource(name, r.overlay)
}

// convert turns reported analysis diagnostics into diag records.
func (r *runner) convert() ([]diag.Diagnostic, error) {
	out := make([]diag.Diagnostic, 0, len(r.diags))
	for _, rd := range r.diags {
		rule, ok := diag.Lookup(rd.d.Category)
		if !ok || rd.d.Category == "" {
			return nil, fmt.Errorf("analyzer %s reported unregistered rule code %q", rd.a.Name, rd.d.Category)
		}
		// Ownership is declared by the rule's family; a finding for a rule
		// another analyzer owns would vanish from that analyzer's tests
		// and mislead a single-analyzer run, so it is a driver error.
		if rule.Owner != rd.a.Name {
			return nil, fmt.Errorf("analyzer %s reported %s, which belongs to %q", rd.a.Name, rule.Code, rule.Owner)
		}
		start := r.position(rd.d.Pos)
		if !start.IsValid() {
			return nil, errors.New("analyzer " + rd.a.Name + " reported a diagnostic without a position: " + rd.d.Message)
		}
		end := start
		if p := r.position(rd.d.End); p.IsValid() && rd.d.End >= rd.d.Pos {
			end = p
		}
		d := rule.New(filepath.ToSlash(start.Filename), start.Line, start.Column, end.Line, end.Column, "%s", rd.d.Message)
		d.Fixes = fixes(r.fset, rd.d.SuggestedFixes)
		out = append(out, d)
	}
	return out, nil
}

// position is the FileSet's position of p, once the file holding it has
// its line table (pyparse sets it on first need).
func (r *runner) position(p token.Pos) token.Position {
	if parsed, _ := r.results[pyparse.Analyzer].(*pyparse.Result); parsed != nil {
		parsed.Lines(p)
	}
	return r.fset.Position(p)
}

// fixes converts suggested fixes into byte-offset edits (offsets need no
// line table).
func fixes(fset *token.FileSet, sf []analysis.SuggestedFix) []diag.Fix {
	var out []diag.Fix
	for _, f := range sf {
		fix := diag.Fix{Message: f.Message}
		for _, e := range f.TextEdits {
			fix.Edits = append(fix.Edits, diag.Edit{
				Start: fset.Position(e.Pos).Offset, End: fset.Position(e.End).Offset, NewText: string(e.NewText),
			})
		}
		out = append(out, fix)
	}
	return out
}
