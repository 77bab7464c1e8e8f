package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
	"github.com/nullius-dev/nullius/pipeline/absorb"
	vm "github.com/nullius-dev/nullius/validators/match"
)

func (a *app) matchAbsorbCmd() *cobra.Command {
	var (
		f    reportFlags
		opts absorb.Options
	)
	cmd := &cobra.Command{
		Use:   "absorb ARTIFACT --a-package DIR --b-package DIR",
		Short: "Absorb a pairwise_match_v1 result into both ideas' Gaia graphs",
		Long: `Carry a finished match into the belief layer. The artifact is validated first
(as 'nullius validate match' does); then, for a win, both packages' root modules
(<package>/<import>/__init__.py, else <package>/src/<import>/__init__.py) get a
claim of the match result, an observe() of it and an infer() on worth:

  unanimous win (tier 10)  winner p_e_given_h=0.90, p_e_given_not_h=0.09 (substantial)
                           loser  the swapped pair 0.09/0.90
  split win (tier 3)       winner 0.75/0.25 (weak), loser 0.25/0.75
  tie                      nothing changes (exit 0)

A win is unanimous when the loser has no vote and the winner holds a strict
majority of the panel; [a, tie, tie] is a split win (see docs/deviations.md).
Each rationale carries reader_reasoning:, "evidence_family:
pairwise-match-<match_id>; correlation_model: single;" and ends with
"anchor: pairwise_match_v1 <match_id> at <artifact path>".

Both packages must lint clean before and after the edit; the edit is atomic per
module and both are restored if anything fails. A match is absorbed once: a
module that already holds it, or an artifact with observation_write.written true,
is refused. Last, observation_write becomes {"written": true, "gaia_package_ref":
"project://<A> project://<B>"} (the only artifact field nullius changes; the
references carry no pin, the packages must be recompiled). The project root is
the nearest ancestor of --a-package holding .nullius/, or --project-root.

--format json prints {"version": 1, "match_id", "winner", "tier", "edited",
"gaia_package_ref", "message"} on success and the diagnostics report on a
refusal with findings.

Exit codes: 0 absorbed, or a tie; 1 refused (invalid artifact, lint findings,
already absorbed); 2 usage or I/O error.` + limitsHelp,
		Example: `  nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json \
      --a-package graphs/idea-a-gaia --b-package graphs/idea-b-gaia`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if opts.APackage == "" || opts.BPackage == "" {
				return usageErrorf("--a-package and --b-package are required (see 'nullius match absorb --help')")
			}
			opts.Artifact = args[0]
			res, err := absorb.Absorb(opts, absorbChecks())
			if err != nil {
				return a.absorbRefusal(&f, err)
			}
			return a.absorbResult(&f, res)
		},
	}
	f.register(cmd)
	// A refused gate is exit 1 whatever the flag says: absorb is not a report.
	_ = cmd.Flags().MarkHidden("exit-zero")
	fl := cmd.Flags()
	fl.StringVar(&opts.APackage, "a-package", "", "Gaia package of idea_a_node_id (required)")
	fl.StringVar(&opts.BPackage, "b-package", "", "Gaia package of idea_b_node_id (required)")
	fl.StringVar(&opts.ProjectRoot, "project-root", "", "project root for the references (default: nearest ancestor of --a-package holding .nullius/)")
	return cmd
}

// absorbChecks wires the real gates: the pairwise_match_v1 validator of
// 'validate match' and the full discipline scan of 'lint'.
func absorbChecks() absorb.Checks {
	return absorb.Checks{
		ValidateArtifact: func(path string, data []byte) []diag.Diagnostic {
			ds, err := vm.File(path, data, "match")
			if err != nil {
				// The embedded schema failed to compile: an internal
				// error, reported as a finding so nothing is absorbed.
				return append(ds, vm.CodeJSON.New(path, 1, 1, 1, 1, "the match validator could not run: %v", err))
			}
			return ds
		},
		Lint: func(pkg string) ([]diag.Diagnostic, error) {
			res, err := analyzers.Lint([]string{pkg}, analyzers.Options{})
			if err != nil {
				return nil, err
			}
			return res.Diagnostics, nil
		},
		Module: rootModule,
	}
}

