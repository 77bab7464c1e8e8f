package prior

import (
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Input is everything the close-prior gate reads. Survey and Matrix are
// parsed artifacts (a File with a nil Doc is a file that could not be read;
// a nil Matrix is a missing matrix). Report is the posterior report text, nil
// when absent.
type Input struct {
	Survey, Matrix *File
	// SurveyAbs and MatrixAbs are the absolute paths and exact bytes of the
	// validated files; with ProjectRoot they give the pinned survey_ref and
	// close_prior_matrix_ref the store receives (W-2). Empty skips binding.
	SurveyAbs, MatrixAbs     string
	SurveyBytes, MatrixBytes []byte
	Report                   *string
	ReportPath               string
	ProjectRoot              string
	AllowExploratory         bool
	// IR, when non-nil, is the compiled Gaia IR for the T-rules.
	IR any
}

// Verdicts of the gate.
const (
	Saturated          = "saturated"
	CoverageIncomplete = "coverage_incomplete"
	Refused            = "refused"
)

// Result is the gate's decision.
type Result struct {
	Diagnostics []diag.Diagnostic
	// Verdict is Saturated or CoverageIncomplete when nothing blocks,
	// Refused otherwise.
	Verdict string
	// Coverage is the literature_coverage payload for the store.
	Coverage map[string]any
	// PosteriorStatus is the readiness the matrix declares ("" when it
	// declares none); writeback sends it so the store cannot disagree (W-4).
	PosteriorStatus string
}

// Gate runs the whole close-prior gate (§2): survey, receipts, core papers,
// ledger binding, matrix, report, cross rules and, with an IR, the
// tension/IR consistency.
func Gate(in Input) Result {
	c := &checker{}
	status := "metadata_only"
	var s map[string]any
	if in.Survey != nil && in.Survey.Doc != nil {
		status = checkSurvey(c, in.Survey)
		s, _ = obj(in.Survey.Doc.Value)
	}
	if cov, ok := obj(s["coverage"]); ok {
		bindLedger(c, in.Survey, s, cov, in.ProjectRoot, status)
	}
	m, ms := checkMatrix(c, in.Matrix)
	rf := &File{Path: in.ReportPath}
	checkReport(c, rf, in.Report, m)
	mf := in.Matrix
	if ms.coverage == "saturated" && status != "saturated" {
		c.add(mf, CodeCoverageStatus, "/coverage_status", "close-prior matrix claims saturated coverage but the survey is not saturated")
	}
	if ms.exploratory && !in.AllowExploratory {
		c.add(mf, CodeCoverageStatus, "/exploratory_allocation", "exploratory_allocation requires --allow-exploratory (an explicit, flagged waiver of saturation)")
	}
	if ms.eligible && !(ms.coverage == "saturated" || (ms.coverage == "coverage_incomplete" && ms.exploratory && in.AllowExploratory)) {
		c.add(mf, CodeCoverageStatus, "/allocation_eligible", "%s coverage cannot be allocation_eligible unless explicit exploratory allocation is allowed", ms.coverage)
	}
	if m != nil && ms.coverage == "metadata_only" {
		c.add(mf, CodeCoverageStatus, "/coverage_status", "metadata_only coverage cannot enter writeback or allocation guidance; read the sources and rebuild the matrix")
	}
	cov := coveragePayload(c, in, m, ms)
	if in.IR != nil && in.Matrix != nil && in.Matrix.Doc != nil {
		checkTensionIR(c, in.Matrix, in.IR)
		c.put(CheckIRAnchors(in.Matrix, in.IR)...)
	}
	ds := diag.SortDedup(c.result())
	r := Result{Diagnostics: ds, Coverage: cov, PosteriorStatus: ms.posterior, Verdict: ms.coverage}
	if diag.HasBlocking(ds) || m == nil {
		r.Verdict = Refused
	}
	return r
}

// coveragePayload builds literature_coverage. With the validated files'
// paths and bytes it derives survey_ref and close_prior_matrix_ref from them
// (W-2) and refuses matrix-declared refs that name other files.
func coveragePayload(c *checker, in Input, m map[string]any, ms matrixStatus) map[string]any {
	cov := map[string]any{"status": ms.coverage}
	if m == nil {
		return cov
	}
	for _, k := range []string{"survey_ref", "close_prior_matrix_ref", "exploratory_allocation"} {
		if v, ok := m[k]; ok {
			cov[k] = v
		}
	}
	if in.ProjectRoot == "" || in.SurveyAbs == "" || in.MatrixAbs == "" {
		return cov
	}
	root, err := filepath.EvalSymlinks(in.ProjectRoot)
	if err != nil {
		return cov
	}
	bind := func(key, abs string, b []byte, checkPin bool) {
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		want, err := RefFor(root, real, b)
		if err != nil {
			c.add(in.Matrix, CodeRefBinding, "", "%s cannot be pinned: %v; keep the survey and matrix inside the project root", key, err)
			return
		}
		if v, ok := m[key]; ok {
			declared, _ := v.(string)
			dr, derr := ParseRef(declared)
			wr, _ := ParseRef(want)
			if derr != nil || dr.Path != wr.Path || (checkPin && dr.Hex != wr.Hex) {
				c.add(in.Matrix, CodeRefBinding, "/"+key, "%s %s does not pin the validated file; expected %s (or drop it: writeback derives it)", key, pyfmt.Short(v), want)
			}
		}
		cov[key] = want
	}
	bind("survey_ref", in.SurveyAbs, in.SurveyBytes, true)
	// A file cannot contain its own hash: only the path of a declared
	// close_prior_matrix_ref is compared, the pin is derived.
	bind("close_prior_matrix_ref", in.MatrixAbs, in.MatrixBytes, false)
	return cov
}
