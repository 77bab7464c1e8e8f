package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The distribution files quote nullius command lines; these tests hold
// them to what the CLI accepts, so a renamed flag breaks here, not in a
// user's pre-commit run or CI.

// checkLintArgs parses a `nullius lint ...` command line with the real
// lint command's flags and checks the output flags.
func checkLintArgs(t *testing.T, where, line string) {
	t.Helper()
	fields := strings.Fields(line)
	if len(fields) < 2 || fields[0] != "nullius" || fields[1] != "lint" {
		t.Errorf("%s: %q is not a nullius lint command", where, line)
		return
	}
	a := &app{stdout: &strings.Builder{}, stderr: &strings.Builder{}, getenv: os.Getenv}
	cmd := a.lintCmd()
	if err := cmd.ParseFlags(fields[2:]); err != nil {
		t.Errorf("%s: %q: %v", where, line, err)
		return
	}
	format, _ := cmd.Flags().GetString("format")
	colorFlag, _ := cmd.Flags().GetString("color")
	if err := (&reportFlags{format: format, color: colorFlag}).check(); err != nil {
		t.Errorf("%s: %q: %v", where, line, err)
	}
}

func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	entries := regexp.MustCompile(`(?m)^\s+entry:\s*(.+)$`).FindAllStringSubmatch(s, -1)
	if len(entries) != 2 {
		t.Fatalf("want 2 hooks (system and golang), found %d entries", len(entries))
	}
	for _, e := range entries {
		checkLintArgs(t, ".pre-commit-hooks.yaml", e[1])
	}
	for _, want := range []string{"language: system", "language: golang"} {
		if !strings.Contains(s, want) {
			t.Errorf(".pre-commit-hooks.yaml has no %q hook", want)
		}
	}
	// nullius lint works on whole packages: files must not be passed
	// piecemeal or split across parallel runs.
	for _, want := range []string{"pass_filenames: false", "require_serial: true", "types_or: [python, json]"} {
		if n := len(regexp.MustCompile(`(?m)^\s+`+regexp.QuoteMeta(want)+`$`).FindAllString(s, -1)); n != 2 {
			t.Errorf(".pre-commit-hooks.yaml: %q appears %d times, want once per hook", want, n)
		}
	}
}

func TestGitHubActionsExample(t *testing.T) {
	data, err := os.ReadFile("../../docs/github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	runs := regexp.MustCompile(`(?m)^\s+run:\s*(nullius .+)$`).FindAllStringSubmatch(s, -1)
	if len(runs) == 0 {
		t.Fatal("docs/github-actions.yml runs no nullius command")
	}
	for _, r := range runs {
		checkLintArgs(t, "docs/github-actions.yml", r[1])
	}
	for _, want := range []string{"sarif:nullius.sarif", "--format github", "if: always() && hashFiles('nullius.sarif') != ''", "upload-sarif", "security-events: write"} {
		if !strings.Contains(s, want) {
			t.Errorf("docs/github-actions.yml lacks %q", want)
		}
	}
}
