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

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/pipeline/pairs"
)

func (a *app) matchPairsCmd() *cobra.Command {
	var (
		nodes, matches, format string
		all                    bool
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

Text output: one line per pair, "A (p) vs B (p)  distance d", a cold start
marked "cold start at median"; then one "skipped ID: reason" line per node.

--format json prints (keys in this order, numbers as JSON numbers, distances
rounded to 12 decimals):
  {"version": 1, "median": m, "warm": n, "cold": n, "matches_dir": "DIR" | null,
   "pairs": [{"a": ID, "b": ID, "a_posterior": p, "b_posterior": p,
              "a_cold_start": bool, "b_cold_start": bool, "distance": d}],
   "skipped": [{"node_id": ID, "reason": "..."}],
   "already_matched": [[ID, ID]]}
A cold start's posterior is the median it plays at.

Exit codes: 0 proposal printed (possibly empty); 2 a file could not be read or
is malformed, or a usage error.` + limitsHelp,
		Example: `  nullius match pairs --nodes campaign/nodes_latest.json
  nullius match pairs --nodes nodes_latest.json --matches campaign/artifacts/matches --format json`,
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
			if format == "json" {
				return writePlanJSON(a.stdout, plan, dir)
			}
			writePlanText(a.stdout, plan, dir, all)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&nodes, "nodes", "", "the campaign's nodes_latest.json (required)")
	fl.StringVar(&matches, "matches", "", "directory of match-*.json artifacts (default: <dir of --nodes>/artifacts/matches when it exists)")
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

// num prints a probability the way the JSON output does, shortest form.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func writePlanText(w io.Writer, plan pairs.Plan, dir string, all bool) {
	what := "round"
	if all {
		what = "every unmatched pair"
	}
	src := "no match artifacts (no --matches, no artifacts/matches beside the nodes file)"
	if dir != "" {
		src = fmt.Sprintf("%d match artifacts in %s", len(plan.Matched), filepath.ToSlash(dir))
	}
	fmt.Fprintf(w, "%s: %d pairs; %d eligible nodes (%d warm, %d cold start), posterior median %s; %s\n",
		what, len(plan.Pairs), plan.Warm+plan.Cold, plan.Warm, plan.Cold, num(plan.Median), src)
	side := func(id string, p float64, cold bool) string {
		if cold {
			return fmt.Sprintf("%s (%s, cold start at median)", id, num(p))
		}
		return fmt.Sprintf("%s (%s)", id, num(p))
	}
	for _, p := range plan.Pairs {
		fmt.Fprintf(w, "%s vs %s  distance %s\n", side(p.A, p.ScoreA, p.ColdA), side(p.B, p.ScoreB, p.ColdB), num(p.Distance))
	}
	for _, s := range plan.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.ID, s.Reason)
	}
}

// planJSON fixes the documented key order.
type planJSON struct {
	Version int         `json:"version"`
	Median  float64     `json:"median"`
	Warm    int         `json:"warm"`
	Cold    int         `json:"cold"`
	Dir     *string     `json:"matches_dir"`
	Pairs   []pairJSON  `json:"pairs"`
	Skipped []skipJSON  `json:"skipped"`
	Matched [][2]string `json:"already_matched"`
}

type pairJSON struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	PA    float64 `json:"a_posterior"`
	PB    float64 `json:"b_posterior"`
	ColdA bool    `json:"a_cold_start"`
	ColdB bool    `json:"b_cold_start"`
	Dist  float64 `json:"distance"`
}

type skipJSON struct {
	ID     string `json:"node_id"`
	Reason string `json:"reason"`
}

func writePlanJSON(w io.Writer, plan pairs.Plan, dir string) error {
	out := planJSON{Version: 1, Median: plan.Median, Warm: plan.Warm, Cold: plan.Cold,
		Pairs: []pairJSON{}, Skipped: []skipJSON{}, Matched: [][2]string{}}
	if dir != "" {
		d := filepath.ToSlash(dir)
		out.Dir = &d
	}
	for _, p := range plan.Pairs {
		out.Pairs = append(out.Pairs, pairJSON{p.A, p.B, p.ScoreA, p.ScoreB, p.ColdA, p.ColdB, p.Distance})
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
