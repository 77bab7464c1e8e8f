package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/report"
)

func (a *app) reportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report KIND",
		Short: "Report tools: posterior display and link normalizers, portfolio status",
		Example: `  nullius report posteriors artifacts/                   # round every "Posterior value:"
  nullius report links --project-root . artifacts/        # relative links, broken ones found
  nullius report portfolio --nodes idea-store/campaigns/c0ffee12/nodes_latest.json \
    --project-root . --out-md reports/portfolio.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("report needs a kind (links, posteriors, portfolio); see 'nullius report --help'")
			}
			return unknownSubcommand(cmd, args[0], "report tool")
		},
	}
	cmd.AddCommand(a.reportPosteriorsCmd(), a.reportLinksCmd(), a.reportPortfolioCmd())
	return cmd
}

// markdownFiles expands files and directories (searched recursively) into
// the sorted .md files; other files are skipped, a missing path is exit 2.
func markdownFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageErrorf("%q does not exist", p)
		}
		if err != nil {
			return nil, usageErrorf("cannot read %q: %v", p, err)
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			// Named on the command line, a FIFO or device is refused
			// whatever its name, rather than silently skipped.
			return nil, &exitErr{code: exitError, msg: (&readlimit.NotRegularError{Path: p, Mode: fi.Mode()}).Error()}
		}
		if !fi.IsDir() {
			if strings.HasSuffix(p, ".md") {
				out = append(out, p)
			}
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
				found = append(found, path)
			}
			return err
		})
		if err != nil {
			return nil, usageErrorf("cannot walk %q: %v", p, err)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

func (a *app) reportPosteriorsCmd() *cobra.Command {
	var (
		f     reportFlags
		check bool
	)
	cmd := &cobra.Command{
		Use:   "posteriors [--check] PATH...",
		Short: "Round every 'Posterior value:' display to three decimals",
		Long: `Posteriors rewrites every "Posterior value:" line of the Markdown files (and
directories, searched for *.md) to the value rounded half-up to exactly three
decimals, keeping bullets, bold and backticks. JSON files are never touched.
It is idempotent. Changed files are written atomically and listed on stdout.

--check writes nothing and reports each display that would change (REPORT001)
or that is outside [0, 1] (REPORT002) as a located finding.

Exit codes: 0 nothing to change (or rewritten), 1 --check found changes or a
value is out of range, 2 usage or I/O error.` + limitsNote,
		Example: `  nullius report posteriors artifacts/                 # rewrite every report under artifacts/
  nullius report posteriors --check artifacts/report.md # CI: fail on a display that would change`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			files, err := markdownFiles(args)
			if err != nil {
				return err
			}
			var ds []diag.Diagnostic
			var locks lockfile.Set
			defer locks.Release()
			for _, p := range files {
				if err := lockToRewrite(&locks, p, !check); err != nil {
					return err
				}
				b, err := readInputKind(p, readlimit.Markdown)
				if err != nil {
					return err
				}
				fds := report.CheckPosteriors(p, string(b))
				if check || (len(fds) > 0 && fds[0].Code == report.CodeOutOfRange.Code) {
					ds = append(ds, fds...)
					continue
				}
				out, edits, _ := report.NormalizePosteriors(string(b))
				if len(edits) == 0 {
					continue
				}
				if err := atomicfile.WriteFile(p, []byte(out), 0o644); err != nil {
					return &exitErr{code: exitError, msg: err.Error()}
				}
				fmt.Fprintln(a.stdout, p)
			}
			return a.report(&f, "report posteriors", ds, len(files))
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&check, "check", false, "report what would change instead of writing")
	return cmd
}

func (a *app) reportLinksCmd() *cobra.Command {
	var (
		f     reportFlags
		check bool
		root  string
	)
	cmd := &cobra.Command{
		Use:   "links --project-root DIR [--check] PATH...",
		Short: "Normalize report links and find broken ones",
		Long: `Links rewrites every link of the Markdown files relative to the report's own
directory (root-relative paths, file:// and project:// links inside the
project), links bare repo-local paths (artifacts/, idea-store/, ideas/,
argument-graphs/, knowledge_base/) that resolve, and links arXiv:, DOI: and
INSPIRE recid mentions. Fenced code is left alone. It is idempotent; changed
files are written atomically and listed on stdout.

Every file is then checked for local links that do not exist (REPORT011) or
leave the project root (REPORT012). --check writes nothing and also reports
each line that would change (REPORT010).

Exit codes: 0 clean, 1 broken links or (with --check) changes, 2 usage or I/O.` + limitsNote,
		Example: `  nullius report links --project-root . artifacts/                 # rewrite, then check
  nullius report links --project-root . --check artifacts/report.md  # CI: change nothing, report`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if root == "" {
				return usageErrorf("report links needs --project-root DIR")
			}
			if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
				return usageErrorf("--project-root %q is not a directory", root)
			}
			files, err := markdownFiles(args)
			if err != nil {
				return err
			}
			var ds []diag.Diagnostic
			var locks lockfile.Set
			defer locks.Release()
			for _, p := range files {
				if err := lockToRewrite(&locks, p, !check); err != nil {
					return err
				}
				b, err := readInputKind(p, readlimit.Markdown)
				if err != nil {
					return err
				}
				text := string(b)
				if !check {
					out, err := report.NormalizeLinks(text, p, root)
					if err != nil {
						return &exitErr{code: exitError, msg: err.Error()}
					}
					if out != text {
						if err := atomicfile.WriteFile(p, []byte(out), 0o644); err != nil {
							return &exitErr{code: exitError, msg: err.Error()}
						}
						fmt.Fprintln(a.stdout, p)
						text = out
					}
				}
				lds, err := report.CheckLinks(p, text, root)
				if err != nil {
					return &exitErr{code: exitError, msg: err.Error()}
				}
				ds = append(ds, lds...)
			}
			return a.report(&f, "report links", ds, len(files))
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&check, "check", false, "report what would change instead of writing")
	cmd.Flags().StringVar(&root, "project-root", "", "project root (required)")
	return cmd
}

