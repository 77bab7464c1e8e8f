package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pipeline/writeback"
)

// errRebind is bind's refusal to move a package to another idea without
// --force.
var errRebind = errors.New("bound to another idea")

// bindJSON is the outcome carried in bind's json output, after the
// findings (schemas/bind_result_v1.schema.json).
type bindJSON struct {
	Status     string           `json:"status"` // bound, unchanged, rebound, refused or error
	Package    string           `json:"package"`
	Pyproject  string           `json:"pyproject"`
	CampaignID string           `json:"campaign_id"`
	NodeID     string           `json:"node_id"`
	Previous   *binding.Binding `json:"previous"` // the binding found, null when unbound or unread
	Message    string           `json:"message"`
}

func (a *app) bindCmd() *cobra.Command {
	var (
		pkg, format string
		b           binding.Binding
		force       bool
	)
	cmd := &cobra.Command{
		Use:   "bind --package DIR --campaign-id ID --node-id ID",
		Short: "Bind a Gaia package to its idea in the idea store",
		Long: `Bind records which idea a Gaia package argues for: campaign-id and node-id in
the [tool.nullius] table of the package's pyproject.toml. 'nullius writeback'
refuses to write a posterior to any other node, and 'nullius match absorb'
refuses packages not bound to the match's ideas, so one idea's evidence can
never land on another.

The file is edited in place: the two values are replaced where they stand, or
added after the table's last key, or a new [tool.nullius] table is appended;
every other byte (comments, order, formatting) is kept. The edit is atomic,
holds the package directory's lock (.nullius.lock), and is re-read before it
replaces the file, so a file nullius cannot edit safely is refused unchanged.

A package already bound to another idea is not rebound without --force: its
graph was written for that idea. After a rebind, re-run 'nullius extract' (the
extraction record names the idea it was extracted for, and writeback checks it).
Binding a package to the idea it is already bound to changes nothing.

Output: one line on stdout; --format json prints the lint v1 document
("version", "tool", "diagnostics": the refusal as a located PRIOR114 finding at
the key that would move, an unusable pyproject.toml as PRIOR109; "summary")
followed by the outcome: "status" (bound, unchanged, rebound, refused, or error:
the file cannot be bound or another step holds the package), "package",
"pyproject", "campaign_id", "node_id", "previous" (the binding found, or null)
and "message". The schema is schemas/bind_result_v1.schema.json.

Exit codes: 0 bound (or already bound); 1 refused (bound to another idea,
without --force); 2 usage (ids that are not idea-store ids), or a package
without a usable pyproject.toml.`,
		Example: `  # Bind an existing package to node nd000001 of campaign c0ffee12:
  nullius bind --package ideas/my-idea-gaia --campaign-id c0ffee12 --node-id nd000001

  # The package was scaffolded for the wrong node: move it, then re-extract.
  nullius bind --package ideas/my-idea-gaia --campaign-id c0ffee12 --node-id nd000002 --force
  nullius extract --package ideas/my-idea-gaia`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("invalid --format %q; use text or json", format)
			}
			if pkg == "" || b.CampaignID == "" || b.NodeID == "" {
				return usageErrorf("bind needs --package DIR, --campaign-id ID and --node-id ID")
			}
			if err := binding.CheckIDs(b); err != nil {
				return usageErrorf("%v", err)
			}
			if fi, err := os.Stat(pkg); err != nil || !fi.IsDir() {
				return usageErrorf("--package %q is not a directory", pkg)
			}
			out := bindJSON{Package: pkg, Pyproject: binding.Path(pkg), CampaignID: b.CampaignID, NodeID: b.NodeID}
			// A key already present with another value is a move to
			// another idea; a missing key is only completed.
			moves := func(old binding.Binding) bool {
				return old.CampaignID != "" && old.CampaignID != b.CampaignID || old.NodeID != "" && old.NodeID != b.NodeID
			}
			old, was, err := binding.Update(pkg, b, func(old binding.Binding, bound bool) error {
				if moves(old) && !force {
					return errRebind
				}
				return nil
			})
			if old != (binding.Binding{}) {
				out.Previous = &old
			}
			var ds []diag.Diagnostic
			var be *binding.Error
			switch {
			case errors.Is(err, errRebind):
				out.Status = "refused"
				out.Message = fmt.Sprintf("%s is bound to campaign-id %s, node-id %s; its graph was written for that idea, so it is not rebound to campaign-id %s, node-id %s without --force (then re-run nullius extract)",
					pkg, old.CampaignID, old.NodeID, b.CampaignID, b.NodeID)
				key := binding.KeyNode
				if old.NodeID == "" || old.NodeID == b.NodeID {
					key = binding.KeyCampaign
				}
				line, col := binding.Locate(pkg, key)
				ds = append(ds, binding.RuleRebind.New(filepath.ToSlash(out.Pyproject), line, col, line, col, "%s", out.Message))
			case errors.As(err, &be):
				out.Status, out.Message = "error", err.Error()
				ds = append(ds, writeback.RuleBindingInvalid.New(filepath.ToSlash(be.Path), be.Line, be.Column, be.Line, be.Column, "%s", be.Msg))
			case err != nil:
				out.Status, out.Message = "error", err.Error()
			case was && old == b:
				out.Status = "unchanged"
				out.Message = fmt.Sprintf("%s is already bound to campaign-id %s, node-id %s", pkg, b.CampaignID, b.NodeID)
			case moves(old):
				out.Status = "rebound"
				out.Message = fmt.Sprintf("%s rebound from campaign-id %s, node-id %s to campaign-id %s, node-id %s; re-run nullius extract before writeback",
					pkg, old.CampaignID, old.NodeID, b.CampaignID, b.NodeID)
			default:
				out.Status = "bound"
				out.Message = fmt.Sprintf("%s bound to campaign-id %s, node-id %s", pkg, b.CampaignID, b.NodeID)
			}
			if format == "json" {
				f := reportFlags{format: "json", color: "never", exitZero: true, result: out}
				if rerr := a.report(&f, "bind", ds, 1); rerr != nil {
					return rerr
				}
			} else if err == nil {
				fmt.Fprintln(a.stdout, out.Message)
			}
			switch out.Status {
			case "refused":
				return &exitErr{code: exitFindings, msg: "bind: " + out.Message}
			case "error":
				return &exitErr{code: exitError, msg: out.Message}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&pkg, "package", "", "the Gaia package `DIR` (holding pyproject.toml)")
	fl.StringVar(&b.CampaignID, "campaign-id", "", "the idea-store campaign `ID`")
	fl.StringVar(&b.NodeID, "node-id", "", "the idea-store node `ID` of the idea the package argues for")
	fl.BoolVar(&force, "force", false, "rebind a package already bound to another idea")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}
