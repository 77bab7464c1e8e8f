package extract

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/progress"
	"github.com/nullius-dev/nullius/internal/projroot"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/gaiacli"
)

// WorthLabel is the label of the posterior claim; fixed, as in the
// reference's command line.
const WorthLabel = "worth"

// Options configure one extraction.
type Options struct {
	Package     string // --package
	ProjectRoot string // --project-root; "" finds the nearest .nullius/
	GaiaBin     string // --gaia; "" means $GAIA_BIN, then gaia on PATH
	// Gaia replaces the real driver (tests); GaiaBin is then only a name.
	Gaia gaiacli.Gaia
	// AllowDisciplineWarnings lets static findings through and marks the
	// result exploration-only (§3.3). It never lets IR findings through.
	AllowDisciplineWarnings bool
	Render                  bool          // run `gaia run render` (never gates)
	VersionTimeout          time.Duration // 0 means gaiacli's default
	StageTimeout            time.Duration
	RenderTimeout           time.Duration
	Checks                  Checks    // zero value means DefaultChecks()
	Log                     io.Writer // progress lines and findings; nil discards
	// Progress receives each gaia stage as it starts and ends (a live
	// line on the terminal, or JSON lines): required, with
	// progress.Discard for none.
	Progress progress.Reporter
}

// Failure is why extraction stopped: the GAIA2xx rule, a one-line message,
// and what backs it (the tool's output, an install hint, the findings).
type Failure struct {
	Rule     diag.Rule
	Msg      string
	Output   string            // the gaia stage's own stdout and stderr
	Hint     string            // what to do, e.g. the install recipe
	Findings []diag.Diagnostic // the findings that made extraction refuse
	// Environment is true when the machine or the command line is at fault
	// (no package, no root, no pinned gaia, a timeout), not the package:
	// the CLI exits 2 instead of 1.
	Environment bool
}

func (f *Failure) Error() string { return f.Rule.Code + " " + f.Msg }

func fail(r *diag.Rule, format string, args ...any) *Failure {
	return &Failure{Rule: *r, Msg: fmt.Sprintf(format, args...)}
}

func envFail(r *diag.Rule, format string, args ...any) *Failure {
	f := fail(r, format, args...)
	f.Environment = true
	return f
}

// Result is a finished extraction.
type Result struct {
	Posterior       Posterior
	Package         string // resolved package directory
	ProjectRoot     string // resolved project root
	ExplorationOnly bool
	Binding         *binding.Binding // the idea the package is bound to; nil when unbound
}

// run carries the state of one extraction through its steps.
type run struct {
	opts     Options
	log      io.Writer
	pkg      string
	root     string
	rel      string
	static   []diag.Diagnostic // error findings of the source scan, suppressed ones included
	scanned  []diag.Diagnostic // every finding of the source scan, for IR repeats
	explore  bool
	gaia     gaiacli.Gaia
	checkedP string           // the ir.json pin the IR checks last ran on
	binding  *binding.Binding // the package's idea; nil when unbound
	locks    lockfile.Set     // the package directory's lock, held for the whole run
}

// Run performs the whole gated extraction (§3.2 with nullius's order: paths,
// lint, gaia version, compile, IR checks + discipline.json, check, infer,
// render, extract). It returns a *Failure when a step refuses, and a plain
// error for I/O trouble.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Progress == nil {
		return nil, fmt.Errorf("extract: Options.Progress is required (progress.Discard reports nothing)")
	}
	r := &run{opts: opts, log: opts.Log}
	if r.log == nil {
		r.log = io.Discard
	}
	def := DefaultChecks()
	if r.opts.Checks.Static == nil {
		r.opts.Checks.Static = def.Static
	}
	if r.opts.Checks.IR == nil {
		r.opts.Checks.IR = def.IR
	}
	defer r.locks.Release()
	steps := []func(context.Context) error{
		r.locate, r.lock, r.bind, r.lint, r.pinnedGaia, r.compile, r.checkIR, r.check, r.infer, r.render,
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			r.done(err)
			return nil, err
		}
	}
	p, err := r.extract()
	r.done(err)
	if err != nil {
		return nil, err
	}
	return &Result{Posterior: *p, Package: r.pkg, ProjectRoot: r.root, ExplorationOnly: r.explore, Binding: r.binding}, nil
}

