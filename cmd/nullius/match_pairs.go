package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/workdir"
	"github.com/nullius-dev/nullius/pipeline/pairs"
	"github.com/nullius-dev/nullius/validators/prior"
)

func (a *app) matchPairsCmd() *cobra.Command {
	var (
		nodes, matches, format, packages string
		all                              bool
	)
	cmd := &cobra.Command{
		Use:   "pairs --nodes nodes_latest.json [--matches DIR] [--all]",
		Short: "Propose the next pairwise matches of a campaign",
		Long: `Propose the next round of matches from the campaign's nodes_latest.json (the
engine's map {node_id: node} or a {"nodes": [...] | {...}} wrapper), by the
default rules of the protocol:

  - only eligible nodes play: candidate, admission_review, admitted and
    needs_refresh; archived, parked (waiting_activation) and blocked
    (admission_blocked) nodes, and nodes with a missing or unknown
    lifecycle_state, are listed as skipped with the reason
  - a cold-start node (posterior null) plays the warm node nearest the
    posterior median of the warm eligible nodes (0.5 when there is none);
    cold starts are served first, in id order
  - the other nodes meet their posterior neighbours, nearest first
  - a pair that already has a match artifact (match-*.json in --matches) is
    never proposed again; an artifact that cannot be read as a match stops
    the command, so a corrupt file never lets a rematch through

--matches defaults to <dir of the nodes file>/artifacts/matches when that
directory exists. A round is a set of disjoint pairs; --all lists every
eligible unmatched pair instead, nearest first.

Each node is named by its package: the Gaia package bound to it
([tool.nullius] campaign-id and node-id of its pyproject.toml, see 'nullius
bind'), searched under --packages DIR, by default the project root above the
nodes file (the nearest directory holding .nullius/), so the absorb command of
each match can be written without guessing which package is whose. A node
bound by several packages, or a package whose binding cannot be read, is a
warning.

Text output (posteriors and distances to three decimals; --format json has
the exact values): one line per pair, "A (p) vs B (p)  distance d", a cold start
marked "cold start at median", and below it, when packages were searched,
"  packages: DIR-A vs DIR-B" ("-" for a node no package is bound to); then
one "skipped ID: reason" line per node; warnings go to stderr.

--format json prints (keys in this order, numbers as JSON numbers, distances
rounded to 12 decimals):
  {"version": 1, "median": m, "warm": n, "cold": n, "matches_dir": "DIR" | null,
   "packages_dir": "DIR" | null,
   "pairs": [{"a": ID, "b": ID, "a_posterior": p, "b_posterior": p,
              "a_cold_start": bool, "b_cold_start": bool, "distance": d,
              "a_package": "DIR" | null, "b_package": "DIR" | null}],
   "skipped": [{"node_id": ID, "reason": "..."}],
   "already_matched": [[ID, ID]], "warnings": ["..."]}
Package directories are relative to packages_dir.
A cold start's posterior is the median it plays at.

Exit codes: 0 proposal printed (possibly empty); 2 a file could not be read or
is malformed, or a usage error.` + limitsNote,
		Example: `  nullius match pairs --nodes campaign/nodes_latest.json
  nullius match pairs --nodes nodes_latest.json --matches campaign/artifacts/matches --format json
  nullius match pairs --nodes idea-store/campaigns/c0ffee12/nodes_latest.json --packages argument-graphs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if nodes == "" {
				return usageErrorf("--nodes is required (see 'nullius match pairs --help')")
			}
			if format != "text" && format != "json" {
				return usageErrorf("invalid --format %q; use text or json", format)
			}
			ns, err := pairs.LoadNodes(nodes)
			if err != nil {
				return &exitErr{code: exitError, msg: "match pairs: " + err.Error()}
			}
			dir, err := matchesDir(nodes, matches, cmd.Flags().Changed("matches"))
			if err != nil {
				return err
			}
			var matched [][2]string
			if dir != "" {
				if matched, err = pairs.LoadMatched(dir); err != nil {
					return &exitErr{code: exitError, msg: "match pairs: " + err.Error()}
				}
			}
			plan := pairs.Propose(ns, matched, all)
			pk, err := pairPackages(nodes, packages, cmd.Flags().Changed("packages"), ns)
			if err != nil {
				return err
			}
			if format == "json" {
				return writePlanJSON(a.stdout, plan, dir, pk)
			}
			writePlanText(a.stdout, plan, dir, all, pk)
			for _, w := range pk.warnings {
				fmt.Fprintln(a.stderr, "nullius: match pairs: warning: "+w)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&nodes, "nodes", "", "the campaign's nodes_latest.json (required)")
	fl.StringVar(&matches, "matches", "", "directory of match-*.json artifacts (default: <dir of --nodes>/artifacts/matches when it exists)")
	fl.StringVar(&packages, "packages", "", "directory searched for the Gaia packages bound to the nodes (default: the project root above --nodes)")
	fl.BoolVar(&all, "all", false, "list every eligible unmatched pair, ranked, instead of one round")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// matchesDir resolves --matches: an explicit directory must exist; the
// default is used only when it does.
func matchesDir(nodes, flag string, explicit bool) (string, error) {
	if explicit {
		fi, err := os.Stat(flag)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", &exitErr{code: exitError, msg: fmt.Sprintf("match pairs: --matches %q does not exist", flag)}
			}
			return "", &exitErr{code: exitError, msg: "match pairs: " + err.Error()}
		}
		if !fi.IsDir() {
			return "", &exitErr{code: exitError, msg: fmt.Sprintf("match pairs: --matches %q is not a directory", flag)}
		}
		return flag, nil
	}
	def := filepath.Join(filepath.Dir(nodes), "artifacts", "matches")
	if fi, err := os.Stat(def); err == nil && fi.IsDir() {
		return def, nil
	}
	return "", nil
}

// nodePackages names each node's package by its binding.
type nodePackages struct {
	dir      string            // the searched directory, "" when none
	byNode   map[string]string // node id -> package dir (relative to dir)
	warnings []string
}

// name returns the package of node id, "" when none is bound to it.
func (p nodePackages) name(id string) string { return p.byNode[id] }

// pairPackages searches --packages (or the project root above the nodes
// file) for the packages bound to the nodes.
func pairPackages(nodesPath, flag string, explicit bool, ns []pairs.Node) (nodePackages, error) {
	pk := nodePackages{dir: flag, byNode: map[string]string{}}
	if explicit {
		if fi, err := os.Stat(flag); err != nil || !fi.IsDir() {
			return pk, &exitErr{code: exitError, msg: fmt.Sprintf("match pairs: --packages %q is not a directory", flag)}
		}
	} else if pk.dir = prior.FindProjectRoot(filepath.Dir(nodesPath)); pk.dir == "" {
		return pk, nil
	} else {
		pk.dir = workdir.Rel(pk.dir) // as the user would type it
	}
	ix, err := binding.Scan(pk.dir)
	if err != nil {
		return pk, &exitErr{code: exitError, msg: "match pairs: " + err.Error()}
	}
	for _, e := range ix.Problems {
		pk.warnings = append(pk.warnings, e.Error())
	}
	for _, n := range ns {
		dirs, err := ix.Lookup(n.Campaign, n.ID)
		switch {
		case err != nil:
			pk.warnings = append(pk.warnings, fmt.Sprintf("node %s is bound by %d packages (%s); rebind all but one (nullius bind --force)", n.ID, len(dirs), strings.Join(dirs, ", ")))
		case len(dirs) == 1:
			pk.byNode[n.ID] = dirs[0]
		}
	}
	return pk, nil
}

// num prints a probability the way the JSON output does, shortest form.
// num prints a posterior or distance in the text output: three decimals,
// as posterior displays are written everywhere ('nullius report
// posteriors'); a raw float64 such as 0.14394949652948927 is noise (issue
// 16). The json output carries the exact values.
func num(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

func writePlanText(w io.Writer, plan pairs.Plan, dir string, all bool, pk nodePackages) {
	what := "round"
	if all {
		what = "every unmatched pair"
	}
	src := "no match artifacts (no --matches, no artifacts/matches beside the nodes file)"
	if dir != "" {
		src = fmt.Sprintf("%s in %s", plural.N(len(plan.Matched), "match artifact"), filepath.ToSlash(dir))
	}
	fmt.Fprintf(w, "%s: %s; %s (%d warm, %d cold start), posterior median %s; %s\n",
		what, plural.N(len(plan.Pairs), "pair"), plural.N(plan.Warm+plan.Cold, "eligible node"), plan.Warm, plan.Cold, num(plan.Median), src)
	side := func(id string, p float64, cold bool) string {
		if cold {
			return fmt.Sprintf("%s (%s, cold start at median)", id, num(p))
		}
		return fmt.Sprintf("%s (%s)", id, num(p))
	}
	pkg := func(id string) string {
		if d := pk.name(id); d != "" {
			return d
		}
		return "-"
	}
	for _, p := range plan.Pairs {
		fmt.Fprintf(w, "%s vs %s  distance %s\n", side(p.A, p.ScoreA, p.ColdA), side(p.B, p.ScoreB, p.ColdB), num(p.Distance))
		if pk.dir != "" {
			fmt.Fprintf(w, "  packages: %s vs %s\n", pkg(p.A), pkg(p.B))
		}
	}
	for _, s := range plan.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.ID, s.Reason)
	}
}

// planJSON fixes the documented key order.
type planJSON struct {
	Version  int         `json:"version"`
	Median   float64     `json:"median"`
	Warm     int         `json:"warm"`
	Cold     int         `json:"cold"`
	Dir      *string     `json:"matches_dir"`
	Packages *string     `json:"packages_dir"`
	Pairs    []pairJSON  `json:"pairs"`
	Skipped  []skipJSON  `json:"skipped"`
	Matched  [][2]string `json:"already_matched"`
	Warnings []string    `json:"warnings"`
}

type pairJSON struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	PA    float64 `json:"a_posterior"`
	PB    float64 `json:"b_posterior"`
	ColdA bool    `json:"a_cold_start"`
	ColdB bool    `json:"b_cold_start"`
	Dist  float64 `json:"distance"`
	PkgA  *string `json:"a_package"`
	PkgB  *string `json:"b_package"`
}

type skipJSON struct {
	ID     string `json:"node_id"`
	Reason string `json:"reason"`
}

func writePlanJSON(w io.Writer, plan pairs.Plan, dir string, pk nodePackages) error {
	out := planJSON{Version: 1, Median: plan.Median, Warm: plan.Warm, Cold: plan.Cold,
		Pairs: []pairJSON{}, Skipped: []skipJSON{}, Matched: [][2]string{}, Warnings: []string{}}
	if dir != "" {
		d := filepath.ToSlash(dir)
		out.Dir = &d
	}
	if pk.dir != "" {
		d := filepath.ToSlash(pk.dir)
		out.Packages = &d
	}
	out.Warnings = append(out.Warnings, pk.warnings...)
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	for _, p := range plan.Pairs {
		out.Pairs = append(out.Pairs, pairJSON{p.A, p.B, p.ScoreA, p.ScoreB, p.ColdA, p.ColdB, p.Distance, opt(pk.name(p.A)), opt(pk.name(p.B))})
	}
	for _, s := range plan.Skipped {
		out.Skipped = append(out.Skipped, skipJSON(s))
	}
	out.Matched = append(out.Matched, plan.Matched...)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
