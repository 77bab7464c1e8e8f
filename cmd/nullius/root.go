package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// Exit codes, one rule for every command and format. When several apply,
// the highest wins.
const (
	exitOK       = 0 // no error-severity finding
	exitFindings = 1 // error findings (or a refused gate)
	exitError    = 2 // usage, I/O or internal error
)

// exitErr carries an exit status up from deep code without os.Exit. An
// empty msg means the command already printed what the user needs.
type exitErr struct {
	code int
	msg  string
}

func (e *exitErr) Error() string { return e.msg }

// usageErrorf returns an exit-2 error with a one-line message.
func usageErrorf(format string, args ...any) error {
	return &exitErr{code: exitError, msg: fmt.Sprintf(format, args...)}
}

// app holds the process streams and environment so the whole CLI runs
// in-process in tests.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// wd is the working directory, asked of the OS once per run (os.Getwd
	// stats "." and $PWD on every call); wdAsked says it was.
	wd      string
	wdErr   error
	wdAsked bool
}

// workDir is os.Getwd, asked once per run: nothing nullius runs changes
// its working directory.
func (a *app) workDir() (string, error) {
	if !a.wdAsked {
		a.wd, a.wdErr = getwd()
		a.wdAsked = true
	}
	return a.wd, a.wdErr
}

// getwd is os.Getwd; a test counts the calls.
var getwd = os.Getwd

// abs is filepath.Abs(p) against workDir.
func (a *app) abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := a.workDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, p), nil
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "nullius: internal error: %v (please report this)\n", r)
			code = exitError
		}
	}()
	in := watchInterrupts(stderr)
	defer in.stop()
	root := a.rootCmd(args...)
	markBudgeted(root)
	var liftBudget func()
	defer func() {
		if liftBudget != nil {
			liftBudget()
		}
	}()
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) {
		in.beAware(cmd.Annotations[interruptible] != "")
		if hasBudget(cmd) {
			liftBudget = budgetMemory()
		}
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	var err error
	if cmd, rest, ok := plainInvocation(root, args); ok && plainDispatch {
		err = runPlain(root, cmd, rest, in.ctx)
	} else {
		err = root.ExecuteContext(in.ctx)
	}
	if code, ok := in.result(errMsg(err)); ok {
		return code
	}
	if err == nil {
		return exitOK
	}
	var ee *exitErr
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "nullius: "+oneLineError(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "nullius: "+oneLineError(err.Error()))
	return exitError
}

// plainCommands are the commands whose plain invocation (no flag, no
// "--": every word after the command's name is an argument) runs without
// cobra's dispatch: a pre-commit hook's 'nullius lint FILE...' and
// 'nullius version' are timed against an empty binary's start (issue 15),
// and Execute spends ~30 us of it building the shell-completion command,
// the help command and flag, and validating flag requirements that a
// plain invocation cannot break. TestPlainInvocationIsCobras holds each
// plain invocation to what Execute does with it.
var plainCommands = [...]string{"lint", "version"}

// plainDispatch is false in the test that runs plain invocations through
// Execute too.
var plainDispatch = true

// plainInvocation returns the command args names and its arguments when
// args is a plain invocation of one of plainCommands, in a tree built for
// that command alone (rootCmd with args), which has none of the hooks a
// plain run leaves out.
func plainInvocation(root *cobra.Command, args []string) (*cobra.Command, []string, bool) {
	if len(args) == 0 || !slices.Contains(plainCommands[:], args[0]) {
		return nil, nil, false
	}
	rest := args[1:]
	for _, w := range rest {
		if strings.HasPrefix(w, "-") {
			return nil, nil, false
		}
	}
	cmds := root.Commands()
	if len(cmds) != 1 || cmds[0].Name() != args[0] {
		return nil, nil, false
	}
	cmd := cmds[0]
	if cmd.HasSubCommands() || cmd.RunE == nil || cmd.Deprecated != "" || cmd.DisableFlagParsing ||
		cmd.PreRun != nil || cmd.PreRunE != nil || cmd.PostRun != nil || cmd.PostRunE != nil ||
		cmd.PersistentPreRun != nil || cmd.PersistentPreRunE != nil || cmd.PersistentPostRun != nil || cmd.PersistentPostRunE != nil ||
		root.PersistentPreRunE != nil || root.PersistentPostRun != nil || root.PersistentPostRunE != nil {
		return nil, nil, false
	}
	return cmd, rest, true
}

