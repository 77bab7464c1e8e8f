package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nullius-dev/nullius/internal/plural"
	pm "github.com/nullius-dev/nullius/pipeline/match"
)

// registerRunnerFlags adds the flags that say where judge runners are.
func registerRunnerFlags(f *pflag.FlagSet, o *pm.PanelOptions) {
	f.StringVar(&o.SkillsRoot, "skills-root", "", "folder holding the sibling skills (kimi-cli-runner/, review-swarm/, ...); default $NULLIUS_SKILLS_ROOT")
	f.StringVar(&o.Python, "python", "", "Python interpreter for review-swarm's run_multi_task.py; default $NULLIUS_PYTHON, else python3")
}

func (a *app) matchDoctorCmd() *cobra.Command {
	o := pm.PanelOptions{}
	var format string
	cmd := &cobra.Command{
		Use:   "doctor [--materials-dir DIR] [--roster FILE] [--skills-root DIR]",
		Short: "Show which judge families a panel would run, with each one's CLI, runner script and model",
		Long: `Resolve the roster and the flags exactly as 'nullius match panel' would and,
for every requested family, show its runner, model, CLI (the executable that
makes it usable, and where it is), its runner script or launcher (where it was
found, or every place it was looked for), the command a first attempt would
run, and whether it would run: "run", "native" (the host's reply, injected
with --native-vote), "absent" with the reason the panel would record, or
"not_run" when the panel would degrade. Then the verdict: whether a
cross-family panel would run and could reach the roster's floor. No judge is
run and nothing is written.

The roster is found as the panel finds it (--roster, else the project's
.nullius/agents.json above --materials-dir, default the current directory,
else ~/.nullius/agents.json, else the built-in native family). Runner scripts
are looked for in $IDEA_PAIRWISE_*_RUNNER / $IDEA_PAIRWISE_MULTI_TASK, then
under --skills-root (or $NULLIUS_SKILLS_ROOT), then on PATH; see
'nullius match panel --help' and docs/panel.md.

--format json prints {"version": 1, "roster": {"source", "path"}, "floor",
"families_requested", "usable", "independence", "seats": [{"family", "runner",
"model", "available", "cli", "cli_path", "interpreter", "runner_script",
"runner_script_from", "looked_at", "runner_problem", "runner_override", "argv", "status",
"reason"}], "possible_votes", "independence_refusal", "verdict", "would_run"}.

Exit codes: 0 a cross-family panel would run and could reach its floor;
1 it would not (it would degrade, fail its floor or be refused, or a flag is
refused as the panel would refuse it); 2 usage or I/O error.` + limitsNote,
		Example: `  nullius match doctor --roster agents.json --skills-root ~/.claude/skills
  nullius match doctor --format json | jq '.seats[] | {family, status, reason}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("invalid --format %q; use text or json", format)
			}
			if o.MaterialsDir == "" {
				o.MaterialsDir = "."
			}
			if home, err := os.UserHomeDir(); err == nil {
				o.Home = home
			}
			o.Getenv = a.env
			d, err := pm.RunDoctor(o)
			if err != nil {
				return stepErr(err)
			}
			if format == "json" {
				printDoctorJSON(a.stdout, d)
			} else {
				printDoctor(a.stdout, d)
			}
			if !d.OK {
				return &exitErr{code: exitFindings}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.MaterialsDir, "materials-dir", "", "materials directory the panel would run on (finds the project roster); default .")
	f.StringVar(&o.OutDir, "out-dir", "", "panel directory, only to show the paths in each command")
	f.StringVar(&o.Roster, "roster", "", "agents.json roster to use (skips discovery)")
	f.StringVar(&o.Families, "families", "", "comma-separated families to seat (default: all in the roster)")
	f.StringArrayVar(&o.ModelSpecs, "model-spec", nil, "FAMILY=MODEL: as for match panel")
	f.StringArrayVar(&o.RunnerOverrides, "runner", nil, "FAMILY=COMMAND: as for match panel")
	f.IntVar(&o.TimeoutSecs, "timeout-secs", 900, "judge timeout in seconds, as shown in each command")
	f.StringVar(&format, "format", "text", "output format: text or json")
	registerRunnerFlags(f, &o)
	return cmd
}

func printDoctor(w io.Writer, d *pm.Doctor) {
	where := d.Roster.Source
	if d.Roster.Path != "" {
		where += " " + d.Roster.Path
	}
	fmt.Fprintf(w, "roster: %s (floor %d; %s)\n", where, d.Floor, plural.N(d.Usable, "usable family", "usable families"))
	for _, c := range d.Seats {
		status := c.Status
		if c.Reason != "" {
			status += ": " + c.Reason
		}
		fmt.Fprintf(w, "%s (%s, model %s): %s\n", c.Family, c.Runner, c.Model, status)
		if c.Override != "" {
			fmt.Fprintf(w, "  runner override: %s\n", c.Override)
		}
		if c.CLI != "" {
			if c.CLIPath != "" {
				fmt.Fprintf(w, "  cli: %s at %s\n", c.CLI, c.CLIPath)
			} else {
				fmt.Fprintf(w, "  cli: %s not on PATH\n", c.CLI)
			}
		}
		if c.Interpreter != "" {
			if c.RunnerProblem != "" {
				fmt.Fprintf(w, "  runner: cannot be started: %s\n", c.RunnerProblem)
			} else {
				fmt.Fprintf(w, "  runner: %s %s (from %s)\n", c.Interpreter, c.Script, c.ScriptFrom)
			}
		}
		if len(c.Argv) > 0 {
			fmt.Fprintf(w, "  command: %s\n", strings.Join(c.Argv, " "))
		}
	}
	if d.Independence != "" {
		fmt.Fprintf(w, "independence: %s\n", d.Independence)
	}
	fmt.Fprintf(w, "verdict: %s\n", d.Verdict)
}

func printDoctorJSON(w io.Writer, d *pm.Doctor) {
	var path any
	if d.Roster.Path != "" {
		path = d.Roster.Path
	}
	type roster struct {
		Source string `json:"source"`
		Path   any    `json:"path"`
	}
	out := struct {
		Version int    `json:"version"`
		Roster  roster `json:"roster"`
		*pm.Doctor
	}{1, roster{d.Roster.Source, path}, d}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Fprintln(w, string(b))
}
