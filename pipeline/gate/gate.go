// Package gate is the one close-prior gate (issue 12). `nullius gate
// close-prior` and `nullius writeback` both call Run, and writeback adds
// only its own payload and package checks, so a green gate predicts a
// green writeback and no check of the gate can be skipped by the command
// that writes to the store.
//
// The gate reads the survey, the matrix and the posterior report, and
// runs every check of Checks over them: the JSON syntax, the JSON Schemas
// of the survey and the matrix, the close-prior rules of validators/prior
// (survey, receipts, ledger binding, matrix, report section, cross rules),
// the posterior display and link checks of the report, and, when the
// compiled IR of the package is given, the tension/IR consistency and the
// anchor rule. Every finding is returned with the verdict.
package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/report"
	"github.com/nullius-dev/nullius/validators/prior"
)

// Input is what one gate run reads.
type Input struct {
	Survey, Matrix, Report string // paths of the gate inputs
	// ProjectRoot is the project root; "" means the nearest ancestor of
	// the survey's directory holding .nullius/ (none: the gate refuses,
	// PRIOR040). Used by Run, not by Load.
	ProjectRoot      string
	AllowExploratory bool
	// IR, when set, is the compiled Gaia IR of the package being admitted:
	// the tension/IR and anchor checks run on exactly these bytes (for
	// writeback, the bytes whose pin it verified).
	IR *IR
}

// IR is a compiled .gaia/ir.json: where it is (for messages) and its
// bytes; nil Bytes are read from Path.
type IR struct {
	Path  string
	Bytes []byte
	// Doc, when set, is Bytes as the caller already parsed them with
	// ir.Parse (writeback, which verified their pin and ran the
	// discipline on them); the checks read it instead of parsing again.
	Doc *jsonloc.Doc
}

// Result is the gate's decision.
type Result struct {
	Diagnostics []diag.Diagnostic // every finding, sorted
	// Verdict is prior.Saturated or prior.CoverageIncomplete when nothing
	// blocks, prior.Refused otherwise.
	Verdict string
	// Coverage is the literature_coverage the store receives, with
	// survey_ref and close_prior_matrix_ref pinned to the validated files.
	Coverage        map[string]any
	PosteriorStatus string // the readiness the matrix declares, "" if none
	ProjectRoot     string // the root the gate resolved against
	Ran             []string
}

// Refused reports whether the gate refused.
func (r *Result) Refused() bool { return r.Verdict == prior.Refused }

// ReadError is a gate input that could not be read at all (exit 2, not a
// finding).
type ReadError struct {
	Path string
	Err  error
}