// runPlain runs a plain invocation of cmd as Execute does: the arguments
// validated, the root's PersistentPreRun, then RunE, under ctx. The flags
// keep their defaults, since none was given.
func runPlain(root, cmd *cobra.Command, args []string, ctx context.Context) error {
	cmd.SetContext(ctx)
	if cmd.Args != nil {
		if err := cmd.Args(cmd, args); err != nil {
			return err
		}
	}
	root.PersistentPreRun(cmd, args)
	return cmd.RunE(cmd, args)
}

// errMsg is what an error says to the user ("" for none or for an exit
// status whose message was already printed).
func errMsg(err error) string {
	var ee *exitErr
	if err == nil || (errors.As(err, &ee) && ee.msg == "") {
		return ""
	}
	if ee != nil {
		return ee.msg
	}
	return err.Error()
}

// oneLineError folds cobra's multi-line errors (an unknown command with
// "Did you mean this?" suggestions) into the one line every nullius error
// is.
func oneLineError(msg string) string {
	first, rest, _ := strings.Cut(strings.ReplaceAll(msg, "\r", ""), "\n")
	var sugg []string
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && l != "Did you mean this?" {
			sugg = append(sugg, fmt.Sprintf("%q", l))
		}
	}
	if strings.HasPrefix(first, "unknown command") {
		if len(sugg) > 0 {
			first += " (did you mean " + strings.Join(sugg, " or ") + "?)"
		}
		return first + "; run 'nullius --help' to list the commands"
	}
	if len(sugg) > 0 {
		first += ": " + strings.Join(sugg, "; ")
	}
	return first
}

// topCommands are the root's subcommands, in the order they are added,
// with the names they are called by.
var topCommands = [...]struct {
	name  string
	build func(*app) *cobra.Command
}{
	{"init", (*app).initCmd},
	{"lint", (*app).lintCmd},
	{"rules", (*app).rulesCmd},
	{"explain", (*app).explainCmd},
	{"version", (*app).versionCmd},
	{"validate", (*app).validateCmd},
	{"match", (*app).matchCmd},
	{"extract", (*app).extractCmd},
	{"scaffold", (*app).scaffoldCmd},
	{"bind", (*app).bindCmd},
	{"gate", (*app).gateCmd},
	{"writeback", (*app).writebackCmd},
	{"report", (*app).reportCmd},
	{"render", (*app).renderCmd},
	{"recover", (*app).recoverCmd},
	{"demo", (*app).demoCmd},
	{"server", (*app).serverCmd},
	{"limits", func(*app) *cobra.Command { return limitsCmd() }},
}

// topCommand is the builder of the command args[0] names exactly, if any.
func topCommand(args []string) (func(*app) *cobra.Command, bool) {
	if len(args) == 0 {
		return nil, false
	}
	for _, t := range topCommands {
		if t.name == args[0] {
			return t.build, true
		}
	}
	return nil, false
}