// locate resolves the package and the project root and checks, before any
// stage runs (W18), that the package sits strictly inside the root.
func (r *run) locate(context.Context) error {
	pkg, err := ResolveDir(r.opts.Package)
	if err != nil {
		return envFail(rulePackageMissing, "package directory not found: %q", r.opts.Package)
	}
	r.pkg = pkg
	if r.opts.ProjectRoot != "" {
		root, err := ResolveDir(r.opts.ProjectRoot)
		if err != nil {
			return envFail(ruleNoProjectRoot, "project root not found: %q is not a directory", r.opts.ProjectRoot)
		}
		r.root = root
	} else {
		root, ok := projroot.Find(pkg)
		if !ok {
			f := envFail(ruleNoProjectRoot, "no project root found: no ancestor of %q contains .nullius/", pkg)
			f.Hint = "create .nullius/ at the repository root or pass --project-root"
			return f
		}
		r.root = root
	}
	r.rel, err = RelPath(r.pkg, r.root)
	switch {
	case errors.Is(err, ErrIsRoot):
		f := envFail(rulePackageIsRoot, "the package directory IS the project root %q; no project-relative ref can name it", r.root)
		f.Hint = "move .nullius/ out of the package to the repository root, or pass --project-root"
		return f
	case err != nil:
		return envFail(ruleOutsideRoot, "package %q is not under the project root %q; pass the --project-root that contains it", r.pkg, r.root)
	}
	return r.containGaiaDir()
}

