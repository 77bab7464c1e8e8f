package main

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/pipeline/lsp"
)

func (a *app) serverCmd() *cobra.Command {
	var (
		debounce time.Duration
		stdio    bool
	)
	cmd := &cobra.Command{
		Use:   "server",
		Short: "Run the language server for editors (LSP over stdio)",
		Long: `Server speaks the Language Server Protocol (3.17) on stdin and stdout, so an
editor shows nullius's findings as you type, the way ruff's server does: the
source rules on every change of an open Python file of a Gaia package (from the
editor's buffer, not the file on disk), the compiled-IR checks as well on open
and save when .gaia/ir.json exists, with configuration and suppressions applied
exactly as 'nullius lint' applies them. Hover explains a finding's rule, the
grade of a likelihood literal and what the discipline asks of a verb call; code
actions apply the safe fixes and insert "# nullius: ignore[CODE] " with the
cursor where the reason goes.

Logs go to stderr; stdout carries the protocol only. Editors start it
themselves: docs/editors.md has the setup for Neovim, VS Code, Helix and Emacs.

Exit codes: 0 after the client's shutdown and exit, 1 when the client sent exit
without shutdown, 2 when the connection broke.`,
		Example: `  nullius server          # started by the editor, not by hand`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if debounce < 0 {
				return usageErrorf("invalid --debounce %v; use a duration ≥ 0", debounce)
			}
			err := lsp.Serve(cmd.Context(), a.stdin, a.stdout, lsp.Options{Version: version(), Log: a.stderr, Debounce: debounce})
			switch {
			case err == nil:
				return nil
			case errors.Is(err, lsp.ErrExitWithoutShutdown):
				return &exitErr{code: exitFindings, msg: "server: the client sent exit without shutdown"}
			}
			return &exitErr{code: exitError, msg: "server: " + err.Error()}
		},
	}
	cmd.Flags().DurationVar(&debounce, "debounce", 150*time.Millisecond,
		"least time between two as-you-type lints of a package (the first change after a pause is linted at once)")
	cmd.Flags().BoolVar(&stdio, "stdio", true, "talk LSP over stdin/stdout (the only transport; accepted because editors pass it)")
	return cmd
}
