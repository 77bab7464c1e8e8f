package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pipeline/report"
	"github.com/nullius-dev/nullius/validators/prior"
)

// gateCmd groups the literature gates; close-prior is the one that exists.
func (a *app) gateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "gate KIND",
		Short: "Run a literature gate (close-prior)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("gate needs a kind (close-prior); see 'nullius gate --help'")
			}
			return usageErrorf("unknown gate %q; use close-prior", args[0])
		},
	}
	cmd.AddCommand(a.closePriorCmd())
	return cmd
}

// gateInputs are the files of one close-prior gate run.
type gateInputs struct {
	survey, matrix, report, root, ir string
	pkg                              string
	allowExploratory                 bool
}

func (g *gateInputs) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&g.survey, "survey", "", "literature_survey_v1 JSON (required)")
	cmd.Flags().StringVar(&g.matrix, "matrix", "", "close-prior matrix JSON (required)")
	cmd.Flags().StringVar(&g.report, "report", "", "posterior_report_v1 Markdown (required)")
	cmd.Flags().StringVar(&g.root, "project-root", "", "project root (default: nearest ancestor of the survey holding .nullius/)")
	cmd.Flags().BoolVar(&g.allowExploratory, "allow-exploratory", false, "allow exploratory_allocation on coverage_incomplete (an explicit, flagged waiver)")
}

// load reads every gate input. A file that cannot be read is exit 2 with the
// reference's wording; a file that does not parse is a located finding.
func (g *gateInputs) load() (prior.Input, []diag.Diagnostic, error) {
	var in prior.Input
	var ds []diag.Diagnostic
	for _, req := range []struct{ flag, val string }{{"--survey", g.survey}, {"--matrix", g.matrix}, {"--report", g.report}} {
		if req.val == "" {
			return in, nil, usageErrorf("close-prior gate needs %s FILE", req.flag)
		}
	}
	read := func(path string) ([]byte, error) {
		b, err := readInput(path)
		if err != nil {
			return nil, &exitErr{code: exitError, msg: "close-prior gate input could not be read: " + err.Error()}
		}
		return b, nil
	}
	sb, err := read(g.survey)
	if err != nil {
		return in, nil, err
	}
	mb, err := read(g.matrix)
	if err != nil {
		return in, nil, err
	}
	rb, err := read(g.report)
	if err != nil {
		return in, nil, err
	}
	var pds []diag.Diagnostic
	in.Survey, pds = prior.ParseFile(g.survey, sb)
	ds = append(ds, pds...)
	in.Matrix, pds = prior.ParseFile(g.matrix, mb)
	ds = append(ds, pds...)
	text := string(rb)
	in.Report, in.ReportPath = &text, g.report
	in.SurveyBytes, in.MatrixBytes = sb, mb
	in.SurveyAbs, _ = filepath.Abs(g.survey)
	in.MatrixAbs, _ = filepath.Abs(g.matrix)
	in.AllowExploratory = g.allowExploratory
	in.ProjectRoot = g.root
	if in.ProjectRoot != "" {
		if fi, err := os.Stat(in.ProjectRoot); err != nil || !fi.IsDir() {
			return in, nil, usageErrorf("--project-root %q is not a directory", in.ProjectRoot)
		}
	} else {
		in.ProjectRoot = prior.FindProjectRoot(filepath.Dir(g.survey))
	}
	for _, pair := range []struct {
		f      *prior.File
		schema string
	}{{in.Survey, prior.SchemaSurvey}, {in.Matrix, prior.SchemaMatrix}} {
		sds, err := prior.CheckSchema(pair.f, pair.schema)
		if err != nil {
			return in, nil, &exitErr{code: exitError, msg: "internal schema error: " + err.Error()}
		}
		ds = append(ds, sds...)
	}
	if g.ir != "" && g.pkg != "" {
		return in, nil, usageErrorf("--gaia-ir-json and --package are mutually exclusive")
	}
	if g.pkg != "" {
		g.ir = filepath.Join(g.pkg, ".gaia", "ir.json")
	}
	if g.ir != "" {
		b, err := read(g.ir)
		if err != nil {
			return in, nil, err
		}
		irf, pds := prior.ParseFile(g.ir, b)
		ds = append(ds, pds...)
		if irf.Doc != nil {
			in.IR = irf.Doc.Value
		}
	}
	return in, ds, nil
}

func (a *app) closePriorCmd() *cobra.Command {
	var (
		f             reportFlags
		g             gateInputs
		printCoverage bool
	)
	cmd := &cobra.Command{
		Use:   "close-prior --survey FILE --matrix FILE --report FILE",
		Short: "Run the close-prior literature gate over a survey, matrix and report",
		Long: `Close-prior runs the whole close-prior literature gate: the survey and its
saturation rounds, the compact receipts, the core papers, the detailed ledger
the receipts pin (resolved under the project root and recomputed, never
trusted), the close-prior matrix, the posterior report's matrix section, the
cross-artifact rules and, with --package (or --gaia-ir-json), the tension/IR
consistency and the anchors of the compiled graph.

It ends with one verdict on stderr: saturated, coverage_incomplete, or refused
with every reason listed as a located finding. The literature_coverage the
store would receive (survey_ref and close_prior_matrix_ref pinned to the exact
files validated) is printed with --coverage.

Exit codes: 0 the gate passed, 1 refused, 2 usage or unreadable input.` + limitsHelp,
		Example: `  nullius gate close-prior --survey artifacts/literature/survey.json \
    --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			in, ds, err := g.load()
			if err != nil {
				return err
			}
			res := prior.Gate(in)
			ds = append(ds, res.Diagnostics...)
			// W-20: the CLI runs the report checks writeback runs, so a green
			// gate predicts a green writeback.
			if in.ProjectRoot != "" {
				rds, err := report.CheckReportFile(g.report, in.ProjectRoot)
				if err != nil {
					return &exitErr{code: exitError, msg: "close-prior gate input could not be read: " + err.Error()}
				}
				ds = append(ds, rds...)
			}
			verdict := res.Verdict
			if diag.HasBlocking(ds) {
				verdict = prior.Refused
			}
			rerr := a.report(&f, "gate close-prior", ds, 3)
			if verdict == prior.Refused {
				n := 0
				for _, d := range ds {
					if d.Blocking() {
						n++
					}
				}
				fmt.Fprintf(a.stderr, "close-prior gate failed: refused (%d problems)\n", n)
				if rerr == nil && !f.exitZero {
					rerr = &exitErr{code: exitFindings}
				}
				return rerr
			}
			fmt.Fprintf(a.stderr, "close-prior gate passed: %s\n", verdict)
			if printCoverage {
				b, _ := json.MarshalIndent(map[string]any{"literature_coverage": res.Coverage, "ok": true}, "", "  ")
				fmt.Fprintln(a.stderr, string(b))
			}
			return rerr
		},
	}
	f.register(cmd)
	g.register(cmd)
	cmd.Flags().BoolVar(&printCoverage, "coverage", false, "on success also print the literature_coverage payload (JSON, on stderr)")
	cmd.Flags().StringVar(&g.ir, "gaia-ir-json", "", "compiled Gaia IR (.gaia/ir.json) for the tension/IR consistency and anchor rules")
	cmd.Flags().StringVar(&g.pkg, "package", "", "Gaia package directory: check its .gaia/ir.json as writeback will (tension grade, anchors)")
	return cmd
}