func (e *ReadError) Error() string {
	switch {
	case readlimit.Refused(e.Err):
		// The bounded reader's refusals (too large, not a regular file,
		// changed while read) already name the path.
		return "close-prior gate input could not be read: " + e.Err.Error()
	case errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("close-prior gate input could not be read: %q does not exist", e.Path)
	case errors.Is(e.Err, fs.ErrPermission):
		return fmt.Sprintf("close-prior gate input could not be read: cannot read %q: permission denied", e.Path)
	}
	return fmt.Sprintf("close-prior gate input could not be read: cannot read %q: %v", e.Path, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// Check is one named check of the gate.
type Check struct {
	Name string
	// NeedsIR marks the checks that run only with a compiled IR.
	NeedsIR bool
	run     func(*state) ([]diag.Diagnostic, error)
}

// state is one run's parsed inputs and the close-prior result the other
// checks and the Result read.
type state struct {
	in      prior.Input
	parse   []diag.Diagnostic
	report  string
	ir      *prior.File
	verdict prior.Result
}

// Checks lists every check of the gate, in the order they run. Writeback's
// preflight runs each of them (its test enumerates this list).
func Checks() []Check {
	return []Check{
		{Name: "syntax", run: func(s *state) ([]diag.Diagnostic, error) { return s.parse, nil }},
		{Name: "survey-schema", run: func(s *state) ([]diag.Diagnostic, error) {
			return prior.CheckSchema(s.in.Survey, prior.SchemaSurvey)
		}},
		{Name: "matrix-schema", run: func(s *state) ([]diag.Diagnostic, error) {
			return prior.CheckSchema(s.in.Matrix, prior.SchemaMatrix)
		}},
		{Name: "close-prior", run: func(s *state) ([]diag.Diagnostic, error) {
			s.verdict = prior.Gate(s.in)
			return s.verdict.Diagnostics, nil
		}},
		{Name: "report-posteriors", run: func(s *state) ([]diag.Diagnostic, error) {
			return report.CheckPosteriors(s.in.ReportPath, s.report), nil
		}},
		{Name: "report-links", run: func(s *state) ([]diag.Diagnostic, error) {
			// Without a root nothing resolves; the close-prior check has
			// refused already (PRIOR040).
			if s.in.ProjectRoot == "" {
				return nil, nil
			}
			return report.CheckLinks(s.in.ReportPath, s.report, s.in.ProjectRoot)
		}},
		{Name: "tension-ir", NeedsIR: true, run: func(s *state) ([]diag.Diagnostic, error) {
			if s.ir.Doc == nil {
				return nil, nil // the syntax check reported it
			}
			return prior.CheckTensionIR(s.in.Matrix, s.ir.Doc.Value), nil
		}},
		{Name: "ir-anchors", NeedsIR: true, run: func(s *state) ([]diag.Diagnostic, error) {
			if s.ir.Doc == nil {
				return nil, nil
			}
			return prior.CheckIRAnchors(s.in.Matrix, s.ir.Doc.Value), nil
		}},
	}
}

// Run reads the inputs and runs every check. It returns a *ReadError for
// an input that cannot be read; anything that can be read but is wrong is
// a finding.
func Run(in Input) (*Result, error) {
	l, err := Load(in)
	if err != nil {
		return nil, err
	}
	return l.Run(in.ProjectRoot, in.IR)
}

// Loaded is a gate whose survey, matrix and report have been read, so a
// caller (writeback) can refuse unreadable input before other work, in
// the reference's order, and run the checks later.
type Loaded struct {
	in   Input
	data map[string][]byte
}

// Load reads the survey, the matrix and the report (a *ReadError when one
// cannot be read). Input.ProjectRoot and Input.IR are not used: Run takes
// them.
func Load(in Input) (*Loaded, error) {
	l := &Loaded{in: in, data: map[string][]byte{}}
	for _, f := range []struct {
		path string
		kind readlimit.Kind
	}{{in.Survey, readlimit.JSON}, {in.Matrix, readlimit.JSON}, {in.Report, readlimit.Markdown}} {
		b, err := readlimit.ReadFile(f.path, f.kind)
		if err != nil {
			return nil, &ReadError{Path: f.path, Err: err}
		}
		l.data[f.path] = b
	}
	return l, nil
}

// Run runs every check against the project root ("" discovers it from the
// survey's directory) and, when ir is set, the package's compiled IR.
func (l *Loaded) Run(root string, ir *IR) (*Result, error) {
	in, data := l.in, l.data
	s := &state{}
	var ds []diag.Diagnostic
	s.in.Survey, ds = prior.ParseFile(in.Survey, data[in.Survey])
	s.parse = append(s.parse, ds...)
	s.in.Matrix, ds = prior.ParseFile(in.Matrix, data[in.Matrix])
	s.parse = append(s.parse, ds...)
	s.report = string(data[in.Report])
	s.in.Report, s.in.ReportPath = &s.report, in.Report
	s.in.SurveyBytes, s.in.MatrixBytes = data[in.Survey], data[in.Matrix]
	s.in.SurveyAbs, _ = filepath.Abs(in.Survey)
	s.in.MatrixAbs, _ = filepath.Abs(in.Matrix)
	s.in.AllowExploratory = in.AllowExploratory
	s.in.ProjectRoot = root
	if s.in.ProjectRoot == "" {
		s.in.ProjectRoot = prior.FindProjectRoot(filepath.Dir(in.Survey))
	}
	switch {
	case ir != nil && ir.Doc != nil:
		s.ir = &prior.File{Path: ir.Path, Doc: ir.Doc}
	case ir != nil:
		b := ir.Bytes
		if b == nil {
			var err error
			if b, err = readlimit.ReadFile(ir.Path, readlimit.JSON); err != nil {
				return nil, &ReadError{Path: ir.Path, Err: err}
			}
		}
		s.ir, ds = prior.ParseFile(ir.Path, b)
		s.parse = append(s.parse, ds...)
	}
	res := &Result{ProjectRoot: s.in.ProjectRoot}
	var all []diag.Diagnostic
	for _, c := range Checks() {
		if c.NeedsIR && s.ir == nil {
			continue
		}
		cds, err := c.run(s)
		if err != nil {
			return nil, fmt.Errorf("close-prior gate check %s: %w", c.Name, err)
		}
		all = append(all, cds...)
		res.Ran = append(res.Ran, c.Name)
	}
	res.Diagnostics = diag.SortDedup(all)
	res.Coverage, res.PosteriorStatus, res.Verdict = s.verdict.Coverage, s.verdict.PosteriorStatus, s.verdict.Verdict
	if diag.HasBlocking(res.Diagnostics) {
		res.Verdict = prior.Refused
	}
	return res, nil
}
