package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/projroot"
	"github.com/nullius-dev/nullius/pipeline/gaiacli"
	"github.com/nullius-dev/nullius/pipeline/scaffold"
)

func (a *app) scaffoldCmd() *cobra.Command {
	var slug, dest, gaiaBin, campaignID, nodeID string
	cmd := &cobra.Command{
		Use:   "scaffold --slug SLUG --dest DIR",
		Short: "Create a Gaia package skeleton",
		Long: `Create DIR/SLUG-gaia, the skeleton of a Gaia idea package: pyproject.toml pinned
to gaia-lang==0.5.0a4 and Python 3.12, .python-version, and
src/<slug_with_underscores>/__init__.py declaring worth (the only export) and
the five criterion claims, with stock sentences to replace and the wiring
recipes as comments. No gaia is needed and no nested git repository is made.

With --gaia BIN, the skeleton is made by 'gaia build init' instead (the
version must be exactly 0.5.0a4), then hardened: nested .git, .venv and
uv.lock removed, pins retargeted; a changed init template stops it.

With --campaign-id C --node-id N the package is bound to its idea in the
idea store: pyproject.toml gets a [tool.nullius] table with campaign-id and
node-id. Writeback and match absorb refuse an unbound package, or one bound to
another idea; 'nullius bind' binds an existing package.

It never overwrites: an existing DIR/SLUG-gaia is refused (exit 2), and a
failure leaves nothing behind. The package path is printed on stdout. Next,
'nullius lint' names each stock sentence still to replace. The package must
sit inside a project root (a directory holding .nullius/, made by 'nullius
init') before 'nullius extract' runs; scaffold says so when there is none.`,
		Example: `  # A package for node nd000001 of campaign c0ffee12 in ideas/:
  nullius scaffold --slug my-idea --dest ideas --campaign-id c0ffee12 --node-id nd000001`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if slug == "" || dest == "" {
				return usageErrorf("scaffold needs --slug SLUG and --dest DIR")
			}
			opts := scaffold.Options{Slug: slug, Dest: dest}
			if campaignID != "" || nodeID != "" {
				b := binding.Binding{CampaignID: campaignID, NodeID: nodeID}
				if campaignID == "" || nodeID == "" {
					return usageErrorf("--campaign-id and --node-id bind the package together: give both, or neither")
				}
				if err := binding.CheckIDs(b); err != nil {
					return usageErrorf("%v", err)
				}
				opts.Binding = &b
			}
			if gaiaBin != "" {
				opts.Gaia = &gaiacli.CLI{Bin: gaiaBin}
			}
			// An interrupt cancels cmd.Context(), which kills gaia's process
			// group (internal/procrun).
			ctx := cmd.Context()
			pkg, err := scaffold.Create(ctx, opts)
			if err != nil {
				if ctx.Err() != nil { // interrupted: the one line says what was stopped
					return &exitErr{code: exitError}
				}
				return a.scaffoldFailure(err)
			}
			fmt.Fprintln(a.stdout, pkg)
			if opts.Binding != nil {
				fmt.Fprintf(a.stderr, "nullius: bound to campaign-id %s, node-id %s ([tool.nullius] in pyproject.toml)\n", campaignID, nodeID)
			} else {
				fmt.Fprintf(a.stderr, "nullius: note: the package is not bound to an idea; writeback refuses it until %s\n",
					binding.BindCommand(pkg, binding.Binding{}))
			}
			if !scaffold.InGitWorkTree(pkg) {
				fmt.Fprintf(a.stderr, "nullius: note: %q is not under version control; commit the package with "+
					"the project (git init at the project root if needed); nullius never runs it for you\n", pkg)
			}
			first := ""
			if abs, err := filepath.Abs(pkg); err == nil {
				if _, ok := projroot.Find(abs); !ok {
					fmt.Fprintf(a.stderr, "nullius: note: no project root above %q (no .nullius/ directory in it or any parent): "+
						"nullius extract, writeback and match absorb refuse to run without one (GAIA201); run nullius init "+
						"at the top of your research repository (where git init ran)\n", pkg)
					first = "nullius init at the top of your repository, then "
				}
			}
			fmt.Fprintf(a.stderr, "nullius: next: %sreplace the six stock sentences (nullius lint %q names them), wire "+
				"observe() and infer() statements, then nullius extract --package %q\n", first, pkg, pkg)
			return nil
		},
	}
	cmd.Flags().StringVar(&slug, "slug", "", "the idea `SLUG`, e.g. my-idea (the package is DEST/SLUG-gaia)")
	cmd.Flags().StringVar(&dest, "dest", "", "the existing directory `DIR` to create the package in")
	cmd.Flags().StringVar(&campaignID, "campaign-id", "", "bind the package to this idea-store campaign `ID` (with --node-id)")
	cmd.Flags().StringVar(&nodeID, "node-id", "", "bind the package to this idea-store node `ID` (with --campaign-id)")
	cmd.Flags().StringVar(&gaiaBin, "gaia", "", "build the skeleton with this gaia `BIN` (gaia build init) and harden it")
	cmd.Flags().StringVar(&gaiaBin, "gaia-bin", "", "alias of --gaia, as the reference spells it (`BIN`)")
	_ = cmd.Flags().MarkHidden("gaia-bin")
	return markInterruptible(cmd)
}

// scaffoldFailure prints a scaffold error (every one exits 2), with gaia's
// own output for a failed init and the install recipe for gaia trouble.
func (a *app) scaffoldFailure(err error) error {
	fmt.Fprintln(a.stderr, "nullius: "+err.Error())
	var ie *scaffold.InitError
	if errors.As(err, &ie) {
		for _, line := range strings.Split(ie.Result.Output(), "\n") {
			if line != "" {
				fmt.Fprintln(a.stderr, "  "+line)
			}
		}
	}
	var re *gaiacli.RunError
	var ve *gaiacli.VersionError
	if errors.As(err, &re) || errors.As(err, &ve) {
		fmt.Fprintln(a.stderr, "nullius: hint: "+gaiacli.InstallHint)
	}
	return &exitErr{code: exitError}
}
