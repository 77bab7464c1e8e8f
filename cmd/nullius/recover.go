package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/output"
	"github.com/nullius-dev/nullius/internal/projroot"
	"github.com/nullius-dev/nullius/internal/workdir"
	"github.com/nullius-dev/nullius/pipeline/absorb"
	"github.com/nullius-dev/nullius/pipeline/extract"
)

func (a *app) recoverCmd() *cobra.Command {
	var (
		f    reportFlags
		root string
	)
	cmd := &cobra.Command{
		Use:   "recover",
		Short: "Complete or roll back an absorb that was interrupted",
		Long: `A 'nullius match absorb' edits three files: both ideas' root modules and the
match artifact. Before its first edit it writes an intent journal,
.nullius/journal/absorb-<match_id>.json, holding each file's bytes and sha256
before and after, and marks it committed once both packages lint clean after the
edit. If the absorb is killed (kill -9, a crash, a power cut), the journal stays.

recover finds every journal of the project and settles it:

  committed  every file is brought to its "after" bytes: the absorb is
             completed (both modules hold the match, the artifact is marked)
  otherwise  every file is brought back to its "before" bytes: the absorb is
             rolled back, as if it had never run

A file is only replaced when its digest is the other recorded state. A file in
neither state (edited since the crash) is left as it is and reported, and the
journal is kept; put the file in one of the two states and run recover again,
or delete the journal once all three files are as they should be. Temporary
files that killed writers left beside the three files are removed. Recovery is
itself safe to interrupt: run it again.

'nullius match absorb' and 'nullius lint' run the same recovery before their own
work, so recover is for looking at what happened, or for a project nobody
absorbs into or lints next. It waits for a running absorb to finish (up to
$NULLIUS_LOCK_WAIT, default 10s).

The project root is --project-root, or the nearest directory at or above the
current one holding .nullius/.

--format json prints the lint v1 document (one MATCH067 finding per journal that
could not be settled) plus "status" (nothing, recovered or failed), "journals"
(for each: "journal", "match_id", "action" completed, rolled_back or failed,
"files" with what was "found" and the "action" taken, "temp_files_removed",
"problems") and "temp_files_removed"; the schema is
schemas/recover_result_v1.schema.json.

Exit codes: 0 nothing to recover, or every journal settled; 1 a journal could not
be settled (the files stay as reported); 2 usage or I/O error, or an absorb still
running.`,
		Example: `  # An absorb was killed after it edited the first module:
  $ nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json \
        --a-package graphs/idea-one-gaia --b-package graphs/idea-two-gaia
  Killed
  $ nullius recover
  interrupted absorb of match 5d0b3e21 rolled back: both modules and the artifact are as they were before it (journal .nullius/journal/absorb-5d0b3e21.json removed)
    graphs/idea-one-gaia/src/idea_one/__init__.py: found after, restored
    graphs/idea-two-gaia/src/idea_two/__init__.py: found before, kept
    campaign/artifacts/matches/match-5d0b3e21.json: found before, kept
  $ nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json \
        --a-package graphs/idea-one-gaia --b-package graphs/idea-two-gaia   # now runs whole

  # For CI: is anything left half-done?
  nullius recover --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			r, err := recoverRoot(root)
			if err != nil {
				return err
			}
			rep, err := absorb.Recover(r, true)
			if err != nil {
				return &exitErr{code: exitError, msg: "recover: " + err.Error()}
			}
			return a.recoverOutput(&f, rep)
		},
	}
	f.register(cmd)
	_ = cmd.Flags().MarkHidden("exit-zero")
	cmd.Flags().StringVar(&root, "project-root", "", "project root (default: the nearest directory at or above the current one holding .nullius/)")
	return cmd
}

// recoverRoot resolves --project-root, or finds the root above the
// working directory.
func recoverRoot(root string) (string, error) {
	if root != "" {
		r, err := extract.ResolveDir(root)
		if err != nil {
			return "", usageErrorf("recover: --project-root: %v", err)
		}
		return r, nil
	}
	wd, err := os.Getwd()
	if err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	if err != nil {
		return "", &exitErr{code: exitError, msg: "recover: " + err.Error()}
	}
	r, ok := projroot.Find(wd)
	if !ok {
		return "", usageErrorf("recover: no project root: no directory at or above the current one holds .nullius/ (run 'nullius init' at the repository root, or pass --project-root)")
	}
	return r, nil
}

// recoverJSON is the recover outcome carried in the json output.
type recoverJSON struct {
	Status   string             `json:"status"`
	Journals []*absorb.Recovery `json:"journals"`
	Removed  []string           `json:"temp_files_removed"`
}

func (a *app) recoverOutput(f *reportFlags, rep *absorb.Report) error {
	var ds []diag.Diagnostic
	for _, j := range rep.Failed() {
		ds = append(ds, j.Diagnostic())
	}
	status := "nothing"
	switch {
	case len(ds) > 0:
		status = "failed"
	case len(rep.Journals) > 0 || len(rep.Removed) > 0:
		status = "recovered"
	}
	g := *f
	g.result = recoverJSON{Status: status, Journals: nonNil(rep.Journals), Removed: nonNil(rep.Removed)}
	if stdoutFormat(f.format) == "text" {
		if status == "nothing" {
			fmt.Fprintln(a.stdout, "nothing to recover: no interrupted absorb in this project")
		}
		for _, j := range rep.Journals {
			fmt.Fprintln(a.stdout, j.Summary())
			for _, fo := range j.Files {
				fmt.Fprintf(a.stdout, "  %s: found %s, %s\n", fo.Path, fo.Found, fo.Action)
			}
			for _, t := range j.Removed {
				fmt.Fprintf(a.stdout, "  removed temporary file %s\n", t)
			}
		}
		for _, t := range rep.Removed {
			fmt.Fprintf(a.stdout, "removed temporary file %s of an interrupted journal write\n", t)
		}
		// The findings go to stderr's one line; text on stdout already
		// said everything.
		g.format = fileTargets(f.format)
	}
	if g.format != "" {
		if err := a.report(&g, "recover", ds, len(rep.Journals)); err != nil {
			var ee *exitErr
			if !errors.As(err, &ee) || ee.code == exitError {
				return err
			}
		}
	}
	if len(ds) > 0 {
		return &exitErr{code: exitFindings, msg: fmt.Sprintf("recover: %d interrupted absorb(s) could not be settled; the files are as listed above and the journals are kept", len(ds))}
	}
	return nil
}

// fileTargets keeps the file targets of a --format value ("json:out.json"),
// dropping the one that goes to stdout.
func fileTargets(spec string) string {
	targets, _ := output.ParseTargets(spec)
	var files []string
	for _, t := range targets {
		if t.Path != "" {
			files = append(files, t.Format+":"+t.Path)
		}
	}
	return strings.Join(files, ",")
}

// recoverBeforeLint settles the interrupted absorbs of every project the
// lint paths are in, so lint never judges a half-absorbed match: a
// journal left by a killed absorb is completed or rolled back first, and
// what was done is said on stderr. It does not wait for a running absorb
// (it says so and lints what is there). A journal that cannot be settled
// stops lint with exit 2 and the reason, since the graphs it would judge
// are half edited.
//
// infos are the paths' stats (checkPath's): a file's project is its
// directory's.
func (a *app) recoverBeforeLint(paths []string, infos []fs.FileInfo) error {
	seen := map[string]bool{}
	for i, p := range paths {
		abs, err := a.abs(p)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if !infos[i].IsDir() {
			abs = filepath.Dir(abs)
		}
		root, ok := projroot.Find(abs)
		if !ok || seen[root] {
			continue
		}
		seen[root] = true
		if !absorb.Pending(root) {
			continue
		}
		rep, err := absorb.Recover(root, false)
		var busy *lockfile.BusyError
		if errors.As(err, &busy) {
			fmt.Fprintf(a.stderr, "nullius: lint: an absorb is running in %s; its journal is left to it\n", workdir.Rel(root))
			continue
		}
		if err != nil {
			return &exitErr{code: exitError, msg: "lint: could not recover an interrupted absorb: " + err.Error()}
		}
		for _, j := range rep.Journals {
			if j.Done() {
				fmt.Fprintf(a.stderr, "nullius: lint: %s\n", j.Summary())
			}
		}
		if failed := rep.Failed(); len(failed) > 0 {
			return &exitErr{code: exitError, msg: "lint: " + failed[0].Summary() + "; run 'nullius recover' for the details"}
		}
	}
	return nil
}
