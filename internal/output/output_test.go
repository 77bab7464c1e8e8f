package output

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// The test rules live in the NULLIUS9xx range, which no real rule uses, so
// golden files do not change when colleagues add rules... except that the
// SARIF rules[] lists the whole registry, which in this test binary holds
// only these two.
var (
	testErrorRule = diag.Register(diag.Rule{Code: "NULLIUS991", Name: "test-error-rule", Severity: diag.Error,
		Title: "a test rule that reports errors", Text: "Reports an error so printers can be tested; <pkg>/<import_name>/ stays visible.",
		Bad: "infer(p_e_given_h=0.85)", Good: "infer(p_e_given_h=0.9)", Since: "0.1.0", Origin: "nullius"})
	testWarningRule = diag.Register(diag.Rule{Code: "NULLIUS992", Name: "test-warning-rule", Severity: diag.Warning,
		Title: "a test rule that reports warnings", Text: "Reports a warning.\nOn two lines.",
		Bad: "x = ```fenced```", Good: "y", Since: "0.1.0", Origin: "reference"})
)

func TestParseTargets(t *testing.T) {
	tests := []struct {
		spec    string
		want    []Target
		wantErr string
	}{
		{spec: "text", want: []Target{{"text", ""}}},
		{spec: "text,sarif:out.sarif", want: []Target{{"text", ""}, {"sarif", "out.sarif"}}},
		{spec: "json:-", want: []Target{{"json", ""}}},
		{spec: "sarif:a.sarif,json:b.json,github", want: []Target{{"sarif", "a.sarif"}, {"json", "b.json"}, {"github", ""}}},
		{spec: "text,,json:x", want: []Target{{"text", ""}, {"json", "x"}}},
		{spec: "xml", wantErr: `unknown format "xml"; use one of text, json, sarif, github`},
		{spec: "", wantErr: "no output format given"},
		{spec: " , ", wantErr: "no output format given"},
		{spec: "text,json", wantErr: `sends more than one format to stdout`},
		{spec: "text,json:-", wantErr: `sends more than one format to stdout`},
		{spec: "sarif:", wantErr: `empty file name after ':'`},
		{spec: "json:a,sarif:a", wantErr: `file "a" is named by two formats`},
	}
	for _, tt := range tests {
		got, err := ParseTargets(tt.spec)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseTargets(%q) error = %v, want it to contain %q", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseTargets(%q) = %v, %v; want %v", tt.spec, got, err, tt.want)
		}
	}
}

func FuzzParseTargets(f *testing.F) {
	for _, s := range []string{"text", "text,sarif:out.sarif", "json:-", "a:b:c", ",,", "github,json:x,sarif:y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		ts, err := ParseTargets(spec)
		if err != nil {
			if len(ts) != 0 {
				t.Fatalf("targets %v returned with error %v", ts, err)
			}
			return
		}
		stdout := 0
		for _, tg := range ts {
			if !slices.Contains(Formats(), tg.Format) {
				t.Fatalf("unknown format %q accepted", tg.Format)
			}
			if tg.Path == "" {
				stdout++
			}
		}
		if len(ts) == 0 || stdout > 1 {
			t.Fatalf("ParseTargets(%q) = %v", spec, ts)
		}
	})
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, "xml", nil, Meta{})
	if err == nil || !strings.Contains(err.Error(), `unknown format "xml"`) {
		t.Fatalf("Write(xml) error = %v", err)
	}
}

// TestWriteDoesNotReorderCaller pins that printers sort a copy: callers
// may reuse their slice.
func TestWriteDoesNotReorderCaller(t *testing.T) {
	ds := []diag.Diagnostic{{Code: "NULLIUS991", Path: "b.py", Line: 1}, {Code: "NULLIUS991", Path: "a.py", Line: 1}}
	for _, f := range Formats() {
		if err := Write(&bytes.Buffer{}, f, ds, Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if ds[0].Path != "b.py" {
		t.Fatalf("Write reordered the caller's slice")
	}
}

func TestSummarize(t *testing.T) {
	ds := []diag.Diagnostic{
		{Severity: diag.Error}, {Severity: diag.Error, Suppressed: true},
		{Severity: diag.Warning}, {Severity: diag.Warning}, {Severity: diag.Warning, Suppressed: true},
	}
	ds[0].Path, ds[1].Path, ds[2].Path, ds[3].Path = "a.py", "b.py", "a.py", "c.py"
	got := Summarize(ds, 7)
	want := Summary{Errors: 1, Warnings: 2, Suppressed: 2, Files: 7, WithFindings: 2}
	if got != want {
		t.Fatalf("Summarize = %+v, want %+v", got, want)
	}
	if s := got.String(); s != "1 error, 2 warnings in 2 of 7 files (2 suppressed)" {
		t.Errorf("Summary.String() = %q", s)
	}
}

// sample is a small run over two files with every kind of finding.
func sample() []diag.Diagnostic {
	return []diag.Diagnostic{
		{Code: "NULLIUS991", Name: "test-error-rule", Severity: diag.Error, Path: "src/pkg/__init__.py",
			Line: 3, Column: 11, EndLine: 3, EndColumn: 22, Message: `infer uses off-grade pair (0.85, 0.15); allowed grades are (0.75, 0.25), (0.9, 0.09), (0.9, 0.03)`,
			Fixes: []diag.Fix{{Message: "Use the substantial grade", Edits: []diag.Edit{{Start: 52, End: 56, NewText: "0.9"}, {Start: 56, End: 56, NewText: ", 0.09"}}}}},
		{Code: "NULLIUS992", Name: "test-warning-rule", Severity: diag.Warning, Path: "src/pkg/__init__.py",
			Line: 5, Column: 1, EndLine: 7, EndColumn: 2, Message: "confirm the update target: hypothesis is not a plain claim variable"},
		{Code: "NULLIUS991", Name: "test-error-rule", Severity: diag.Error, Path: "src/pkg/__init__.py",
			Line: 9, Column: 1, Message: "suppressed but still reported", Suppressed: true},
		{Code: "NULLIUS991", Name: "test-error-rule", Severity: diag.Error, Path: "match.json",
			Line: 2, Column: 12, Pointer: "/winner", Message: `winner "c" is not one of the pair; use "a" or "b"`},
	}
}

// sampleFiles is the content sample() points into; line 3 has a two-byte
// character before the flagged column.
var sampleFiles = map[string]string{
	"src/pkg/__init__.py": "from gaia.engine.lang import infer\n\nx = \"é\"; infer(0.85)\n\ninfer(\n  hypothesis=graph['sub'],\n)\n\ninfer(0.1)  # nullius: ignore[NULLIUS991] testing\n",
	"match.json":          "{\n  \"winner\": \"c\"\n}\n",
}

func readSample(path string) ([]byte, error) {
	if s, ok := sampleFiles[path]; ok {
		return []byte(s), nil
	}
	return nil, os.ErrNotExist
}