// rootCmd builds the command tree for args: with only the command args
// names when they name one, else (no args, as the tests build it) whole.
func (a *app) rootCmd(args ...string) *cobra.Command {
	root := &cobra.Command{
		Use:   "nullius",
		Short: "Lint and validate Gaia research repositories",
		Long: `nullius is the gate for research repositories that keep beliefs about ideas as
Gaia argument graphs and compare ideas in judged pairwise matches.

It proves the discipline holds (every probability one of three literal Jeffreys
grades, every note ending with an anchor to its evidence) before a posterior is
extracted, before a panel runs, and before anything is written to the idea store.

Output: --format text (default), json, sarif or github; several at once with
files, e.g. --format text,sarif:nullius.sarif.

Exit codes: 0 no error finding, 1 error findings, 2 usage, I/O or internal error.`,
		Example: `  nullius lint                 # check every Gaia package under the current directory
  nullius explain GAIA011      # what a finding means and how to fix it
  nullius help limits          # which files nullius reads, and how much of each`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.HiddenDefaultCmd = true
	root.SetFlagErrorFunc(flagError)
	// --version prints what 'nullius version' prints.
	root.Flags().BoolP("version", "v", false, "print the nullius version, commit and Go toolchain (as 'nullius version')")
	// Only the command an invocation names is built when args start with
	// one (every command's flags, help and examples cost each process that
	// does not run it); help, completion, a flag or an unknown word get
	// the whole tree, for listings and suggestions.
	if b, ok := topCommand(args); ok {
		root.CompletionOptions.DisableDefaultCmd = true
		root.AddCommand(b(a))
	} else {
		// Only the root parses --version, and only this branch runs the
		// root: the version line (the build info parsed) is not made for
		// every lint.
		root.Version = version()
		root.SetVersionTemplate(versionLine() + "\n")
		for _, t := range topCommands {
			root.AddCommand(t.build(a))
		}
	}
	groupsRefuseUnknownWords(root)
	return root
}

// env reads an environment variable through a.getenv, falling back to the
// process environment for an app built without one (in a test, say).
func (a *app) env(key string) string {
	if a.getenv == nil {
		return os.Getenv(key)
	}
	return a.getenv(key)
}

// reportFlags are the output flags of every command that reports diagnostics.
type reportFlags struct {
	format         string
	color          string
	exitZero       bool
	showSuppressed bool
	// result, when set, is the command's own outcome, carried in the json
	// output after the findings (output.Meta.Result).
	result any
}

func (f *reportFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.format, "format", "text",
		"output formats, comma-separated, each optionally to a file: text, json, sarif, github (e.g. text,sarif:out.sarif); at most one goes to stdout")
	cmd.Flags().StringVar(&f.color, "color", "auto", "colour text output: auto, always or never (auto honours NO_COLOR, FORCE_COLOR and CLICOLOR_FORCE)")
	cmd.Flags().BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when error findings are reported (for reports)")
}

// registerShowSuppressed adds --show-suppressed, for commands whose
// findings can be suppressed inline.
func (f *reportFlags) registerShowSuppressed(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.showSuppressed, "show-suppressed", false,
		"also print suppressed findings in text and github output (json and sarif always carry them)")
}

// check validates the flags before a command does any work, so a typo in
// --format fails at once rather than after a long run.
func (f *reportFlags) check() error {
	if _, err := output.ParseTargets(f.format); err != nil {
		return usageErrorf("%v", err)
	}
	if !slices.Contains([]string{"auto", "always", "never"}, f.color) {
		return usageErrorf("invalid --color %q; use auto, always or never", f.color)
	}
	return nil
}

// readReported reads a file a diagnostic names, for the formatters' column
// conversion and snippets: through the bounded reader with the largest cap
// (the file may be any input, a JSON artifact included), so a FIFO or
// device named by a finding (a FIFO __init__.py's GAIA000) is not waited on.
func readReported(path string) ([]byte, error) { return readlimit.ReadFile(path, readlimit.JSON) }

