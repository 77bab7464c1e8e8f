package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
)

// Exit codes, one rule for every command and format.
const (
	exitOK       = 0 // no error-severity finding
	exitFindings = 1 // error findings (or a refused gate)
	exitError    = 2 // usage, I/O or internal error
)

// exitError carries an exit status up from deep code without os.Exit. An
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

// app holds the process streams so the whole CLI runs in-process in tests.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "nullius: internal error: %v (please report this)\n", r)
			code = exitError
		}
	}()
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitErr
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "nullius: "+ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "nullius: "+err.Error())
	return exitError
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "nullius",
		Short: "Lint and validate Gaia research repositories",
		Long: `nullius is the gate for research repositories that keep beliefs about ideas as
Gaia argument graphs and compare ideas in judged pairwise matches.

It proves the discipline holds (every probability one of three literal Jeffreys
grades, every note ending with an anchor to its evidence) before a posterior is
extracted, before a panel runs, and before anything is written to the idea store.

Exit codes: 0 no error finding, 1 error findings, 2 usage, I/O or internal error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.HiddenDefaultCmd = true
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf("%v (see '%s --help')", err, c.CommandPath())
	})
	root.AddCommand(
		a.lintCmd(),
		a.rulesCmd(),
		a.explainCmd(),
		a.versionCmd(),
		a.validateCmd(),
		a.matchCmd(),
		a.extractCmd(),
		a.scaffoldCmd(),
		a.gateCmd(),
		a.writebackCmd(),
		a.reportCmd(),
		a.renderCmd(),
	)
	return root
}

// reportFlags are the output flags of every command that reports diagnostics.
type reportFlags struct {
	format   string
	color    string
	exitZero bool
}

func (f *reportFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.format, "format", "text",
		"output formats, comma-separated, each optionally to a file: text, json, sarif, github (e.g. text,sarif:out.sarif)")
	cmd.Flags().StringVar(&f.color, "color", "auto", "colour text output: auto, always or never (auto honours NO_COLOR and FORCE_COLOR)")
	cmd.Flags().BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when error findings are reported (for reports)")
}

// report sorts ds, prints it in every requested format, and returns the exit
// error the findings call for (nil when nothing blocks or --exit-zero).
func (a *app) report(f *reportFlags, command string, ds []diag.Diagnostic, files int) error {
	targets, err := output.ParseTargets(f.format)
	if err != nil {
		return usageErrorf("%v", err)
	}
	ds = diag.SortDedup(ds)
	meta := output.Meta{Command: command, Version: version(), Files: files}
	for _, t := range targets {
		m := meta
		if t.Path == "" {
			m.Color = t.Format == "text" && useColor(f.color, a.stdout)
			if err := output.Write(a.stdout, t.Format, ds, m); err != nil {
				return &exitErr{code: exitError, msg: fmt.Sprintf("could not write %s output: %v", t.Format, err)}
			}
			continue
		}
		var buf bytes.Buffer
		if err := output.Write(&buf, t.Format, ds, m); err != nil {
			return &exitErr{code: exitError, msg: fmt.Sprintf("could not write %s output: %v", t.Format, err)}
		}
		if err := atomicfile.WriteFile(t.Path, buf.Bytes(), 0o644); err != nil {
			return &exitErr{code: exitError, msg: err.Error()}
		}
	}
	if diag.HasBlocking(ds) && !f.exitZero {
		return &exitErr{code: exitFindings}
	}
	return nil
}

// useColor applies the colour precedence: flag > NO_COLOR > FORCE_COLOR >
// is-a-terminal.
func useColor(flag string, w io.Writer) bool {
	switch flag {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	if v := os.Getenv("FORCE_COLOR"); v != "" && v != "0" {
		return true
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}