// rootModule is the package's root module, found as Gaia finds it: the flat
// <pkg>/<import>/ before <pkg>/src/<import>/.
func rootModule(pkg string) (string, error) {
	pkgs, ds, err := analyzers.Discover([]string{pkg})
	if err != nil {
		return "", err
	}
	want := filepath.Clean(pkg)
	for _, p := range pkgs {
		if filepath.Clean(filepath.FromSlash(p.Dir)) != want {
			continue
		}
		if p.SourceRoot == "" {
			break
		}
		mod := filepath.Join(filepath.FromSlash(p.SourceRoot), "__init__.py")
		if _, err := os.Stat(mod); err != nil {
			return "", fmt.Errorf("no root module %q: %v", filepath.ToSlash(mod), err)
		}
		return mod, nil
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			return "", errors.New(d.Message)
		}
	}
	return "", errors.New("not a Gaia package directory (no pyproject.toml naming a module)")
}

// absorbRefusal prints a refusal's findings through the report formats,
// then the one-line reason; a refused gate is exit 1, anything else 2.
func (a *app) absorbRefusal(f *reportFlags, err error) error {
	var r *absorb.Refusal
	if !errors.As(err, &r) {
		return &exitErr{code: exitError, msg: "match absorb: " + err.Error()}
	}
	g := *f
	if len(r.Diagnostics) == 0 {
		// Nothing to print, but report files are still written, so CI
		// never reads a stale report from an earlier run.
		g.format = fileTargets(f.format)
	}
	if g.format != "" {
		if rerr := a.report(&g, "match absorb", r.Diagnostics, 1); rerr != nil {
			var ee *exitErr
			if errors.As(rerr, &ee) && ee.code == exitError {
				return rerr
			}
		}
	}
	return &exitErr{code: exitFindings, msg: "match absorb: " + r.Msg}
}

// fileTargets keeps the file targets of a --format value ("json:out.json"),
// dropping the one that goes to stdout.
func fileTargets(spec string) string {
	targets, _ := output.ParseTargets(spec)
	var files []string
	for _, t := range targets {
		if t.Path != "" {
			files = append(files, t.Format+":"+t.Path)
		}
	}
	return strings.Join(files, ",")
}

// absorbResult prints what was done: text lines, or one JSON object when
// the stdout format is json. Report files get the (empty) findings.
func (a *app) absorbResult(f *reportFlags, res *absorb.Result) error {
	if files := fileTargets(f.format); files != "" {
		g := *f
		g.format = files
		if err := a.report(&g, "match absorb", nil, 2); err != nil {
			return err
		}
	}
	targets, _ := output.ParseTargets(f.format)
	for _, t := range targets {
		if t.Path == "" && t.Format == "json" {
			edited := make([]string, 0, len(res.Edited))
			for _, e := range res.Edited {
				edited = append(edited, filepath.ToSlash(e))
			}
			enc := json.NewEncoder(a.stdout)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(struct {
				Version int      `json:"version"`
				MatchID string   `json:"match_id"`
				Winner  string   `json:"winner"`
				Tier    int      `json:"tier"`
				Edited  []string `json:"edited"`
				Ref     string   `json:"gaia_package_ref"`
				Message string   `json:"message"`
			}{1, res.MatchID, res.Winner, res.Tier, edited, strings.Join(res.Refs, " "), res.Message})
		}
	}
	fmt.Fprintln(a.stdout, res.Message)
	for _, e := range res.Edited {
		fmt.Fprintf(a.stdout, "edited %s\n", filepath.ToSlash(e))
	}
	return nil
}