// report sorts ds, prints it in every requested format, and returns the exit
// error the findings call for (nil when nothing blocks or --exit-zero).
//
// Every output is rendered before anything is written, so a failing printer
// leaves no partial output; stdout (at most one format) is written first,
// then file targets atomically (a reader never sees a half-written report).
// A file that cannot be written is exit 2, whatever the findings. When
// every format went to a file, one summary line goes to stderr.
func (a *app) report(f *reportFlags, command string, ds []diag.Diagnostic, nFiles int) error {
	if err := f.check(); err != nil {
		return err
	}
	targets, _ := output.ParseTargets(f.format)
	ds = diag.SortDedup(slices.Clone(ds))
	meta := output.Meta{
		Command: command, Version: version, Files: nFiles, ShowSuppressed: f.showSuppressed,
		ReadFile: readReported,
		Result:   f.result,
	}
	// Only GitHub annotations and SARIF make paths relative to the
	// repository: the other formats print them as found, so they do not
	// look for it (TestReportDirsOnlyWhereUsed).
	if slices.ContainsFunc(targets, func(t output.Target) bool { return usesDirs(t.Format) }) {
		if wd, err := a.workDir(); err == nil {
			meta.WorkDir, meta.SrcRoot = wd, repoRoot(wd)
		}
	}
	rendered, err := a.render(f, targets, ds, meta)
	if err != nil {
		return err
	}
	files, err := a.writeTargets(targets, rendered)
	if err != nil {
		return err
	}
	// With every report in files, a failing CI step would otherwise say
	// nothing at all: one line on stderr tells what was found and where.
	if s := output.Summarize(ds, nFiles); len(files) == len(targets) && s.Errors+s.Warnings > 0 {
		fmt.Fprintf(a.stderr, "nullius: %s: %s; see %s\n", command, s, strings.Join(files, ", "))
	}
	if diag.HasBlocking(ds) && !f.exitZero {
		return &exitErr{code: exitFindings}
	}
	return nil
}

// usesDirs reports the formats that read output.Meta's WorkDir and
// SrcRoot.
func usesDirs(format string) bool { return format == "github" || format == "sarif" }

// render prints ds for every target into memory.
func (a *app) render(f *reportFlags, targets []output.Target, ds []diag.Diagnostic, meta output.Meta) ([][]byte, error) {
	rendered := make([][]byte, len(targets))
	for i, t := range targets {
		m := meta
		// Colour is for text only, and only where it is read: stdout
		// follows the precedence chain, a file only --color=always.
		if t.Format == "text" {
			if t.Path == "" {
				m.Color = colorEnabled(f.color, a.env, a.stdout)
				color.NoColor = !m.Color // fatih/color's own guess looks at os.Stdout only
			} else {
				m.Color = f.color == "always"
			}
		}
		var buf bytes.Buffer
		if err := output.Write(&buf, t.Format, ds, m); err != nil {
			return nil, &exitErr{code: exitError, msg: fmt.Sprintf("could not render %s output: %v", t.Format, err)}
		}
		rendered[i] = buf.Bytes()
	}
	return rendered, nil
}

// writeTargets writes the stdout target, then each file atomically, and
// returns the files written.
func (a *app) writeTargets(targets []output.Target, rendered [][]byte) ([]string, error) {
	for i, t := range targets {
		if t.Path == "" {
			if _, err := a.stdout.Write(rendered[i]); err != nil {
				return nil, &exitErr{code: exitError, msg: fmt.Sprintf("could not write %s output: %v", t.Format, err)}
			}
		}
	}
	var files []string
	for i, t := range targets {
		if t.Path != "" {
			if err := atomicfile.WriteFile(t.Path, rendered[i], 0o644); err != nil {
				return files, &exitErr{code: exitError, msg: fmt.Sprintf("%s output: %v", t.Format, err)}
			}
			files = append(files, t.Path)
		}
	}
	return files, nil
}

// colorEnabled applies the colour precedence of ecosystem.md §8: --color
// always/never > NO_COLOR (any non-empty value) > FORCE_COLOR or
// CLICOLOR_FORCE (non-empty, not "0") > TERM=dumb or CLICOLOR=0 > whether
// w, the stream actually written, is a terminal.
func colorEnabled(flag string, getenv func(string) string, w io.Writer) bool {
	switch flag {
	case "always":
		return true
	case "never":
		return false
	}
	if getenv("NO_COLOR") != "" {
		return false
	}
	for _, k := range []string{"FORCE_COLOR", "CLICOLOR_FORCE"} {
		if v := getenv(k); v != "" && v != "0" {
			return true
		}
	}
	if getenv("TERM") == "dumb" || getenv("CLICOLOR") == "0" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// repoRoot is the nearest directory at or above dir holding .git (a
// directory, or a file for worktrees and submodules), else dir itself. SARIF
// URIs are relative to it, so they match the paths GitHub knows whatever
// directory nullius ran in.
func repoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
