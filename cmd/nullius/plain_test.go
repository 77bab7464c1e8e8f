package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A plain invocation of lint or version (no flag, no "--") is run without
// cobra's Execute (plainInvocation, runPlain): its output, messages and
// exit code are what Execute gives for the same words, and everything
// else still goes through Execute.
func TestPlainInvocationIsCobras(t *testing.T) {
	t.Chdir("../..")
	empty := t.TempDir()
	fifo := filepath.Join(t.TempDir(), "fifo.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	plain := [][]string{
		{"lint", "fixtures/lint/good"},
		{"lint", "fixtures/lint"},
		{"lint", "fixtures/lint/good", "fixtures/lint/good/src/sterile_neutrino/__init__.py"},
		{"lint", "fixtures/lint/good/pyproject.toml"},
		{"lint", "no/such/path"},
		{"lint", ""},
		{"lint", "lint"},
		{"lint", "help"},
		{"lint", empty},
		{"lint", fifo},
		{"lint"},
		{"version"},
		{"version", "extra"},
	}
	for _, args := range plain {
		if _, _, ok := plainInvocation((&app{}).rootCmd(args...), args); !ok {
			t.Errorf("%q is not taken as a plain invocation", args)
		}
		fast := runCaptured(args)
		plainDispatch = false
		slow := runCaptured(args)
		plainDispatch = true
		if fast != slow {
			t.Errorf("%q: plain run gives\n%s\nExecute gives\n%s", args, fast, slow)
		}
	}
	for _, args := range [][]string{
		{"lint", "--format", "json", "fixtures/lint/good"},
		{"lint", "fixtures/lint/good", "-h"},
		{"lint", "--", "fixtures/lint/good"},
		{"lint", "-"},
		{"version", "--help"},
		{"rules"},
		{"help", "lint"},
		{},
	} {
		if _, _, ok := plainInvocation((&app{}).rootCmd(args...), args); ok {
			t.Errorf("%q is taken as a plain invocation", args)
		}
	}
}

// runCaptured runs the CLI in-process and returns its exit code, stdout
// and stderr in one string.
func runCaptured(args []string) string {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
}
