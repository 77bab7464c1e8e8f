package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/shlex"
)

// walk calls fn on c and every command below it.
func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, s := range c.Commands() {
		walk(s, fn)
	}
}

// isHelpTopic tells a help topic ('nullius help limits': no Run, no
// subcommands) from a command.
func isHelpTopic(c *cobra.Command) bool { return !c.Runnable() && !c.HasSubCommands() }

// Every command has a worked example in its --help (issue 16), and no help
// text repeats the input-limits paragraph that 'nullius help limits' holds.
func TestEveryCommandHasAnExample(t *testing.T) {
	n := 0
	walk((&app{}).rootCmd(), func(c *cobra.Command) {
		if isHelpTopic(c) {
			return
		}
		n++
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no Example in its help", c.CommandPath())
		}
		if strings.Contains(c.Long, "MiB from a") {
			t.Errorf("%q repeats the input-limits paragraph; end the help with limitsNote", c.CommandPath())
		}
	})
	if n < 30 {
		t.Fatalf("walked %d commands; the tree is not what this test expects", n)
	}
}

// exampleCommands returns the nullius command lines of an Example: lines
// starting "nullius", or "$ nullius" in an example that shows output after
// "$ " prompts; backslash continuations joined, cut at a comment, pipe or
// redirection.
func exampleCommands(t *testing.T, example string) [][]string {
	var out [][]string
	lines := strings.Split(example, "\n")
	prompt := strings.Contains(example, "$ nullius")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if prompt {
			if !strings.HasPrefix(l, "$ ") {
				continue
			}
			l = strings.TrimPrefix(l, "$ ")
		}
		if !strings.HasPrefix(l, "nullius ") {
			continue
		}
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[i])
		}
		words, err := shlex.Split(l)
		if err != nil {
			t.Errorf("example line %q does not split: %v", l, err)
			continue
		}
		for j, w := range words {
			if strings.HasPrefix(w, "#") || w == "|" || w == ">" || w == "&&" {
				words = words[:j]
				break
			}
		}
		out = append(out, words[1:])
	}
	return out
}

// Every example command names a real command with flags it has and
// arguments it accepts, so the examples cannot rot as flags change.
func TestExamplesParse(t *testing.T) {
	lines := 0
	walk((&app{}).rootCmd(), func(c *cobra.Command) {
		for _, args := range exampleCommands(t, c.Example) {
			lines++
			// A fresh tree per line: flag values parsed by one line must
			// not leak into the next.
			root := (&app{}).rootCmd()
			switch {
			case len(args) == 1 && args[0] == "--version":
				continue
			case len(args) > 0 && args[0] == "help": // cobra adds help when it runs
				args = args[1:]
			}
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == root && len(args) > 0 {
				t.Errorf("%s example %q: no such command", c.CommandPath(), strings.Join(args, " "))
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("%s example %q: %v", c.CommandPath(), strings.Join(args, " "), err)
				continue
			}
			if isHelpTopic(cmd) {
				continue
			}
			if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
				t.Errorf("%s example %q: %v", c.CommandPath(), strings.Join(args, " "), err)
			}
		}
	})
	if lines < 40 {
		t.Fatalf("found %d example command lines; the parser is not finding them", lines)
	}
}

// The helpers the two tests above rely on find what they should.
func TestExampleCommandsParser(t *testing.T) {
	got := exampleCommands(t, "  # comment\n  nullius a --b c \\\n    --d 'e f'  # note\n  nullius x | jq .\n  nullius-other")
	want := [][]string{{"a", "--b", "c", "--d", "e f"}, {"x"}}
	if p := exampleCommands(t, "  $ nullius y\n  nullius 1.0 (output)"); len(p) != 1 || p[0][0] != "y" {
		t.Errorf("with $ prompts only prompted lines are commands: got %q", p)
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if strings.Join(got[i], "\x00") != strings.Join(want[i], "\x00") {
			t.Errorf("line %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// `nullius help limits` prints the limits topic, and it is listed in the
// root help.
func TestHelpLimitsTopic(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help", "limits"}, nil, &out, &errb); code != 0 {
		t.Fatalf("help limits: exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(out.String(), "64 MiB from a JSON artifact") {
		t.Errorf("help limits printed %q", out.String())
	}
	out.Reset()
	run([]string{"--help"}, nil, &out, &errb)
	if !strings.Contains(out.String(), "limits") || !strings.Contains(out.String(), "Additional help topics") {
		t.Errorf("root help does not list the limits topic:\n%s", out.String())
	}
}

// A tree built for one command holds that command, built as the whole
// tree builds it, and is budgeted as in the whole tree: the builder table
// names each command by the name it is called by.
func TestTreeForOneCommand(t *testing.T) {
	full := (&app{}).rootCmd()
	markBudgeted(full)
	if got, want := len(full.Commands()), len(topCommands); got != want {
		t.Fatalf("whole tree has %d commands, topCommands %d", got, want)
	}
	for _, top := range topCommands {
		name := top.name
		c, rest, err := full.Find([]string{name})
		if err != nil || len(rest) > 0 || c.Name() != name {
			t.Errorf("topCommands names %q, the whole tree has no such command", name)
			continue
		}
		one := (&app{}).rootCmd(name, "--help")
		markBudgeted(one)
		if n := len(one.Commands()); n != 1 || one.Commands()[0].Name() != name {
			t.Errorf("tree for %q holds %d commands", name, n)
			continue
		}
		var whole, part []string
		walk(c, func(c *cobra.Command) { whole = append(whole, c.CommandPath()+" "+c.Annotations[budgetKey]) })
		walk(one.Commands()[0], func(c *cobra.Command) { part = append(part, c.CommandPath()+" "+c.Annotations[budgetKey]) })
		if strings.Join(whole, "\n") != strings.Join(part, "\n") {
			t.Errorf("tree for %q:\n%s\nwhole tree:\n%s", name, part, whole)
		}
	}
	for _, args := range [][]string{nil, {"help", "lint"}, {"--version"}, {"lnt"}, {"__complete", "li"}} {
		if n := len((&app{}).rootCmd(args...).Commands()); n != len(topCommands) {
			t.Errorf("tree for %q holds %d commands, want all", args, n)
		}
	}
}
