// Package analyzers is the Gaia discipline scan: package discovery, the
// registry of rule analyzers (one golang.org/x/tools/go/analysis Analyzer
// per rule family, in subpackages), and Lint, which runs them over Python
// files through the driver in internal/driver and adds the compiled-IR
// checks of package ir.
package analyzers

import (
	"errors"
	"fmt"
	"go/token"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/internal/driver"
	"github.com/nullius-dev/nullius/analyzers/internal/suppress"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/internal/config"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// Options configure a lint run.
type Options struct {
	// NoIR skips the compiled-IR checks even when .gaia/ir.json exists.
	NoIR bool
	// AlsoNoIR also returns, in Result.NoIRDiagnostics, what the same run
	// with NoIR would have returned, from the same parse: an editor shows
	// the IR checks' part beside the source findings it re-lints as the
	// user types, without linting the package twice.
	AlsoNoIR bool
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
	// Finished, when set, counts the packages (and named files) finished
	// so far, for a progress display reading it from another goroutine.
	Finished *atomic.Int64
	// Parallel, when set, is called once as the run starts its worker
	// goroutines (a run of one package starts none), and the function it
	// returns once they have finished: nullius lint gives the scheduler a
	// spare P there (cmd/nullius spareProc). The number of workers is
	// settled before it is called.
	Parallel func() (done func())
	// WorkDir is the working directory relative paths are resolved
	// against, when the caller has asked for it already; "" asks the OS.
	WorkDir string
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
	// NoIRDiagnostics, with Options.AlsoNoIR, are the diagnostics of the
	// run with NoIR, sorted and deduplicated.
	NoIRDiagnostics []diag.Diagnostic
}

// Lint discovers the Gaia packages under paths (a package directory, a
// Python file, or any directory containing packages) and runs every
// analyzer over them. The error is for what stops the run before any
// package is judged: a path that does not exist or cannot be listed, a
// path with no package in or above it, an unusable ConfigFile. A package
// that cannot be read, configured or linted is diagnostics (GAIA003,
// NULLIUS003, NULLIUS004), and the run goes on with the others.
//
// Discovery streams packages to the workers as the directory walk finds
// them; each worker resolves, parses (with its own long-lived parser),
// checks and configures whole packages, so no phase of the run waits for
// another to finish.
func Lint(paths []string, opts Options) (*Result, error) {
	e, err := newEngine(opts)
	if err != nil {
		return nil, err
	}
	return e.run(paths)
}

// engine is one lint run.
type engine struct {
	s    *scan
	opts Options
	res  *config.Resolver // nil with NoConfig
	// whole and partial are the analyzer sets for a whole package and
	// for some files of one.
	whole, partial []*analysis.Analyzer
}

func newEngine(opts Options) (*engine, error) {
	// Both analyzer sets are fixed at build time, and TestAnalyzerSetsValid
	// runs analysis.Validate on them: the driver is told they are valid
	// (driver.Options.Validated) instead of validating them every run.
	e := &engine{s: newScanIn(opts.WorkDir), opts: opts, whole: forFiles(false), partial: forFiles(true)}
	if opts.NoConfig {
		return e, nil
	}
	ro := config.ResolverOptions{Cwd: e.s.t.cwd, Read: e.s.t.readConfig, Lookup: e.s.t.holds, Plain: e.s.t.isPlain}
	if opts.ConfigFile != "" {
		c, err := config.Load(opts.ConfigFile)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, &config.Error{Path: opts.ConfigFile, Msg: "has no [tool.nullius] table"}
		}
		ro.Explicit = c
	}
	e.res = config.NewResolverWith(ro)
	return e, nil
}

