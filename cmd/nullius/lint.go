package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/fix"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/plural"
)

func (a *app) lintCmd() *cobra.Command {
	var (
		f          reportFlags
		noIR       bool
		workers    int
		configFile string
		noConfig   bool
		fixFiles   bool
		diffOnly   bool
		pf         progressFlags
	)
	cmd := &cobra.Command{
		Use:   "lint [PATH...]",
		Short: "Run the Gaia discipline scan over packages",
		Long: `Lint runs the Gaia discipline scan over every Gaia package under the given
paths (the current directory when none is given): the source rules over the
package's Python modules and, when .gaia/ir.json exists, the compiled-IR checks.

A PATH may be a package directory (holding pyproject.toml), a Python file (linted
in the context of its package), or any directory, searched for packages. A path
that does not exist, or a directory with no package in or above it, is an error.

A statement passes only when the scan can prove it follows the discipline: what
it cannot read as a literal is a violation. Inline suppressions
("# nullius: ignore[CODE] reason") and configuration (nullius.toml, or
[tool.nullius] in pyproject.toml; the closest one to each file applies) hide a
finding from lint, but the finding still counts for 'nullius extract' and
'nullius writeback'.

Formats: text (default), json, sarif (GitHub code scanning), github (workflow
annotations). Several at once, each to stdout or a file:
--format text,sarif:nullius.sarif,json:nullius.json. Files are written
atomically.

--fix applies the safe suggested fixes (each file atomically; a file whose
fixes overlap, or one of whose fixes would change a number literal or drop a
call or an argument, is left untouched and named on stderr), then lints again
and reports what remains. Each package is fixed under its directory's lock
(.nullius.lock, the lock 'nullius match absorb' and 'nullius bind' take; waited
for up to $NULLIUS_LOCK_WAIT, default 10s, then exit 2): its files are read,
linted and fixed under it, and a file is written only while it still holds the
bytes the fixes were planned against. --diff prints the same changes as a unified diff on
stdout and writes nothing; it exits 1 when there is something to fix.

Exit codes: 0 no error finding (warnings do not fail), 1 error findings,
2 usage, I/O or internal error. --exit-zero turns 1 into 0 for reports.` + limitsNote,
		Example: `  nullius lint                                    # every package under the current directory
  nullius lint ideas/my-idea-gaia                 # one package
  nullius lint --format json . > lint.json        # the versioned JSON report
  nullius lint --format text,sarif:nullius.sarif  # CI: read the log, upload the SARIF
  nullius lint --format github                    # annotations on a GitHub pull request
  nullius lint --show-suppressed                  # also list what ignores and config hide
  nullius lint --no-config                        # every finding, whatever the config says
  nullius lint --diff ideas/my-idea-gaia          # what the safe fixes would change
  nullius lint --fix ideas/my-idea-gaia           # apply them, then report what is left`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if workers < 0 {
				return usageErrorf("invalid --workers %d; use a number of workers ≥ 1, or 0 for one per CPU", workers)
			}
			if fixFiles && diffOnly {
				return usageErrorf("--fix and --diff contradict each other; --diff only shows what --fix would write")
			}
			if configFile != "" && noConfig {
				return usageErrorf("--config and --no-config contradict each other; give one")
			}
			if configFile != "" {
				if _, err := os.Stat(configFile); err != nil {
					return usageErrorf("lint: cannot read --config %q: %v", configFile, errors.Unwrap(err))
				}
			}
			if len(args) == 0 {
				args = []string{"."}
			}
			infos := make([]fs.FileInfo, len(args))
			for i, p := range args {
				fi, err := checkPath(p)
				if err != nil {
					return err
				}
				infos[i] = fi
			}
			if err := a.recoverBeforeLint(args, infos); err != nil {
				return err
			}
			tuneGC(a.getenv)
			disp, err := a.display(&pf)
			if err != nil {
				return err
			}
			lc := countLint(disp)
			wd, _ := a.workDir()
			opts := analyzers.Options{NoIR: noIR, Workers: workers, Parallel: spareProc(a.getenv), ConfigFile: configFile, NoConfig: noConfig, Finished: lc.counter(), WorkDir: wd}
			res, err := analyzers.Lint(args, opts)
			lc.finish(disp, map[bool]string{true: "ok", false: "error"}[err == nil])
			disp.Close()
			opts.Finished = nil
			if err != nil {
				return &exitErr{code: exitError, msg: "lint: " + err.Error()}
			}
			if diffOnly {
				return a.printFixes(res.Diagnostics)
			}
			if fixFiles {
				fixed, err := a.fixPackages(res, opts)
				if err != nil {
					return err
				}
				if fixed > 0 {
					if res, err = analyzers.Lint(args, opts); err != nil {
						return &exitErr{code: exitError, msg: "lint: " + err.Error()}
					}
				}
			}
			ds := res.Diagnostics
			if strings.Contains(f.format, "sarif") {
				ds = fix.DropUnsafe(ds, fix.ReadSource)
			}
			return a.report(&f, "lint", ds, res.Files)
		},
	}
	f.register(cmd)
	f.registerShowSuppressed(cmd)
	pf.register(cmd)
	cmd.Flags().BoolVar(&noIR, "no-ir", false, "skip the compiled-IR checks even when .gaia/ir.json exists")
	cmd.Flags().IntVar(&workers, "workers", 0, "packages linted in parallel (0: one per CPU)")
	cmd.Flags().StringVar(&configFile, "config", "", "apply this configuration (nullius.toml, or a pyproject.toml with [tool.nullius]) to every file instead of each file's closest one")
	cmd.Flags().BoolVar(&noConfig, "no-config", false, "ignore every configuration file")
	cmd.Flags().BoolVar(&fixFiles, "fix", false, "apply the safe suggested fixes, then report what remains")
	cmd.Flags().BoolVar(&diffOnly, "diff", false, "print the safe suggested fixes as a unified diff and write nothing (exit 1 when there is something to fix)")
	return cmd
}

