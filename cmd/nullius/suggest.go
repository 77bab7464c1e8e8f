package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nullius-dev/nullius/internal/suggest"
)

// flagError is the root's flag error function: a usage error (exit 2) that
// names the command's help and, for a mistyped flag, the flags it was
// probably meant to be (--formt: did you mean "--format"?).
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	hint := ""
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		sugg := suggest.Closest(name, names)
		for i := range sugg {
			sugg[i] = "--" + sugg[i]
		}
		hint = suggest.DidYouMean(sugg)
	}
	return usageErrorf("%s%s; see '%s --help'", msg, hint, c.CommandPath())
}

// unknownSubcommand is the exit-2 error for `nullius GROUP WORD` where WORD
// names none of GROUP's subcommands, with the nearest names offered.
func unknownSubcommand(group *cobra.Command, word, what string) error {
	var names []string
	for _, c := range group.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return usageErrorf("unknown %s %q%s; use %s; see '%s --help'",
		what, word, suggest.DidYouMean(suggest.Closest(word, names)), orList(names), group.CommandPath())
}

// orList is "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return "none in this build"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// groupsRefuseUnknownWords gives every command that only groups
// subcommands (match) a RunE: without one cobra prints the group's help and
// exits 0 for `nullius match panle`, so a typo in a CI step would pass.
// Called on the finished tree; groups with their own RunE (validate,
// report, gate) say the same through unknownSubcommand.
func groupsRefuseUnknownWords(c *cobra.Command) {
	for _, sub := range c.Commands() {
		groupsRefuseUnknownWords(sub)
	}
	if !c.HasParent() || !c.HasSubCommands() || c.Runnable() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		return unknownSubcommand(cmd, args[0], "subcommand")
	}
}
