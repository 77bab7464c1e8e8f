package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/pipeline/gate"
	"github.com/nullius-dev/nullius/validators/prior"
)

// gateCmd groups the literature gates; close-prior is the one that exists.
func (a *app) gateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "gate KIND",
		Short: "Run a literature gate (close-prior)",
		Example: `  nullius gate close-prior --survey artifacts/literature/survey.json \
    --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("gate needs a kind (close-prior); see 'nullius gate --help'")
			}
			return unknownSubcommand(cmd, args[0], "gate")
		},
	}
	cmd.AddCommand(a.closePriorCmd())
	return cmd
}

// gateInputs are the flags of one close-prior gate run.
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

// input turns the flags into the gate's input.
func (g *gateInputs) input() (gate.Input, error) {
	in := gate.Input{Survey: g.survey, Matrix: g.matrix, Report: g.report, ProjectRoot: g.root, AllowExploratory: g.allowExploratory}
	for _, req := range []struct{ flag, val string }{{"--survey", g.survey}, {"--matrix", g.matrix}, {"--report", g.report}} {
		if req.val == "" {
			return in, usageErrorf("close-prior gate needs %s FILE", req.flag)
		}
	}
	if g.root != "" {
		if fi, err := os.Stat(g.root); err != nil || !fi.IsDir() {
			return in, usageErrorf("--project-root %q is not a directory", g.root)
		}
	}
	if g.ir != "" && g.pkg != "" {
		return in, usageErrorf("--gaia-ir-json and --package are mutually exclusive")
	}
	switch {
	case g.pkg != "":
		in.IR = &gate.IR{Path: filepath.Join(g.pkg, ".gaia", "ir.json")}
	case g.ir != "":
		in.IR = &gate.IR{Path: g.ir}
	}
	return in, nil
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
		Long: `Close-prior runs the whole close-prior literature gate: the JSON Schemas of
the survey and the matrix, the survey and its saturation rounds, the compact
receipts, the core papers, the detailed ledger the receipts pin (resolved under
the project root and recomputed, never trusted), the close-prior matrix, the
posterior report's matrix section, its posterior displays and links (rounded,
normalized, clickable, resolving inside the project), the cross-artifact rules
and, with --package (or --gaia-ir-json), the tension/IR consistency and the
anchors of the compiled graph.

It is the same gate 'nullius writeback' runs before it sends anything (there
always on the package it writes), so a green gate predicts a green writeback
as far as the literature goes.

It ends with one verdict on stderr: saturated, coverage_incomplete, or refused
with every reason listed as a located finding. The literature_coverage the
store would receive (survey_ref and close_prior_matrix_ref pinned to the exact
files validated) is printed with --coverage.

Exit codes: 0 the gate passed, 1 refused, 2 usage or unreadable input.` + limitsNote,
		Example: `  nullius gate close-prior --survey artifacts/literature/survey.json \
    --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			in, err := g.input()
			if err != nil {
				return err
			}
			res, err := gate.Run(in)
			if err != nil {
				return &exitErr{code: exitError, msg: err.Error()}
			}
			ds, verdict := res.Diagnostics, res.Verdict
			rerr := a.report(&f, "gate close-prior", ds, 3)
			if verdict == prior.Refused {
				fmt.Fprintf(a.stderr, "close-prior gate failed: refused (%s)\n", plural.N(countBlocking(ds), "problem"))
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