func (e *engine) run(paths []string) (*Result, error) {
	workers := e.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// The walk appends jobs to one list the workers take them from in
	// order: it lists directories far faster than the workers lint
	// packages, and with no bound on the list it never waits for them, so
	// a run of a thousand packages does not hand the walk back and forth
	// between threads once per package, as a full channel would.
	var (
		mu      sync.Mutex
		added   = sync.NewCond(&mu) // a job was added, or the walk ended
		jobs    []job               // every emitted job, by seq
		taken   int                 // how many of jobs the workers have taken
		walked  bool                // the walk has ended: no job will be added
		walkErr error
		outs    []found // by seq
		wg      sync.WaitGroup
	)
	// next waits for the next job; ok is false once the walk has ended
	// and every job is taken.
	next := func() (j job, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		for taken == len(jobs) && !walked {
			added.Wait()
		}
		if taken == len(jobs) {
			return job{}, false
		}
		taken++
		return jobs[taken-1], true
	}
	// drain lints jobs until there are no more.
	drain := func() {
		w := e.newWorker()
		defer w.close()
		for j, ok := next(); ok; j, ok = next() {
			f := w.process(j)
			mu.Lock()
			if n := j.seq + 1; n > len(outs) {
				outs = append(outs, make([]found, n-len(outs))...)
			}
			outs[j.seq] = f
			mu.Unlock()
			if e.opts.Finished != nil {
				e.opts.Finished.Add(1)
			}
		}
	}
	// The walk runs on this goroutine and the workers start with the
	// second job (the walk goes on beside them), so a run of one package
	// is linted here once the walk ends: no goroutine and no hand-off
	// between threads (each costs a one-package run ~0.05 ms).
	started := false
	var parallelDone func()
	func() {
		defer func() {
			mu.Lock()
			walked = true
			mu.Unlock()
			added.Broadcast()
		}()
		defer func() {
			if r := recover(); r != nil {
				walkErr = fmt.Errorf("internal error while discovering packages: %v (please report this)", r)
			}
		}()
		emitted := map[string]bool{}
		for arg, p := range paths {
			err := e.s.walkArg(arg, p, func(j job) {
				if j.kind == jobPackage && !j.explicit {
					k := filepath.Clean(j.dir)
					if emitted[k] {
						return
					}
					emitted[k] = true
				}
				mu.Lock()
				j.seq = len(jobs)
				jobs = append(jobs, j)
				mu.Unlock()
				added.Signal()
				afterEmit(j.seq)
				if j.seq == 1 && !started {
					started = true
					if e.opts.Parallel != nil {
						parallelDone = e.opts.Parallel()
					}
					for range workers {
						wg.Add(1)
						go func() {
							defer wg.Done()
							drain()
						}()
					}
				}
			})
			if err != nil {
				walkErr = err
				return
			}
		}
	}()
	if !started {
		drain()
	}
	wg.Wait()
	if parallelDone != nil {
		parallelDone()
	}
	if walkErr != nil {
		return nil, walkErr
	}
	res := &Result{}
	var diags, noIR []diag.Diagnostic
	files := map[string]bool{}
	var fallback *worker
	defer func() {
		if fallback != nil {
			fallback.close()
		}
	}()
	err := e.s.merge(paths, jobs, outs, func(j job) found {
		if fallback == nil {
			fallback = e.newWorker()
		}
		return fallback.process(j)
	}, func(f found) {
		if f.pkg != nil {
			res.Packages = append(res.Packages, *f.pkg)
			if !f.unlinted {
				for _, p := range f.pkg.Files {
					files[p] = true
				}
			}
		}
		diags = append(diags, f.diags...)
		if e.opts.AlsoNoIR {
			if f.splitIR {
				noIR = append(noIR, f.noIR...)
			} else {
				noIR = append(noIR, f.diags...)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	res.Files = len(files)
	res.Diagnostics = diag.SortDedup(diags)
	if e.opts.AlsoNoIR {
		res.NoIRDiagnostics = diag.SortDedup(noIR)
	}
	return res, nil
}

// afterEmit is called by the walk with the number of each job it has
// emitted: nothing in nullius, a panic in a test (TestWalkPanicEndsTheRun),
// which must end the run with its error, not leave the workers waiting.
var afterEmit = func(seq int) {}

// worker lints whole packages with one parser for its lifetime.
type worker struct {
	e      *engine
	parser *pyscan.Parser
	// big is set once the parser has parsed a module over keepParsersUpTo
	// bytes: its node buffer is sized for that module, so it is closed
	// rather than kept idle.
	big bool
}

// keepParsersUpTo is the largest module a parser kept idle has parsed
// (Gaia modules are a few KiB; the node buffer of one is tens of KiB).
const keepParsersUpTo = 256 << 10

func (e *engine) newWorker() *worker { return &worker{e: e, parser: takeParser()} }

// close hands the worker's parser on to the next worker (putParser), or
// closes it after a big module.
func (w *worker) close() {
	if w.big {
		w.parser.Close()
		return
	}
	putParser(w.parser)
}

// idle holds the parsers of finished workers for the next ones, in this
// run or the next: a worker hands its parser on instead of closing it, so
// a one-package CLI run never frees its parse arena and node buffer just
// before the process exits (two munmaps, each a TLB shootdown to the
// other CPUs the process ran on: ~30 us of a ~1 ms lint), and a server's
// or 'lint --fix's next run parses without making new ones. At most
// GOMAXPROCS are kept, each holding what it keeps between parses (the
// arena's first blocks and the node buffer of its largest module, which
// is at most keepParsersUpTo bytes); a parser beyond them is closed.
var idle struct {
	mu sync.Mutex
	ps []*pyscan.Parser
}

// newParser is pyscan.NewParser; a test counts the calls.
var newParser = pyscan.NewParser

// takeParser returns an idle parser, or a new one.
func takeParser() *pyscan.Parser {
	idle.mu.Lock()
	defer idle.mu.Unlock()
	if n := len(idle.ps); n > 0 {
		p := idle.ps[n-1]
		idle.ps[n-1] = nil
		idle.ps = idle.ps[:n-1]
		return p
	}
	return newParser()
}

// putParser keeps p for a later worker, or closes it when enough are kept.
func putParser(p *pyscan.Parser) {
	idle.mu.Lock()
	defer idle.mu.Unlock()
	if len(idle.ps) < runtime.GOMAXPROCS(0) {
		idle.ps = append(idle.ps, p)
		return
	}
	p.Close()
}

// process resolves and lints one job. A panic is the package's
// internal-error diagnostic, never the end of the run.
func (w *worker) process(j job) (f found) {
	defer func() {
		if r := recover(); r != nil {
			f = w.e.failed(j, f, fmt.Sprintf("internal error while linting %%s: %v (please report this)", r))
			// The parser may be mid-parse: start the next job with a new one.
			w.parser.Close()
			w.parser = newParser()
		}
	}()
	f = w.e.s.resolve(j)
	if !f.accepted {
		return f
	}
	if f.pkg != nil {
		if ds := w.e.configErrors(f.pkg); len(ds) > 0 {
			f.diags = append(f.diags, ds...)
			f.unlinted = true
			return f
		}
		// The findings of a run with NoIR are set before the IR checks
		// run, so they stand if those panic, as that run would have.
		ds, err := w.lint(*f.pkg, func(noIR []diag.Diagnostic) {
			f.noIR, f.splitIR = diag.SortDedup(w.e.configure(append(slices.Clone(f.diags), noIR...))), true
		})
		if err != nil {
			return w.e.failed(j, f, "could not lint %s: "+strings.ReplaceAll(err.Error(), "%", "%%"))
		}
		f.diags = append(f.diags, ds...)
	}
	f.diags = diag.SortDedup(w.e.configure(f.diags))
	return f
}

// failed turns a package that could not be linted into its NULLIUS004
// diagnostic, located at its pyproject.toml (or the file named), keeping
// what discovery found.
func (e *engine) failed(j job, f found, format string) found {
	at, what := filepath.Join(j.dir, "pyproject.toml"), "package "+filepath.ToSlash(j.dir)
	if j.kind == jobFile {
		at, what = j.path, filepath.ToSlash(j.path)
	}
	f.accepted = true
	if f.key == "" && j.kind != jobFile {
		f.key = filepath.Clean(j.dir)
	}
	f.unlinted = true
	f.diags = append(f.diags, ruleNotLinted.New(filepath.ToSlash(at), 1, 1, 1, 1, format, what))
	return f
}

// lint runs the source scan and, for whole packages, the IR checks, with
// the worker's parser. With Options.AlsoNoIR and the IR checks on, it
// passes keepNoIR the findings a run with NoIR would return, before the IR
// checks run.
func (w *worker) lint(p Package, keepNoIR func([]diag.Diagnostic)) ([]diag.Diagnostic, error) {
	fset := token.NewFileSet()
	overlay := w.e.opts.Overlay
	parsed := pyparse.ParseWith(w.parser, fset, p.Files, overlay, w.e.s.t.readSource)
	for _, f := range parsed.Files {
		w.big = w.big || len(f.Src) > keepParsersUpTo
	}
	// Suppressions are applied below, once, so they also cover IR findings
	// mapped to source lines.
	as := w.e.whole
	if p.Partial {
		as = w.e.partial
	}
	ds, _, err := driver.RunParsed(p.Dir, p.Files, as, driver.Options{
		Overlay: overlay, Parsed: parsed, Fset: fset, Validated: true,
	})
	if err != nil {
		return nil, err
	}
	irRun := !w.e.opts.NoIR && !p.Partial
	if irRun && w.e.opts.AlsoNoIR {
		// ApplyPartial marks suppressed findings in place and appends to
		// its argument: the run with the IR checks keeps ds its own.
		keepNoIR(suppress.ApplyPartial(slices.Clone(ds), parsed, ir.Reports))
	}
	// A package never compiled has no .gaia to read: its listing says so
	// without a failing stat per package.
	if irRun && w.e.s.t.isDir(p.Dir, ".gaia") {
		irds, _, err := ir.CheckPackage(p.Dir, ir.CheckOptions{SourceFiles: p.Files, SourceMap: newSourceMap(p, parsed)})
		if err != nil {
			// The source findings stand; the IR could not be judged.
			irds = []diag.Diagnostic{ruleNotLinted.New(filepath.ToSlash(filepath.Join(p.Dir, "pyproject.toml")), 1, 1, 1, 1,
				"could not check the compiled IR of package %s: %v", p.Dir, err)}
		}
		ds = append(ds, dropRepeated(irds, ds)...)
	}
	var notRun func(string) bool
	if !irRun {
		notRun = ir.Reports
	}
	return suppress.ApplyPartial(ds, parsed, notRun), nil
}

// configErrors resolves the configuration of every directory the package's
// findings can be in (its own and its modules'); a configuration that
// cannot be used is the package's diagnostics, and the package is not
// linted.
func (e *engine) configErrors(p *Package) []diag.Diagnostic {
	if e.res == nil {
		return nil
	}
	var out []diag.Diagnostic
	// Each directory's error is reported once. The files are sorted, so a
	// directory repeats mostly on consecutive files: those skip even the
	// resolver's (memoised) lookup.
	var failed []string
	prev := "\x00" // no directory's name
	check := func(dir string) {
		if dir == prev {
			return
		}
		prev = dir
		if _, err := e.res.ForDir(dir); err != nil && !slices.Contains(failed, dir) {
			failed = append(failed, dir)
			out = append(out, e.configDiag(err, p.Dir))
		}
	}
	check(p.Dir)
	for _, f := range p.Files {
		check(filepath.Dir(f))
	}
	return out
}

// configure applies each finding's closest configuration. A finding whose
// configuration cannot be loaded is kept as it is, with the
// configuration's own diagnostic beside it, unless the broken file is the
// pyproject.toml the finding is about (its GAIA003 already says so).
func (e *engine) configure(ds []diag.Diagnostic) []diag.Diagnostic {
	if e.res == nil {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		c, keep, err := e.res.Configure(d)
		if err != nil {
			var ce *config.Error
			if !(errors.As(err, &ce) && ce.Syntax && d.Code == ruleBadPyproject.Code && e.s.t.abs(ce.Path) == e.s.t.abs(d.Path)) {
				out = append(out, e.configDiag(err, filepath.Dir(d.Path)))
			}
			out = append(out, d)
			continue
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

// configDiag is the diagnostic of a configuration that cannot be used,
// with its path spelled like near (relative when near is): GAIA003 for a
// pyproject.toml that cannot be read or is not TOML (the same diagnostic
// discovery gives it), NULLIUS003 at the offending line otherwise.
func (e *engine) configDiag(err error, near string) diag.Diagnostic {
	var ce *config.Error
	if !errors.As(err, &ce) {
		return config.RuleInvalid.New(filepath.ToSlash(near), 1, 1, 1, 1, "configuration cannot be loaded: %v", err)
	}
	shown := filepath.ToSlash(e.s.t.abs(ce.Path))
	if !filepath.IsAbs(near) {
		if rel, err := filepath.Rel(e.s.t.cwd, e.s.t.abs(ce.Path)); err == nil {
			shown = filepath.ToSlash(rel)
		}
	}
	if ce.Syntax && filepath.Base(ce.Path) == config.PyprojectTOML {
		if _, dg := e.s.readPyproject(filepath.Dir(filepath.FromSlash(shown))); dg != nil {
			return *dg
		}
	}
	msg := ce.Msg
	if strings.HasPrefix(msg, "is ") { // the bounded reader's refusal: "is a FIFO, ..."
		msg = filepath.Base(ce.Path) + " " + msg
	}
	line, col := max(ce.Line, 1), max(ce.Col, 1)
	return config.RuleInvalid.New(shown, line, col, line, col,
		"%s; the packages this file governs are not linted until it is fixed", msg)
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
