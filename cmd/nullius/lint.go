package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/analyzers"
)

func (a *app) lintCmd() *cobra.Command {
	var (
		f          reportFlags
		noIR       bool
		workers    int
		configFile string
		noConfig   bool
	)
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Run the Gaia discipline scan over packages",
		Long: `Lint runs the Gaia discipline scan over every Gaia package under the given
paths (the current directory when none is given): the source rules over the
package's Python modules and, when .gaia/ir.json exists, the compiled-IR checks.

A PATH may be a package directory (holding pyproject.toml), a Python file (linted
in the context of its package), or any directory, searched for packages. A path
that does not exist, or a directory with no package in or above it, is an error.

A statement passes only when the scan can prove it follows the discipline: what
it cannot read as a literal is a violation. Inline suppressions
("# nullius: ignore[CODE] reason") and configuration (nullius.toml, or
[tool.nullius] in pyproject.toml; the closest one to each file applies) hide a
finding from lint, but the finding still counts for 'nullius extract' and
'nullius writeback'.

Formats: text (default), json, sarif (GitHub code scanning), github (workflow
annotations). Several at once, each to stdout or a file:
--format text,sarif:nullius.sarif,json:nullius.json. Files are written
atomically.

Exit codes: 0 no error finding (warnings do not fail), 1 error findings,
2 usage, I/O or internal error. --exit-zero turns 1 into 0 for reports.` + limitsHelp,
		Example: `  nullius lint                                    # every package under the current directory
  nullius lint ideas/my-idea-gaia                 # one package
  nullius lint --format json . > lint.json        # the versioned JSON report
  nullius lint --format text,sarif:nullius.sarif  # CI: read the log, upload the SARIF
  nullius lint --format github                    # annotations on a GitHub pull request
  nullius lint --show-suppressed                  # also list what ignores and config hide
  nullius lint --no-config                        # every finding, whatever the config says`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if workers < 0 {
				return usageErrorf("invalid --workers %d; use a number of workers ≥ 1, or 0 for one per CPU", workers)
			}
			if configFile != "" && noConfig {
				return usageErrorf("--config and --no-config contradict each other; give one")
			}
			if configFile != "" {
				if _, err := os.Stat(configFile); err != nil {
					return usageErrorf("lint: cannot read --config %q: %v", configFile, errors.Unwrap(err))
				}
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			for _, p := range args {
				if err := checkPath(p); err != nil {
					return err
				}
			}
			res, err := analyzers.Lint(args, analyzers.Options{NoIR: noIR, Workers: workers, ConfigFile: configFile, NoConfig: noConfig})
			if err != nil {
				return &exitErr{code: exitError, msg: "lint: " + err.Error()}
			}
			return a.report(&f, "lint", res.Diagnostics, res.Files)
		},
	}
	f.register(cmd)
	f.registerShowSuppressed(cmd)
	cmd.Flags().BoolVar(&noIR, "no-ir", false, "skip the compiled-IR checks even when .gaia/ir.json exists")
	cmd.Flags().IntVar(&workers, "workers", 0, "packages linted in parallel (0: one per CPU)")
	cmd.Flags().StringVar(&configFile, "config", "", "apply this configuration (nullius.toml, or a pyproject.toml with [tool.nullius]) to every file instead of each file's closest one")
	cmd.Flags().BoolVar(&noConfig, "no-config", false, "ignore every configuration file")
	return cmd
}

// checkPath gives a missing or unreadable path its one-line error before
// any work starts.
func checkPath(p string) error {
	_, err := os.Stat(p)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return &exitErr{code: exitError, msg: fmt.Sprintf("lint: %q does not exist; give a Gaia package directory, a Python file or a directory holding packages", p)}
	case errors.Is(err, fs.ErrPermission):
		return &exitErr{code: exitError, msg: fmt.Sprintf("lint: cannot read %q: permission denied", p)}
	}
	return &exitErr{code: exitError, msg: fmt.Sprintf("lint: cannot read %q: %v", p, err)}
}
