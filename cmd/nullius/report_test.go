package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"

	"github.com/nullius-dev/nullius/internal/diag"
)

func reportFixture() []diag.Diagnostic {
	return []diag.Diagnostic{
		{Code: "GAIA901", Name: "w", Severity: diag.Warning, Path: "b.py", Line: 2, Column: 1, Message: "a warning"},
		{Code: "GAIA011", Name: "e", Severity: diag.Error, Path: "a.py", Line: 1, Column: 1, Message: "an error"},
	}
}

// runReport calls a.report with the given flags and returns stdout, the
// exit code the error maps to and its message.
func runReport(t *testing.T, f reportFlags, ds []diag.Diagnostic, env map[string]string) (string, int, string) {
	t.Helper()
	var out bytes.Buffer
	a := &app{stdout: &out, stderr: &bytes.Buffer{}, getenv: func(k string) string { return env[k] }}
	if f.color == "" {
		f.color = "auto"
	}
	err := a.report(&f, "lint", ds, 2)
	if err == nil {
		return out.String(), exitOK, ""
	}
	var ee *exitErr
	if !errors.As(err, &ee) {
		t.Fatalf("report returned %T %v, want *exitErr", err, err)
	}
	return out.String(), ee.code, ee.msg
}

func TestReportExitCodes(t *testing.T) {
	warnOnly := reportFixture()[:1]
	suppressedErr := []diag.Diagnostic{{Code: "GAIA011", Severity: diag.Error, Path: "a.py", Line: 1, Message: "m", Suppressed: true}}
	tests := []struct {
		name string
		f    reportFlags
		ds   []diag.Diagnostic
		code int
	}{
		{"clean", reportFlags{format: "text"}, nil, exitOK},
		{"warnings never fail", reportFlags{format: "text"}, warnOnly, exitOK},
		{"errors fail", reportFlags{format: "text"}, reportFixture(), exitFindings},
		{"errors fail in every format", reportFlags{format: "sarif"}, reportFixture(), exitFindings},
		{"a suppressed error does not fail lint", reportFlags{format: "json"}, suppressedErr, exitOK},
		{"--exit-zero", reportFlags{format: "text", exitZero: true}, reportFixture(), exitOK},
		{"unknown format", reportFlags{format: "xml"}, nil, exitError},
		{"two formats to stdout", reportFlags{format: "text,json"}, reportFixture(), exitError},
		{"bad --color", reportFlags{format: "text", color: "sometimes"}, nil, exitError},
		{"usage error beats findings", reportFlags{format: "xml"}, reportFixture(), exitError},
	}
	for _, tt := range tests {
		_, code, msg := runReport(t, tt.f, tt.ds, nil)
		if code != tt.code {
			t.Errorf("%s: exit %d (%s), want %d", tt.name, code, msg, tt.code)
		}
	}
}