// containGaiaDir refuses a <pkg>/.gaia, or a symlink in it, that resolves
// outside the project root (issue 13): gaia writes the compiled artifacts
// there and nullius writes discipline.json there, so a symlinked .gaia
// would send both outside the project. Checked before any stage runs and
// again before nullius writes. A dangling symlink counts where it points.
func (r *run) containGaiaDir() error {
	dir := filepath.Join(r.pkg, ".gaia")
	paths := []string{dir}
	if es, err := readlimit.ReadDir(dir); err == nil {
		for _, e := range es {
			if e.Type()&fs.ModeSymlink != 0 {
				paths = append(paths, filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, p := range paths {
		real, err := contain.Resolve(p)
		if err != nil {
			return envFail(ruleOutsideRoot, "cannot resolve %q: %v", p, err)
		}
		if !contain.Within(real, r.root) {
			return envFail(ruleOutsideRoot, "%q resolves to %q, outside the project root %q; gaia and nullius write the package's compiled artifacts there, so replace the symlink with a real directory or file", p, real, r.root)
		}
	}
	return nil
}

// lock takes the package directory's lock (.nullius.lock, the lock
// absorb, bind and lint --fix take before they edit the package), waiting
// lockfile.Wait() for it, and holds it to the end of the run: the source
// that is linted, the source gaia compiles, the binding that is recorded
// and the compiled files nullius pins must all be one version of the
// package, so no other nullius step may edit it meanwhile, and two
// extractions of one package must not interleave their gaia stages.
func (r *run) lock(context.Context) error {
	return r.locks.Add(r.pkg)
}

// bind reads the package's binding to its idea, which .gaia/discipline.json
// records so writeback can tell the posterior was extracted for the idea
// it is written to. An unbound package is extracted (exploration needs no
// idea) with a note; a malformed binding stops extraction.
func (r *run) bind(context.Context) error {
	b, bound, err := binding.Read(r.pkg)
	var be *binding.Error
	if errors.As(err, &be) {
		return fmt.Errorf("the package's binding to its idea is unusable: %w; fix it or rewrite it with nullius bind", err)
	}
	if err != nil {
		return err
	}
	if !bound {
		fmt.Fprintf(r.log, "note: the package is not bound to an idea ([tool.nullius] campaign-id and node-id); writeback will refuse it until it is: %s, then extract again\n",
			binding.BindCommand(r.opts.Package, b))
		return nil
	}
	r.binding = &b
	fmt.Fprintf(r.log, "bound to campaign-id %s, node-id %s\n", b.CampaignID, b.NodeID)
	return nil
}

// lint runs the source scan. Blocking findings refuse extraction unless
// --allow-discipline-warnings; any error finding, suppressed or allowed,
// marks the result exploration-only (README "Honesty rules").
func (r *run) lint(context.Context) error {
	ds, err := r.opts.Checks.Static(r.pkg)
	if err != nil {
		return fmt.Errorf("could not lint %q: %w", r.pkg, err)
	}
	ds = diag.SortDedup(ds)
	r.printFindings(ds)
	r.scanned = ds
	blocking := 0
	for _, d := range ds {
		if d.Severity == diag.Error {
			r.static = append(r.static, d)
			if !d.Suppressed {
				blocking++
			}
		}
	}
	switch {
	case blocking > 0 && !r.opts.AllowDisciplineWarnings:
		f := fail(ruleRefused, "%d discipline violation(s): fix the grades and anchor notes, or re-run with "+
			"--allow-discipline-warnings to explore (the result is then marked exploration-only). "+
			"Refusing to extract a posterior from a graph that breaks the discipline", blocking)
		f.Findings = r.static
		return f
	case blocking > 0:
		fmt.Fprintf(r.log, "%d discipline violation(s) allowed by --allow-discipline-warnings; the posterior will be "+
			"marked exploration-only and cannot be written to the idea store\n", blocking)
	case len(r.static) > 0:
		fmt.Fprintf(r.log, "%d suppressed discipline violation(s); the posterior will be marked exploration-only "+
			"and cannot be written to the idea store\n", len(r.static))
	}
	r.explore = len(r.static) > 0
	return nil
}

// printFindings shows findings as `nullius lint` does (path:line:col: CODE
// [tags] message, one line each), suppressed ones included and tagged: they
// still mark the result.
func (r *run) printFindings(ds []diag.Diagnostic) {
	oneLine := strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)
	for _, d := range ds {
		var tags []string
		if d.Severity != diag.Error {
			tags = append(tags, string(d.Severity))
		}
		if d.Suppressed {
			tags = append(tags, "suppressed")
		}
		tag := ""
		if len(tags) > 0 {
			tag = "[" + strings.Join(tags, ", ") + "] "
		}
		fmt.Fprintf(r.log, "%s: %s %s%s\n", r.position(d), d.Code, tag, oneLine.Replace(d.Message))
	}
}

// position is path:line:col with unknown (0) parts left out, as lint does,
// the path as the user named the package (r.pkg is absolute).
func (r *run) position(d diag.Diagnostic) string {
	p := cmp.Or(r.shown(d.Path), "-")
	if d.Line > 0 {
		p += fmt.Sprintf(":%d", d.Line)
		if d.Column > 0 {
			p += fmt.Sprintf(":%d", d.Column)
		}
	}
	return p
}

// pinnedGaia resolves the executable and requires the exact pinned version.
func (r *run) pinnedGaia(ctx context.Context) error {
	if r.opts.Gaia != nil {
		r.gaia = r.opts.Gaia
	} else {
		bin, err := gaiacli.Resolve(r.opts.GaiaBin)
		if err != nil {
			f := envFail(ruleNoGaia, "%v", err)
			f.Hint = gaiacli.InstallHint
			return f
		}
		r.opts.GaiaBin = bin
		r.gaia = &gaiacli.CLI{Bin: bin, VersionTimeout: r.opts.VersionTimeout,
			StageTimeout: r.opts.StageTimeout, RenderTimeout: r.opts.RenderTimeout}
	}
	end := r.begin("gaia --version")
	banner, err := r.gaia.Version(ctx)
	end(err == nil)
	if err != nil {
		f := envFail(ruleNoGaia, "%v", err)
		f.Hint = gaiacli.InstallHint
		return f
	}
	if err := gaiacli.CheckVersion(banner); err != nil {
		f := envFail(ruleVersion, "%v", err)
		f.Hint = gaiacli.InstallHint
		return f
	}
	return nil
}

// stage runs one gaia stage and turns a failure into GAIA205 with the
// tool's own output.
func (r *run) stage(ctx context.Context, name string, do func(context.Context, string) (gaiacli.Result, error)) error {
	end := r.begin("gaia " + name)
	res, err := do(ctx, r.pkg)
	end(err == nil && res.ExitCode == 0)
	var re *gaiacli.RunError
	switch {
	case errors.As(err, &re):
		f := envFail(ruleStage, "%s: %v", name, err)
		f.Output = res.Output()
		return f
	case err != nil:
		return envFail(ruleStage, "%s: %v", name, err)
	case res.ExitCode != 0:
		f := fail(ruleStage, "%s: `%s` failed (exit %d); a posterior from a package that fails compile, check or infer is not a result",
			name, res.Command(), res.ExitCode)
		f.Output = res.Output()
		return f
	}
	fmt.Fprintf(r.log, "ok: %s\n", name)
	return nil
}

func (r *run) compile(ctx context.Context) error {
	return r.stage(ctx, "build compile", r.gaia.Compile)
}

func (r *run) check(ctx context.Context) error {
	return r.stage(ctx, "build check", r.gaia.Check)
}

func (r *run) infer(ctx context.Context) error {
	return r.stage(ctx, "run infer", r.gaia.Infer)
}

// render is presentation only: a failure is reported and never gates (§3.5).
func (r *run) render(ctx context.Context) error {
	if !r.opts.Render {
		return nil
	}
	end := r.begin("gaia run render")
	res, err := r.gaia.Render(ctx, r.pkg)
	end(err == nil && res.ExitCode == 0)
	switch {
	case err != nil:
		fmt.Fprintf(r.log, "render skipped (docs): %v\n", err)
	case res.ExitCode != 0:
		fmt.Fprintf(r.log, "render skipped (docs): `%s` failed (exit %d)\n", res.Command(), res.ExitCode)
	default:
		fmt.Fprintln(r.log, "ok: run render")
	}
	return nil
}

// shown is path inside the package as the user named the package
// (--package as typed), so extract prints the paths lint prints; a path
// outside the package is left as it is.
func (r *run) shown(path string) string {
	if path == "" || r.pkg == "" {
		return path
	}
	rel, err := filepath.Rel(r.pkg, filepath.FromSlash(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return path
	}
	return filepath.ToSlash(filepath.Join(r.opts.Package, rel))
}

// done reports how the extraction ended: ok, refused (the package's
// fault) or failed (the environment's, or I/O).
func (r *run) done(err error) {
	state := "ok"
	if f := (*Failure)(nil); errors.As(err, &f) && !f.Environment {
		state = "refused"
	} else if err != nil {
		state = "failed"
	}
	r.opts.Progress.Report(progress.Done(progress.OpExtract, state))
}

// begin reports a stage running and returns the function that reports
// how it ended.
func (r *run) begin(stage string) func(ok bool) {
	r.opts.Progress.Report(progress.Stage(stage, progress.StageRunning))
	start := time.Now()
	return func(ok bool) {
		e := progress.Stage(stage, progress.StageOK)
		if !ok {
			e.State = progress.StageFailed
		}
		e.Elapsed = max(time.Since(start), time.Millisecond)
		r.opts.Progress.Report(e)
	}
}

// irPath is the compiled IR of the package.
func (r *run) irPath() string { return ir.IRPath(r.pkg) }

// checkIR runs the compiled-IR checks on the fresh ir.json and records the
// findings, bound to the exact bytes, in .gaia/discipline.json. IR findings
// are never allowed through.
func (r *run) checkIR(context.Context) error {
	data, err := readArtifact(r.irPath())
	if err != nil {
		return err
	}
	return r.checkIRBytes(data)
}

// readArtifact reads a compiled artifact of the package: a regular file
// (not a symlink, whose target could lie outside the package the pin
// names) read through the bounded reader. Missing is GAIA206.
func readArtifact(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	switch {
	case notExist(err):
		return nil, fail(ir.GAIA206, "missing %q; run the inference stages first", path)
	case err != nil:
		return nil, fmt.Errorf("could not read %q: %w", path, err)
	case !fi.Mode().IsRegular():
		return nil, fail(ir.GAIA206, "%q is not a regular file (%s); gaia writes plain files, re-run the inference stages", path, fi.Mode().Type())
	}
	data, err := readlimit.ReadFile(path, readlimit.JSON)
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("could not read %q: %w", path, err)
	}
	return data, nil
}

func (r *run) checkIRBytes(data []byte) error {
	pin := ir.CompiledIRPin(data)
	end := r.begin("compiled-IR checks")
	ds, err := r.opts.Checks.IR(r.pkg, data)
	end(err == nil && !slices.ContainsFunc(ds, diag.Diagnostic.Blocking))
	if err != nil {
		return fmt.Errorf("could not check %q: %w", r.irPath(), err)
	}
	ds = diag.SortDedup(ds)
	// A repeat of a source finding (GAIA507 is found in the source and in
	// the graph, at the same line) is shown once, as lint shows it. Only
	// warnings repeat: no IR error is ever dropped from the gate.
	r.printFindings(analyzers.DropRepeated(slices.Clone(ds), r.scanned))
	var irErrs []diag.Diagnostic
	blocking := 0
	for _, d := range ds {
		if d.Severity == diag.Error {
			irErrs = append(irErrs, d)
			if !d.Suppressed {
				blocking++
			}
		}
	}
	findings := append(append([]diag.Diagnostic{}, r.static...), irErrs...)
	if len(irErrs) > 0 {
		r.explore = true // a suppressed IR error still marks the result
	}
	if err := r.containGaiaDir(); err != nil {
		return err
	}
	if err := WriteDisciplineRecord(r.pkg, pin, r.explore, packageRelative(r.pkg, findings), r.binding); err != nil {
		return err
	}
	r.checkedP = pin
	if blocking > 0 {
		f := fail(ruleRefused, "%d compiled-IR contract violation(s) in %q; --allow-discipline-warnings never "+
			"lets these through. Refusing to extract a posterior from a graph that breaks the discipline", blocking, r.shown(r.irPath()))
		f.Findings = irErrs
		return f
	}
	return nil
}

// extract reads the artifacts and builds the posterior (§3.2 step 11)
// with the extraction primitives of analyzers/ir.
func (r *run) extract() (*Posterior, error) {
	beliefsPath := ir.BeliefsPath(r.pkg)
	bdata, err := readArtifact(beliefsPath) // beliefs first, as the reference
	if err != nil {
		return nil, err
	}
	b, ds := ir.LoadBeliefs(beliefsPath, bdata)
	if f := firstBlocking(ds); f != nil || b == nil {
		return nil, cmp.Or(f, fail(ir.GAIA207, "%q is not usable", beliefsPath))
	}
	irData, err := readArtifact(r.irPath())
	if err != nil {
		return nil, err
	}
	// The value must be bound to the IR that was checked: if ir.json changed
	// since, check (and record) it again.
	pin := ir.CompiledIRPin(irData)
	if pin != r.checkedP {
		if err := r.checkIRBytes(irData); err != nil {
			return nil, err
		}
	}
	doc, ds := ir.Load(r.irPath(), irData)
	if f := firstBlocking(ds); f != nil || doc == nil {
		return nil, cmp.Or(f, fail(ir.GAIA206, "%q is not usable", r.irPath()))
	}
	// W11: the value and the pin must come from one compile.
	if doc.IRHash != "" && b.IRHash != doc.IRHash {
		return nil, fail(ir.GAIA212, "beliefs.json was inferred from ir_hash %q but ir.json has %q; re-run gaia run infer",
			b.IRHash, doc.IRHash)
	}
	value, d := ir.ExtractWorthBelief(b, WorthLabel)
	if d != nil {
		return nil, findingFailure(*d)
	}
	ref := PackageRef(r.rel, pin)
	if r.explore {
		ref = ExplorationPrefix + ref
	}
	return &Posterior{
		Value:                  value,
		EvidenceCount:          ir.CountObservations(doc),
		ConnectedEvidenceCount: ir.ConnectedEvidenceCount(doc),
		GaiaPackageRef:         ref,
	}, nil
}

// findingFailure turns a finding that stops extraction into a Failure.
func findingFailure(d diag.Diagnostic) *Failure {
	r, ok := diag.Lookup(d.Code)
	if !ok {
		r = diag.Rule{Code: d.Code, Name: d.Name, Severity: d.Severity}
	}
	return &Failure{Rule: r, Msg: d.Message, Findings: []diag.Diagnostic{d}}
}

// firstBlocking is the Failure for the first blocking finding, or nil.
func firstBlocking(ds []diag.Diagnostic) *Failure {
	for _, d := range diag.SortDedup(ds) {
		if d.Blocking() {
			return findingFailure(d)
		}
	}
	return nil
}

// packageRelative rewrites finding paths relative to the package directory
// (slash-separated), so .gaia/discipline.json reads the same wherever
// extraction was run from and stays true when the package moves.
func packageRelative(pkg string, ds []diag.Diagnostic) []diag.Diagnostic {
	out := make([]diag.Diagnostic, len(ds))
	for i, d := range ds {
		if abs, err := filepath.Abs(filepath.FromSlash(d.Path)); err == nil {
			if rel, err := filepath.Rel(pkg, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				d.Path = filepath.ToSlash(rel)
			}
		}
		out[i] = d
	}
	return out
}
