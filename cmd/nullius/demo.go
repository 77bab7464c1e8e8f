package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/fakes"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// demoWhat says what each demo file is, for the text output.
func demoWhat(name string) string {
	switch name {
	case "gaia":
		return "the demo gaia: compiles the tutorial's DSL subset to .gaia/ir.json and computes beliefs (no Python, no real gaia)"
	case "idea-rpc":
		return "the demo idea-store RPC: node.set_posterior and node.set_lifecycle on the engine's files under --store-root"
	case "judge":
		return "a stub judge: votes as told, citing the first anchor of the statement it votes for"
	}
	return ""
}

// demoJSON is demo's --format json output.
type demoJSON struct {
	Version  int               `json:"version"`
	Tool     string            `json:"tool"`
	Dir      string            `json:"dir"`
	Programs map[string]string `json:"programs"`
	EnvFile  string            `json:"env_file"`
	Env      map[string]string `json:"env"`
	Seed     []string          `json:"seed"`
}

func (a *app) demoCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "demo DIR",
		Short: "Set up stand-ins for gaia, the idea store and the judges, for the tutorial",
		Long: `Demo writes into DIR (new, or empty) what docs/tutorial.md needs to walk the
whole road on a machine without gaia, the idea engine or any judge CLI:

  DIR/bin/gaia      the demo gaia. 'build compile' compiles the package's DSL
                    for real (claim, note, observe, infer, register_prior,
                    exclusive/equal/contradict at module level of one module;
                    anything else is refused at its line), 'run infer' computes
                    the exact beliefs of the compiled graph, 'build check'
                    refuses a stale .gaia/ir.json. Its --version is 0.5.0a4.
  DIR/bin/idea-rpc  the demo idea-store RPC: reads one JSON request on stdin as
                    the engine's idea-rpc.mjs does and applies node.set_posterior
                    or node.set_lifecycle (lifecycle machine, idempotency,
                    replays) to <store_root>/campaigns/<id>/nodes_latest.json.
  DIR/bin/judge     a stub judge for 'match panel --runner': '--mode argue:a'
                    votes a and credits the first anchor of statement A. It
                    reads no argument: a panel of stubs is not independent, and
                    nullius records it so (independent_runners: false).
  DIR/env.sh        '. DIR/env.sh' puts DIR/bin first on PATH and sets
                    NULLIUS_IDEA_RPC to DIR/bin/idea-rpc.
  DIR/seed/         what a project gets from outside nullius, to copy into
                    one: idea-store/campaigns/c0ffee12/nodes_latest.json (the
                    idea engine's record of three ideas; each node carries its
                    idea card) and artifacts/literature/ (the outputs of a
                    literature review: survey, close-prior matrix, ledger).

The programs are this nullius binary ('nullius demo run PROGRAM' is what each
script runs), the same code the tests use as fakes. They are stand-ins: never
point a real project at them.

Output: one line per file on stdout; --format json prints {"version": 1,
"tool": "nullius", "dir", "programs", "env_file", "env", "seed"}.

Exit codes: 0 written; 2 usage, DIR not empty, or a write failure.`,
		Example: `  # The tutorial's stand-ins, outside the research repository:
  nullius demo ~/nullius-road/demo
  . ~/nullius-road/demo/env.sh
  gaia --version`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("invalid --format %q; use text or json", format)
			}
			return a.demo(args[0], format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.AddCommand(&cobra.Command{
		Use:   "run PROGRAM [ARGS...]",
		Short: "Run one demo program (what DIR/bin/* execute)",
		Example: `  # What DIR/bin/gaia runs:
  nullius demo run gaia build compile ideas/my-idea-gaia`,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("demo run needs a PROGRAM: %s", strings.Join(fakes.DemoProgramNames(), ", "))
			}
			main, ok := fakes.DemoProgram(args[0])
			if !ok {
				return usageErrorf("demo run: no demo program %q (%s)", args[0], strings.Join(fakes.DemoProgramNames(), ", "))
			}
			if code := main(args[1:]); code != 0 {
				return &exitErr{code: code}
			}
			return nil
		},
	})
	return cmd
}

// demo writes the demo directory.
func (a *app) demo(dir, format string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usageErrorf("demo: %v", err)
	}
	if entries, err := readlimit.ReadDir(abs); err == nil && len(entries) > 0 {
		return usageErrorf("demo: %s is not empty; give a new or empty directory", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return usageErrorf("demo: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		return usageErrorf("demo: cannot tell where this nullius binary is: %v", err)
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	bin := filepath.Join(abs, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return usageErrorf("demo: %v", err)
	}
	out := demoJSON{Version: 1, Tool: "nullius", Dir: abs, Programs: map[string]string{}, Env: map[string]string{}}
	var lines []string
	for _, name := range fakes.DemoProgramNames() {
		p := filepath.Join(bin, name)
		script := fmt.Sprintf("#!/bin/sh\n# %s\n# (nullius demo; docs/tutorial.md). Not the real program: never point a real project at it.\nexec %s demo run %s \"$@\"\n",
			demoWhat(name), shellQuote(self), name)
		if err := atomicfile.WriteNew(p, []byte(script), 0o755); err != nil {
			return usageErrorf("demo: %v", err)
		}
		out.Programs[name] = p
		lines = append(lines, fmt.Sprintf("wrote %s  %s", filepath.Join(dir, "bin", name), demoWhat(name)))
	}
	out.Env["PATH"] = bin + string(os.PathListSeparator) + "$PATH"
	out.Env["NULLIUS_IDEA_RPC"] = filepath.Join(bin, "idea-rpc")
	env := fmt.Sprintf("# Source this file ('. %s') to use the nullius demo stand-ins in this shell.\nexport PATH=%s:\"$PATH\"\nexport NULLIUS_IDEA_RPC=%s\n",
		filepath.Join(dir, "env.sh"), shellQuote(bin), shellQuote(out.Env["NULLIUS_IDEA_RPC"]))
	out.EnvFile = filepath.Join(abs, "env.sh")
	if err := atomicfile.WriteNew(out.EnvFile, []byte(env), 0o644); err != nil {
		return usageErrorf("demo: %v", err)
	}
	lines = append(lines, fmt.Sprintf("wrote %s  puts %s on PATH and sets NULLIUS_IDEA_RPC", filepath.Join(dir, "env.sh"), filepath.Join(dir, "bin")))
	seed, err := fakes.WriteDemoSeed(filepath.Join(abs, "seed"))
	if err != nil {
		return usageErrorf("demo: %v", err)
	}
	out.Seed = seed
	lines = append(lines, fmt.Sprintf("wrote %s  a demo campaign (idea-store/) and literature-review outputs (artifacts/literature/) to copy into a project",
		filepath.Join(dir, "seed")+string(filepath.Separator)))
	if format == "json" {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, l := range lines {
		fmt.Fprintln(a.stdout, l)
	}
	fmt.Fprintf(a.stdout, "next: . %s\n", filepath.Join(dir, "env.sh"))
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
