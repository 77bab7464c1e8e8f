package main

import "github.com/spf13/cobra"

// limitsNote ends the help of every command that reads user files: one
// line pointing at 'nullius help limits', instead of the whole paragraph in
// every help text (issue 16).
const limitsNote = `

Input limits: regular files only, each kind of input capped in size (a bigger
one is refused, exit 2); see 'nullius help limits'.`

// limitsText is the help topic 'nullius help limits': the size caps
// (internal/readlimit) a "nullius reads at most ..." error points at
// (issue 7), and the regular-files-only rule (issue 13). TestLimitsHelp
// keeps the numbers in step.
const limitsText = `nullius reads only regular files: a FIFO, device, socket or directory where a
file belongs is refused before it is opened, so nothing ever waits on one.

Every input is read through one bounded reader, capped while reading:
  64 MiB from a JSON artifact (IR, beliefs, survey, matrix, ledger, match
         artifact, panel report, idea card, nodes file)
   4 MiB from a roster, commitment, criteria file, vote or posterior payload
   8 MiB from a Markdown material (card summary, statement, report)
   1 MiB from a TOML configuration file (pyproject.toml, nullius.toml)
   8 MiB from a Python source file
A bigger input is refused (exit 2) before it is parsed, with a message naming
the file and the cap.

Memory stays within about 10 times the input: a JSON document whose values
would take more than 6 times its size plus 8 MiB once decoded (a file of
tiny values such as [0,0,...]) is refused as "too dense" while it is
parsed, and a validator reports at most 100 findings of one rule per file,
then one finding that counts the rest.`

// limitsCmd is the help topic (no Run: cobra lists it under "Additional
// help topics" and 'nullius help limits' prints it).
func limitsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "limits",
		Short: "Which files nullius reads, and how much of each",
		Long:  limitsText,
	}
}
