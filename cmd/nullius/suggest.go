package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// suggestDistance is the largest edit distance still offered as "did you
// mean" (cobra's own default for commands): --formt and --fromat are one or
// two edits from --format, --quiet is far from --exit-zero.
const suggestDistance = 2

// closest returns the candidates within suggestDistance edits of typed, or
// that typed is a prefix of (at least two letters), nearest first then
// alphabetical.
func closest(typed string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	var hits []scored
	low := strings.ToLower(typed)
	for _, c := range candidates {
		d := editDistance(low, strings.ToLower(c))
		if d <= suggestDistance || (len(low) >= 2 && strings.HasPrefix(strings.ToLower(c), low)) {
			hits = append(hits, scored{c, d})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].name < hits[j].name
	})
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.name
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// didYouMean is ` (did you mean "a" or "b"?)` for the suggestions, or "".
func didYouMean(sugg []string) string {
	if len(sugg) == 0 {
		return ""
	}
	q := make([]string, len(sugg))
	for i, s := range sugg {
		q[i] = fmt.Sprintf("%q", s)
	}
	return " (did you mean " + strings.Join(q, " or ") + "?)"
}

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
		sugg := closest(name, names)
		for i := range sugg {
			sugg[i] = "--" + sugg[i]
		}
		hint = didYouMean(sugg)
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
		what, word, didYouMean(closest(word, names)), orList(names), group.CommandPath())
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