func (a *app) reportPortfolioCmd() *cobra.Command {
	var o report.PortfolioOptions
	var outJSON string
	cmd := &cobra.Command{
		Use:   "portfolio --nodes FILE --project-root DIR --out-md FILE [--out-json FILE]",
		Short: "Build the portfolio status report of a campaign",
		Long: `Portfolio reads a campaign's nodes_latest.json (the engine's map of node id to
node, or a {"campaign_id", "nodes": [...]} wrapper) and writes a Markdown status
report (and with --out-json the same data as JSON, exact values): per node its
lifecycle state, coverage, posterior (three decimals), readiness status,
graph link and package, and the top drivers, each naming the claim it updates.
The package is the Gaia package under the project root bound to the node
([tool.nullius] campaign-id and node-id, see 'nullius bind').

A row whose graph no longer vouches for the stored number is flagged
"⚠ stale?": the pinned ir.json was recompiled after writeback, its worth
belief disagrees with the store, or the package the stored ref names is bound
to another idea. Graph data is withheld (with a warning on stderr) whenever the
package ref does not resolve inside the project root, an input escapes the
package, the package is bound to another node, the pin does not match or the
IR contract fails. A node bound by several packages is a warning.

Exit codes: 0 written (warnings do not fail), 2 usage, unreadable nodes file
or an unwritable output.` + limitsNote,
		Example: `  nullius report portfolio --nodes idea-store/campaigns/c0ffee12/nodes_latest.json \
    --project-root . --out-md reports/portfolio.md --out-json reports/portfolio.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, req := range []struct{ flag, val string }{{"--nodes", o.NodesPath}, {"--project-root", o.ProjectRoot}, {"--out-md", o.OutMD}} {
				if req.val == "" {
					return usageErrorf("report portfolio needs %s", req.flag)
				}
			}
			if fi, err := os.Stat(o.ProjectRoot); err != nil || !fi.IsDir() {
				return usageErrorf("--project-root %q is not a directory", o.ProjectRoot)
			}
			if o.Top < 1 {
				return usageErrorf("--top must be at least 1, got %d", o.Top)
			}
			p, err := report.BuildPortfolio(o)
			if err != nil {
				return &exitErr{code: exitError, msg: "cannot load the nodes file: " + err.Error()}
			}
			for _, w := range p.Warnings {
				fmt.Fprintln(a.stderr, "warning: "+w)
			}
			if err := writeReport(o.OutMD, []byte(p.Markdown())); err != nil {
				return err
			}
			if outJSON != "" {
				b, err := p.JSON()
				if err != nil {
					return &exitErr{code: exitError, msg: err.Error()}
				}
				if err := writeReport(outJSON, b); err != nil {
					return err
				}
			}
			fmt.Fprintf(a.stderr, "wrote %s (%d nodes)\n", o.OutMD, len(p.Rows))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.NodesPath, "nodes", "", "the campaign's nodes_latest.json (required)")
	fl.StringVar(&o.ProjectRoot, "project-root", "", "project root the package refs resolve under (required)")
	fl.StringVar(&o.OutMD, "out-md", "", "Markdown output (required; replaced atomically)")
	fl.StringVar(&outJSON, "out-json", "", "JSON output (replaced atomically)")
	fl.IntVar(&o.Top, "top", 2, "drivers per direction")
	fl.StringVar(&o.WorthLabel, "worth-label", "worth", "label of the root claim in beliefs.json")
	return cmd
}

// lockToRewrite takes the lock of the directory of a report about to be
// read and rewritten in place (write), so the read, the rewrite and the
// write are one step no other nullius writer of that directory interleaves
// with (two normalizers at once would each write back the other's input).
// A --check run writes nothing and takes no lock.
func lockToRewrite(locks *lockfile.Set, path string, write bool) error {
	if !write {
		return nil
	}
	if err := locks.Add(filepath.Dir(path)); err != nil {
		return &exitErr{code: exitError, msg: err.Error()}
	}
	return nil
}

// writeReport replaces a generated report atomically, creating its directory.
func writeReport(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return &exitErr{code: exitError, msg: err.Error()}
	}
	if err := atomicfile.WriteFile(path, b, 0o644); err != nil {
		return &exitErr{code: exitError, msg: err.Error()}
	}
	return nil
}