func TestReportFilesAndStdout(t *testing.T) {
	dir := t.TempDir()
	sarif, js := filepath.Join(dir, "out.sarif"), filepath.Join(dir, "out.json")
	out, code, msg := runReport(t, reportFlags{format: "text,sarif:" + sarif + ",json:" + js}, reportFixture(), nil)
	if code != exitFindings {
		t.Fatalf("exit %d (%s)", code, msg)
	}
	if want := "a.py:1:1: GAIA011 an error\nb.py:2:1: GAIA901 [warning] a warning\n1 error, 1 warning in 2 files\n"; out != want {
		t.Errorf("stdout\n%q\nwant\n%q", out, want)
	}
	for _, p := range []string{sarif, js} {
		data, err := os.ReadFile(p)
		if err != nil || !json.Valid(data) {
			t.Errorf("%s: %v, valid JSON %v", p, err, json.Valid(data))
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// TestReportFileFailure: a file that cannot be written is exit 2 even when
// the findings alone would be exit 1, and an existing report is left whole.
func TestReportFileFailure(t *testing.T) {
	dir := t.TempDir()
	_, code, msg := runReport(t, reportFlags{format: "json:" + filepath.Join(dir, "missing", "out.json")}, reportFixture(), nil)
	if code != exitError || !strings.Contains(msg, "could not write") || strings.Contains(msg, "\n") {
		t.Errorf("exit %d, message %q; want 2 and one line naming the file", code, msg)
	}
}

func TestReportColor(t *testing.T) {
	ds := reportFixture()
	plain, _, _ := runReport(t, reportFlags{format: "text"}, ds, map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"})
	if strings.Contains(plain, "\x1b[") {
		t.Error("NO_COLOR did not win over FORCE_COLOR")
	}
	colored, _, _ := runReport(t, reportFlags{format: "text"}, ds, map[string]string{"FORCE_COLOR": "1"})
	if !strings.Contains(colored, "\x1b[") {
		t.Error("FORCE_COLOR did not colour a pipe")
	}
	for _, format := range []string{"json", "sarif", "github"} {
		out, _, _ := runReport(t, reportFlags{format: format, color: "always"}, ds, nil)
		if strings.Contains(out, "\x1b[") {
			t.Errorf("%s output was coloured", format)
		}
	}
	// A text file gets colour only from --color=always, never from the
	// environment meant for terminals.
	p := filepath.Join(t.TempDir(), "out.txt")
	runReport(t, reportFlags{format: "json,text:" + p}, ds, map[string]string{"FORCE_COLOR": "1"})
	if data, _ := os.ReadFile(p); strings.Contains(string(data), "\x1b[") {
		t.Error("FORCE_COLOR coloured a text file")
	}
}

// TestSARIFWithEveryRuleIsValid renders SARIF with the real registry (every
// rule linked into the binary, with its real texts and examples) and one
// finding per rule, and validates it against the official SARIF 2.1.0
// schema: a rule whose metadata made GitHub refuse the upload fails here.
func TestSARIFWithEveryRuleIsValid(t *testing.T) {
	const id = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
	f, err := os.Open("../../schemas/sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	var ds []diag.Diagnostic
	for i, r := range diag.All() {
		ds = append(ds, r.New("pkg/src/p/__init__.py", i+1, 1, i+1, 5, "finding of %s", r.Code))
	}
	if len(ds) == 0 {
		t.Fatal("no rule registered")
	}
	p := filepath.Join(t.TempDir(), "out.sarif")
	if _, code, msg := runReport(t, reportFlags{format: "sarif:" + p, exitZero: true}, ds, nil); code != exitOK {
		t.Fatalf("exit %d: %s", code, msg)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF with the full registry fails the official schema: %v", err)
	}
}

// TestReportFileOnlySummary: with every format in a file, one line on
// stderr says what was found and where; a clean run stays silent.
func TestReportFileOnlySummary(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		ds   []diag.Diagnostic
		want string
	}{
		{reportFixture(), "nullius: lint: 1 error, 1 warning in 2 files; see " + filepath.Join(dir, "r.json") + "\n"},
		{nil, ""},
	} {
		var out, errw bytes.Buffer
		a := &app{stdout: &out, stderr: &errw}
		a.report(&reportFlags{format: "json:" + filepath.Join(dir, "r.json"), color: "auto"}, "lint", tt.ds, 2)
		if errw.String() != tt.want || out.Len() != 0 {
			t.Errorf("stderr %q, stdout %q; want stderr %q and no stdout", errw.String(), out.String(), tt.want)
		}
	}
	var errw bytes.Buffer
	a := &app{stdout: &bytes.Buffer{}, stderr: &errw}
	a.report(&reportFlags{format: "text,json:" + filepath.Join(dir, "r.json"), color: "auto"}, "lint", reportFixture(), 2)
	if errw.Len() != 0 {
		t.Errorf("a report on stdout also printed %q on stderr", errw.String())
	}
}
