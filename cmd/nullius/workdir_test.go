package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
)

// A lint run asks the OS for the working directory once (os.Getwd stats
// "." and $PWD every time): the recovery's absolute paths, the engine and
// the report share the answer; text and json output, which print paths
// as found, never look for the repository root (TestReportDirsOnlyWhereUsed).
func TestLintAsksWorkDirOnce(t *testing.T) {
	calls := 0
	getwd = func() (string, error) { calls++; return os.Getwd() }
	defer func() { getwd = os.Getwd }()
	t.Chdir("../..")
	for _, format := range []string{"text", "json", "sarif", "github"} {
		calls = 0
		var out, errb bytes.Buffer
		if code := run([]string{"lint", "--format", format, "fixtures/lint/good"}, strings.NewReader(""), &out, &errb); code != exitOK {
			t.Fatalf("lint --format %s: exit %d, %s", format, code, errb.String())
		}
		if calls != 1 {
			t.Errorf("lint --format %s asked for the working directory %d times, want once", format, calls)
		}
	}
}

// Only the formats in usesDirs read Meta.WorkDir and Meta.SrcRoot: every
// other one prints the same bytes without them, so report does not look
// them up for it.
func TestReportDirsOnlyWhereUsed(t *testing.T) {
	ds := []diag.Diagnostic{
		{Code: "GAIA011", Name: "e", Severity: diag.Error, Path: "src/a.py", Line: 1, Column: 1, Message: "an error"},
		{Code: "GAIA901", Name: "w", Severity: diag.Warning, Path: filepath.FromSlash("/repo/pkg/src/b.py"), Line: 2, Column: 3, Message: "a warning"},
	}
	read := func(string) ([]byte, error) { return []byte("x = 1\ny = 2\n"), nil }
	with := output.Meta{Command: "lint", Files: 2, ReadFile: read, WorkDir: filepath.FromSlash("/repo/pkg"), SrcRoot: filepath.FromSlash("/repo")}
	without := with
	without.WorkDir, without.SrcRoot = "", ""
	for _, f := range output.Formats() {
		var a, b bytes.Buffer
		if err := output.Write(&a, f, ds, with); err != nil {
			t.Fatal(err)
		}
		if err := output.Write(&b, f, ds, without); err != nil {
			t.Fatal(err)
		}
		if same := bytes.Equal(a.Bytes(), b.Bytes()); same == usesDirs(f) {
			t.Errorf("%s output with and without the directories: same %v, but usesDirs says %v", f, same, usesDirs(f))
		}
	}
}
