package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
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

Independence is weighted from the record: a match whose panel_independence.mode
is single_family (native seats of one host), or whose independent_runners is
false (stub runners, a counted --runner override), never counts at tier 10. Its
unanimous win is absorbed at the weak tier, 0.75/0.25, and the rationale in the
graph and this command's output say why ("panel independence not established:
single_family"); --format json carries "tier": 3, "capped": true.

Each rationale carries reader_reasoning:, "evidence_family:
pairwise-match-<match_id>; correlation_model: single;" and ends with
"anchor: pairwise_match_v1 <match_id> at <artifact path>", the path relative to
the project root (an artifact outside the root is refused; no machine path ever
reaches a graph).

Each package must be bound to its idea ([tool.nullius] campaign-id and node-id
in its pyproject.toml, written by 'nullius scaffold --campaign-id C --node-id N'
or 'nullius bind'): --a-package to the artifact's idea_a_node_id, --b-package to
idea_b_node_id, both to its campaign_id. Swapped flags are refused as such.

Both packages must lint clean before and after the edit. A match is absorbed
once: a module that already holds it, or an artifact with
observation_write.written true, is refused. Last, observation_write becomes
{"written": true, "gaia_package_ref": "project://<A> project://<B>"} (the only
artifact field nullius changes; the references carry no pin, the packages must
be recompiled). The project root is the nearest ancestor of --a-package holding
.nullius/, or --project-root.

The three edits are one transaction. Absorb locks the project's journal
directory, then the artifact's directory and both packages (waiting up to
$NULLIUS_LOCK_WAIT, default 10s, for another step), writes an intent journal
(.nullius/journal/absorb-<match_id>.json, with every file's bytes and sha256
before and after) before the first edit, and deletes it at the end. If absorb is
killed, the next absorb, 'nullius lint' or 'nullius recover' completes or rolls
back the interrupted one, so a match is always in both graphs with the artifact
marked, or in neither.

--format json prints the lint v1 document (every refusal a located finding)
plus "status" (absorbed, tie, refused or error), "match_id", "winner", "tier",
"capped", "cap_reason", "edited", "gaia_package_ref", "message" and
"recovered" (interrupted absorbs settled first); the schema is
schemas/absorb_result_v1.schema.json.

Exit codes: 0 absorbed, or a tie; 1 refused (invalid artifact, lint findings,
unbound or swapped packages, already absorbed); 2 usage or I/O error, or
another step holding a lock.` + limitsNote,
		Example: `  # A unanimous cross-family win for A: 0.90/0.09 into A's graph, 0.09/0.90 into B's.
  nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json \
      --a-package graphs/idea-a-gaia --b-package graphs/idea-b-gaia

  # The same for machines; a single-family panel shows "tier": 3, "capped": true.
  nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json \
      --a-package graphs/idea-a-gaia --b-package graphs/idea-b-gaia --format json`,
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
			return a.absorbOutput(&f, res, err)
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
		ValidateArtifact: func(path string, data []byte) (*jsonloc.Doc, []diag.Diagnostic) {
			c, err := vm.NewChecker("match")
			if err != nil {
				// The embedded schema failed to compile: an internal
				// error, reported as a finding so nothing is absorbed.
				return nil, []diag.Diagnostic{vm.CodeJSON.New(path, 1, 1, 1, 1, "the match validator could not run: %v", err)}
			}
			return c.Doc(path, data)
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

// absorbJSON is the absorb outcome carried in the json output.
type absorbJSON struct {
	Status    string             `json:"status"`
	MatchID   string             `json:"match_id"`
	Winner    string             `json:"winner"`
	Tier      int                `json:"tier"`
	Capped    bool               `json:"capped"`
	CapReason string             `json:"cap_reason"`
	Edited    []string           `json:"edited"`
	Ref       string             `json:"gaia_package_ref"`
	Message   string             `json:"message"`
	Recovered []*absorb.Recovery `json:"recovered"`
}

// absorbOutput prints every outcome through the report formats: the
// findings of a refusal (located diagnostics), and in json the outcome
// itself. Text gets what was done on stdout, the one-line reason of a
// refusal or error on stderr. A refused gate is exit 1 whatever
// --exit-zero says (absorb is not a report), an error exit 2.
func (a *app) absorbOutput(f *reportFlags, res *absorb.Result, err error) error {
	var ds []diag.Diagnostic
	var r *absorb.Refusal
	refused := errors.As(err, &r)
	if refused {
		ds = r.Diagnostics
	}
	edited := make([]string, 0, len(res.Edited))
	for _, e := range res.Edited {
		edited = append(edited, filepath.ToSlash(e))
	}
	g := *f
	g.exitZero = false
	g.result = absorbJSON{Status: res.Status, MatchID: res.MatchID, Winner: res.Winner, Tier: res.Tier,
		Capped: res.Capped, CapReason: res.CapReason, Edited: edited, Ref: strings.Join(res.Refs, " "),
		Message: res.Message, Recovered: nonNil(res.Recovered)}
	for _, rec := range res.Recovered {
		fmt.Fprintf(a.stderr, "nullius: match absorb: %s\n", rec.Summary())
	}
	if err != nil && !refused {
		// Only formats that say what happened are printed: json (with the
		// status) to stdout or a file; other file targets get their empty
		// report, so CI never reads a stale one.
		g.format = errorTargets(f.format)
	}
	if g.format != "" {
		if rerr := a.report(&g, "match absorb", ds, 2); rerr != nil {
			var ee *exitErr
			if !errors.As(rerr, &ee) || ee.code == exitError {
				return rerr
			}
		}
	}
	if err != nil {
		code := exitError
		if refused {
			code = exitFindings
		}
		return &exitErr{code: code, msg: "match absorb: " + err.Error()}
	}
	if stdoutFormat(f.format) == "text" {
		fmt.Fprintln(a.stdout, res.Message)
		for _, e := range edited {
			fmt.Fprintf(a.stdout, "edited %s\n", e)
		}
	}
	return nil
}

// stdoutFormat is the format of the --format target that goes to stdout,
// or "" when every target is a file.
func stdoutFormat(spec string) string {
	targets, _ := output.ParseTargets(spec)
	for _, t := range targets {
		if t.Path == "" {
			return t.Format
		}
	}
	return ""
}

// errorTargets keeps, of a --format value, the json target wherever it
// goes and every file target: an error (exit 2) has no findings for text,
// sarif or github on stdout, but a file requested must not keep a stale
// report.
func errorTargets(spec string) string {
	targets, _ := output.ParseTargets(spec)
	var keep []string
	for _, t := range targets {
		switch {
		case t.Path != "":
			keep = append(keep, t.Format+":"+t.Path)
		case t.Format == "json":
			keep = append(keep, "json")
		}
	}
	return strings.Join(keep, ",")
}