// printFixes plans the safe fixes of ds and prints them as a unified
// diff (the exit error is 1 when the diff is not empty); it writes
// nothing, so it takes no lock. Files left unfixed are named on stderr.
func (a *app) printFixes(ds []diag.Diagnostic) error {
	files, err := fix.Plan(ds, fix.ReadSource)
	if err != nil {
		return &exitErr{code: exitError, msg: "lint: " + err.Error()}
	}
	planned := a.planned(files)
	for _, f := range planned {
		u, err := fix.Unified(f.Path, f.Src, f.Edits)
		if err != nil {
			return &exitErr{code: exitError, msg: "lint: " + err.Error()}
		}
		io.WriteString(a.stdout, u)
	}
	if len(planned) > 0 {
		return &exitErr{code: exitFindings}
	}
	return nil
}

// planned names the files left unfixed on stderr and returns the others.
func (a *app) planned(files []fix.File) []fix.File {
	var out []fix.File
	for _, f := range files {
		if f.Skipped != "" {
			fmt.Fprintf(a.stderr, "nullius: lint: left %s unfixed: %s\n", f.Path, f.Skipped)
			continue
		}
		out = append(out, f)
	}
	return out
}

// fixPackages writes the safe fixes, one package at a time, each under
// its package directory's lock (fix.FixPackage: the lock absorb and bind
// take, so a fix can never be written over an absorb's edit of the same
// module). The first lint, made without locks, only says which packages
// have something to fix: under the lock each is read and linted again, and
// its fixes are planned and checked against exactly the bytes read there.
// A package whose lock stays busy stops the run with exit 2, the packages
// before it fixed and said so. It returns how many findings were fixed.
func (a *app) fixPackages(res *analyzers.Result, opts analyzers.Options) (int, error) {
	n, files := 0, 0
	report := func() {
		if files > 0 {
			fmt.Fprintf(a.stderr, "nullius: lint: fixed %s in %s\n", plural.N(n, "finding"), plural.N(files, "file"))
		}
	}
	for _, p := range packagesToFix(res) {
		args := relintArgs(p)
		r, err := fix.FixPackage(p.Dir, p.Files, func(overlay map[string][]byte) ([]diag.Diagnostic, []string, error) {
			o := opts
			o.Overlay = overlay
			lr, err := analyzers.Lint(args, o)
			if err != nil {
				return nil, nil, err
			}
			var linted []string
			for _, q := range lr.Packages {
				linted = append(linted, q.Files...)
			}
			return lr.Diagnostics, linted, nil
		})
		written := 0
		if r != nil {
			planned := a.planned(r.Files)
			for _, f := range planned {
				if slices.Contains(r.Written, f.Path) {
					written++
					n += f.Fixes
				}
			}
		}
		files += written
		if err != nil {
			report()
			msg := "lint: " + err.Error()
			if written == 0 {
				msg += "; nothing was fixed in " + p.Dir
			}
			return 0, &exitErr{code: exitError, msg: msg}
		}
	}
	report()
	return n, nil
}

// packagesToFix returns the linted packages that have a finding with a
// fix in one of their files.
func packagesToFix(res *analyzers.Result) []analyzers.Package {
	has := map[string]bool{}
	for _, d := range res.Diagnostics {
		if !d.Suppressed && len(fix.Edits(d)) > 0 {
			has[d.Path] = true
		}
	}
	var out []analyzers.Package
	for _, p := range res.Packages {
		if slices.ContainsFunc(p.Files, func(f string) bool { return has[f] }) {
			out = append(out, p)
		}
	}
	return out
}

// relintArgs are the lint arguments that lint exactly the files of p
// again: the package's pyproject.toml for a whole package (not its
// directory, which would also walk packages nested below it), the folder
// named for some files of one, else the file.
func relintArgs(p analyzers.Package) []string {
	switch {
	case !p.Partial:
		return []string{filepath.Join(filepath.FromSlash(p.Dir), "pyproject.toml")}
	case p.SourceRoot != "":
		return []string{filepath.FromSlash(p.SourceRoot)}
	}
	out := make([]string, len(p.Files))
	for i, f := range p.Files {
		out[i] = filepath.FromSlash(f)
	}
	return out
}

// checkPath gives a missing or unreadable path its one-line error before
// any work starts, and returns its stat otherwise.
func checkPath(p string) (fs.FileInfo, error) {
	fi, err := os.Stat(p)
	switch {
	case err == nil:
		return fi, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, &exitErr{code: exitError, msg: fmt.Sprintf("lint: %q does not exist; give a Gaia package directory, a Python file or a directory holding packages", p)}
	case errors.Is(err, fs.ErrPermission):
		return nil, &exitErr{code: exitError, msg: fmt.Sprintf("lint: cannot read %q: permission denied", p)}
	}
	return nil, &exitErr{code: exitError, msg: fmt.Sprintf("lint: cannot read %q: %v", p, err)}
}

// tuneGC lets the collector run at 5x the live heap instead of 2x for a
// lint run, unless the user set GOGC: lint allocates mostly short-lived
// per-package models over a small live heap, so the default percent spends
// ~8% of the run's CPU collecting (issue 15); at 400 the peak RSS still
// stays a few tens of MB on the benchmark corpora (make bench reports it).
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
