package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/projroot"
)

// initJSON is init's --format json output.
type initJSON struct {
	Version        int      `json:"version"`
	Tool           string   `json:"tool"`
	Status         string   `json:"status"` // initialized or unchanged
	Root           string   `json:"root"`
	Created        []string `json:"created"`
	Updated        []string `json:"updated"`
	Unchanged      []string `json:"unchanged"`
	GitignoreAdded []string `json:"gitignore_added"`
	EnclosingRoot  *string  `json:"enclosing_root"`
}

func (a *app) initCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Make DIR (default .) a nullius project root",
		Long: `Init makes DIR (default: the current directory) a nullius project root:

  .nullius/            the project-root marker. extract, writeback, match absorb
                       and the close-prior gate name packages and artifacts
                       relative to the nearest directory holding it
                       (project://...), and refuse to run without one (GAIA201).
  .nullius/README.md   says so, and makes git keep the directory (git does not
                       track an empty one). Commit both.
  .gitignore           gets the lines that keep nullius's local state out of
                       git, under one comment (lines already there are not
                       repeated):
                         .nullius.lock         lock files of running steps
                         .*.tmp-*              temp files of interrupted writes
                         .nullius-scaffold-*/  an interrupted scaffold's staging
                         /.nullius/journal/    the journal of an absorb in progress

Run it once at the top of your research repository (usually where git init
ran). Running it again changes nothing; an existing .gitignore keeps every
line it had. Nothing else is created: the judge roster (.nullius/agents.json)
is yours to write (see docs/panel.md).

Output: one line per file on stdout; --format json prints {"version": 1,
"tool": "nullius", "status": "initialized" | "unchanged", "root",
"created", "updated", "unchanged", "gitignore_added", "enclosing_root"}.

Exit codes: 0 the directory is a project root; 2 usage, or DIR cannot be
made one (not a directory, .nullius exists as a file, not writable).`,
		Example: `  # Start a research repository:
  mkdir my-research && cd my-research && git init
  nullius init

  # The same for a script:
  nullius init path/to/repo --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("invalid --format %q; use text or json", format)
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			res, err := projroot.Init(dir)
			if err != nil {
				return usageErrorf("init: %v", err)
			}
			if format == "json" {
				out := initJSON{Version: 1, Tool: "nullius", Status: "initialized", Root: res.Root,
					Created: nonNil(res.Created), Updated: nonNil(res.Updated), Unchanged: nonNil(res.Unchanged),
					GitignoreAdded: nonNil(res.Added)}
				if len(res.Created)+len(res.Updated) == 0 {
					out.Status = "unchanged"
				}
				if res.Enclosing != "" {
					out.EnclosingRoot = &res.Enclosing
				}
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			}
			a.printInit(dir, res)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

func (a *app) printInit(dir string, res *projroot.InitResult) {
	if len(res.Created)+len(res.Updated) == 0 {
		fmt.Fprintf(a.stdout, "%s is already a nullius project root: nothing to do\n", dir)
		return
	}
	what := map[string]string{
		projroot.Marker + "/":                       "the project-root marker; commit it",
		projroot.Marker + "/" + projroot.ReadmeName: "commit it: git keeps .nullius/ only with a file in it",
		".gitignore": "ignores " + strings.Join(res.Added, " "),
	}
	for _, p := range res.Created {
		fmt.Fprintf(a.stdout, "created %s (%s)\n", p, what[p])
	}
	for _, p := range res.Updated {
		fmt.Fprintf(a.stdout, "updated %s (%s)\n", p, what[p])
	}
	if res.Enclosing != "" {
		fmt.Fprintf(a.stderr, "nullius: note: %s is inside the project rooted at %s; everything under %s now belongs to this new root\n",
			dir, res.Enclosing, dir)
	}
}

// nonNil makes an empty list print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
