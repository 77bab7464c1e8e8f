package main

import (
	"bytes"
	"io"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
)

func (a *app) rulesCmd() *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "List every rule",
		Long: `Rules lists every rule nullius reports: its stable code, default severity,
kebab-case name and one-line title. Either the code or the name may be given to
'nullius explain'.

Formats: text (a table, the default), json ({"version":1,"tool":"nullius",
"rules":[...]}, every documented field), markdown (docs/rules.md).`,
		Example: `  nullius rules
  nullius rules --format json
  nullius rules --format markdown -o docs/rules.md`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var write func(io.Writer, []diag.Rule) error
			switch format {
			case "text":
				write = output.WriteRulesTable
			case "json":
				write = output.WriteRulesJSON
			case "markdown":
				write = output.WriteRulesMarkdown
			default:
				return usageErrorf("unknown format %q for rules; use text, json or markdown", format)
			}
			var buf bytes.Buffer
			if err := write(&buf, diag.All()); err != nil {
				return &exitErr{code: exitError, msg: "rules: " + err.Error()}
			}
			if out != "" {
				if err := atomicfile.WriteFile(out, buf.Bytes(), 0o644); err != nil {
					return &exitErr{code: exitError, msg: "rules: " + err.Error()}
				}
				return nil
			}
			_, err := a.stdout.Write(buf.Bytes())
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, json or markdown")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of stdout")
	return cmd
}

// noArgs refuses positional arguments with a one-line usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments, got %q (see '%s --help')", cmd.CommandPath(), args[0], cmd.CommandPath())
	}
	return nil
}
