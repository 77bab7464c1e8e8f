package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/pipeline/render"
)

func (a *app) renderCmd() *cobra.Command {
	var pkg, output, projectRoot string
	cmd := &cobra.Command{
		Use:   "render --package DIR",
		Short: "Render the argument graph page",
		Long: `Render writes argument-graph.html: the package's compiled graph after
inference (.gaia/ir.json and .gaia/beliefs.json) as one self-contained page that
works opened from disk (no CDN, no network, a strict Content-Security-Policy).

Each card shows a claim's full statement under its variable name, and its
posterior with three decimals. Each infer update is an arrow from the evidence to
the claim it updates: solid when it raises belief, dashed when it lowers it, its
width and chip read from the likelihood ratio (3 weak, 10 substantial, 30 strong,
anything else off-grade). A criterion with no infer path to worth (GAIA507)
carries a "not connected to worth" badge. Relations (exclusive(), equal(),
contradict() and other operators) carry no likelihood: they are listed under
Relations with their claims, not drawn. Clicking a card or an arrow opens the
statement, posterior, P(e|h), P(e|not h), the rationale and its anchors; http(s)
anchors and existing files inside the project (evidence notes, match artifacts,
project://... references; never .html, .svg or scripts) become links relative to
the page, everything else stays text.

Rendering never gates anything: it refuses only when it cannot read the graph
(a missing or malformed .gaia/ir.json, or a malformed .gaia/beliefs.json). A
missing beliefs.json draws the graph without posteriors. Check the graph itself
with 'nullius lint'. The page is written atomically and replaces an earlier one.

Exit codes: 0 page written, 2 usage error, unreadable graph or write failure.` + limitsNote,
		Example: `  nullius render --package ideas/my-idea-gaia
  nullius render --package ideas/my-idea-gaia --output /tmp/graph.html`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if pkg == "" {
				return usageErrorf("render needs --package DIR (the Gaia package holding .gaia/ir.json)")
			}
			res, err := render.Render(render.Options{
				Package: pkg, Output: output, ProjectRoot: projectRoot, Version: version(),
			})
			if err != nil {
				return usageErrorf("render: %v", err)
			}
			for _, n := range res.Notes {
				fmt.Fprintf(a.stderr, "nullius: note: %s\n", n)
			}
			_, err = fmt.Fprintf(a.stdout, "wrote %s (%s, %s)\n", res.Path, plural.N(res.Nodes, "claim"), plural.N(res.Edges, "infer update"))
			return err
		},
	}
	cmd.Flags().StringVar(&pkg, "package", "", "Gaia package directory holding .gaia/ir.json (required)")
	cmd.Flags().StringVar(&output, "output", "", "page to write (default <package>/argument-graph.html)")
	cmd.Flags().StringVar(&projectRoot, "project-root", "", "links to anchored files must stay inside this directory (default: nearest ancestor with .nullius/ or .git, else the package)")
	return cmd
}
