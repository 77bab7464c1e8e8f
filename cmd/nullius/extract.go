package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/pipeline/extract"
)

func (a *app) extractCmd() *cobra.Command {
	var (
		opts          extract.Options
		output        string
		noRender      bool
		renderTimeout int
		stageTimeout  int
		versionTO     int
		pf            progressFlags
	)
	cmd := &cobra.Command{
		Use:   "extract --package DIR",
		Short: "Extract a posterior through gaia",
		Long: `Extract the posterior of a Gaia package, gated by the discipline.

Steps, each refusing before the next: the package must sit strictly inside the
project root (--project-root, or the nearest ancestor holding .nullius/); its
binding to an idea ([tool.nullius] campaign-id and node-id, printed on stderr;
an unbound package is extracted with a note, a malformed binding stops it); the
source scan (as nullius lint); gaia --version must be exactly 0.5.0a4; gaia
build compile; the compiled-IR checks, recorded with the sha256 pin of the
exact ir.json bytes and the binding in .gaia/discipline.json; gaia build check; gaia run
infer; rendering (best effort, never gates). Then stdout gets:

  {"connected_evidence_count": N, "evidence_count": N,
   "gaia_package_ref": "project://<path>#sha256:<pin>", "value": <worth belief>}

--allow-discipline-warnings lets every static finding through (not only the
statically certain ones) and marks the ref exploration-only:, which the idea
store never accepts. Compiled-IR findings are never let through.

Exit codes: 0 a posterior; 1 the package was refused (discipline findings, a
failing gaia stage, unusable artifacts); 2 usage, I/O, layout or gaia
installation problems.` + limitsNote,
		Example: `  # The posterior of one package, kept for writeback:
  nullius extract --package ideas/my-idea-gaia --output posterior.json

  # A gaia installed outside PATH, without the HTML render:
  nullius extract --package ideas/my-idea-gaia --gaia ~/.venvs/gaia/bin/gaia --no-render`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Package == "" {
				return usageErrorf("extract needs --package DIR (the Gaia package directory)")
			}
			if renderTimeout <= 0 || stageTimeout <= 0 || versionTO <= 0 {
				return usageErrorf("timeouts must be positive numbers of seconds")
			}
			opts.Render = !noRender
			opts.RenderTimeout = time.Duration(renderTimeout) * time.Second
			opts.StageTimeout = time.Duration(stageTimeout) * time.Second
			opts.VersionTimeout = time.Duration(versionTO) * time.Second
			disp, err := a.display(&pf)
			if err != nil {
				return err
			}
			opts.Log, opts.Progress = disp.Writer(a.stderr), disp
			// An interrupt cancels cmd.Context(), which kills gaia's process
			// group (internal/procrun).
			ctx := cmd.Context()
			res, err := extract.Run(ctx, opts)
			disp.Close()
			if err != nil {
				if ctx.Err() != nil { // interrupted: the one line says what was stopped
					return &exitErr{code: exitError}
				}
				return a.extractFailure(err)
			}
			text := append(res.Posterior.JSON(), '\n')
			if output != "" {
				if err := atomicfile.WriteFile(output, text, 0o644); err != nil {
					return &exitErr{code: exitError, msg: err.Error()}
				}
			}
			_, err = a.stdout.Write(text)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Package, "package", "", "the Gaia package `DIR` (required)")
	f.StringVar(&opts.GaiaBin, "gaia", "", "the gaia executable `BIN` (default $GAIA_BIN, then gaia on PATH)")
	f.StringVar(&opts.GaiaBin, "gaia-bin", "", "alias of --gaia, as the reference spells it (`BIN`)")
	f.StringVar(&opts.ProjectRoot, "project-root", "", "the project root `DIR` (default: nearest ancestor of the package holding .nullius/)")
	f.StringVar(&output, "output", "", "also write the posterior JSON to `FILE` (atomically replaced)")
	f.BoolVar(&opts.AllowDisciplineWarnings, "allow-discipline-warnings", false,
		"let every static discipline finding through; the result is marked exploration-only and can never be written to the idea store")
	f.BoolVar(&noRender, "no-render", false, "skip gaia run render (rendering never gates)")
	f.IntVar(&renderTimeout, "render-timeout", 120, "`SECONDS` allowed for rendering")
	f.IntVar(&stageTimeout, "stage-timeout", 600, "`SECONDS` allowed for each of gaia build compile, build check and run infer")
	f.IntVar(&versionTO, "version-timeout", 60, "`SECONDS` allowed for gaia --version")
	_ = f.MarkHidden("gaia-bin")
	pf.register(cmd)
	return markInterruptible(cmd)
}

// extractFailure prints why extraction stopped: the rule and message on one
// line, then the tool's own output indented, then the hint. The package's
// fault exits 1, the environment's 2.
func (a *app) extractFailure(err error) error {
	var f *extract.Failure
	if !errors.As(err, &f) {
		return &exitErr{code: exitError, msg: err.Error()}
	}
	fmt.Fprintf(a.stderr, "nullius: %s %s\n", f.Rule.Code, f.Msg)
	if f.Output != "" {
		for _, line := range strings.Split(f.Output, "\n") {
			fmt.Fprintln(a.stderr, "  "+line)
		}
	}
	if f.Hint != "" {
		fmt.Fprintln(a.stderr, "nullius: hint: "+f.Hint)
	}
	if f.Environment {
		return &exitErr{code: exitError}
	}
	return &exitErr{code: exitFindings}
}
