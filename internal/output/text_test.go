package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/golden"
)

func text(t *testing.T, ds []diag.Diagnostic, meta Meta) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "text", ds, meta); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestTextLiteral(t *testing.T) {
	e := diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "p.py", Line: 12, Column: 5, Message: "infer uses off-grade pair (0.8, 0.1)"}
	w := diag.Diagnostic{Code: "GAIA901", Severity: diag.Warning, Path: "p.py", Line: 20, Column: 1, Message: "confirm the update target"}
	s := diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "p.py", Line: 30, Column: 2, Message: "hidden", Suppressed: true}
	tests := []struct {
		name string
		ds   []diag.Diagnostic
		meta Meta
		want string
	}{
		{"clean run prints nothing", nil, Meta{Files: 3}, ""},
		{"error", []diag.Diagnostic{e}, Meta{Files: 1},
			"p.py:12:5: GAIA011 infer uses off-grade pair (0.8, 0.1)\n1 error, 0 warnings in 1 file\n"},
		{"warning carries its severity word", []diag.Diagnostic{w}, Meta{Files: 2},
			"p.py:20:1: GAIA901 [warning] confirm the update target\n0 errors, 1 warning in 1 of 2 files\n"},
		// "in N files" counts the files the findings are in (issue 16).
		{"five errors in one of two files", []diag.Diagnostic{e, {Code: "GAIA011", Severity: diag.Error, Path: "p.py", Line: 13, Column: 1, Message: "m"}}, Meta{Files: 2},
			"p.py:12:5: GAIA011 infer uses off-grade pair (0.8, 0.1)\np.py:13:1: GAIA011 m\n2 errors, 0 warnings in 1 of 2 files\n"},
		{"findings in every file examined", []diag.Diagnostic{e, {Code: "GAIA011", Severity: diag.Error, Path: "q.py", Line: 1, Column: 1, Message: "m"}}, Meta{Files: 2},
			"p.py:12:5: GAIA011 infer uses off-grade pair (0.8, 0.1)\nq.py:1:1: GAIA011 m\n2 errors, 0 warnings in 2 files\n"},
		{"suppressed hidden, counted", []diag.Diagnostic{s, e}, Meta{},
			"p.py:12:5: GAIA011 infer uses off-grade pair (0.8, 0.1)\n1 error, 0 warnings in 1 file (1 suppressed; --show-suppressed lists them)\n"},
		// Silence would read as a clean run (issue 16).
		{"only suppressed prints the count", []diag.Diagnostic{s}, Meta{Files: 4},
			"0 errors, 0 warnings (1 suppressed; --show-suppressed lists them)\n"},
		{"suppressed shown", []diag.Diagnostic{s}, Meta{ShowSuppressed: true},
			"p.py:30:2: GAIA011 [suppressed] hidden\n0 errors, 0 warnings (1 suppressed)\n"},
		{"suppressed warning shown", []diag.Diagnostic{{Code: "GAIA901", Severity: diag.Warning, Path: "p.py", Line: 1, Column: 1, Message: "m", Suppressed: true}}, Meta{ShowSuppressed: true},
			"p.py:1:1: GAIA901 [warning, suppressed] m\n0 errors, 0 warnings (1 suppressed)\n"},
		{"unknown line and column are left out", []diag.Diagnostic{
			{Code: "GAIA000", Severity: diag.Error, Path: "pkg/pyproject.toml", Message: "no [project] table"},
			{Code: "GAIA000", Severity: diag.Error, Path: "pkg/x.py", Line: 4, Message: "line only"},
			{Code: "GAIA000", Severity: diag.Error, Message: "no path"},
		}, Meta{},
			"-: GAIA000 no path\npkg/pyproject.toml: GAIA000 no [project] table\npkg/x.py:4: GAIA000 line only\n3 errors, 0 warnings in 2 files\n"},
		{"a message never breaks the line", []diag.Diagnostic{{Code: "GAIA032", Severity: diag.Error, Path: "a.py", Line: 1, Column: 1, Message: "note \"a\nb\r\nc\" has no anchor"}}, Meta{},
			"a.py:1:1: GAIA032 note \"a\\nb\\nc\" has no anchor\n1 error, 0 warnings in 1 file\n"},
		{"sorted and deduplicated", []diag.Diagnostic{w, e, e}, Meta{},
			"p.py:12:5: GAIA011 infer uses off-grade pair (0.8, 0.1)\np.py:20:1: GAIA901 [warning] confirm the update target\n1 error, 1 warning in 1 file\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := text(t, tt.ds, tt.meta); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestTextColor(t *testing.T) {
	ds := []diag.Diagnostic{{Code: "GAIA011", Severity: diag.Error, Path: "p.py", Line: 1, Column: 1, Message: "m"}}
	plain := text(t, ds, Meta{Color: false})
	if strings.Contains(plain, "\x1b[") {
		t.Errorf("Color=false printed escape codes: %q", plain)
	}
	colored := text(t, ds, Meta{Color: true})
	if !strings.Contains(colored, "\x1b[31;1mGAIA011\x1b[0;22m") {
		t.Errorf("Color=true did not colour the code red: %q", colored)
	}
	// Stripping the escapes gives back the plain output, so colour never
	// changes what a reader of the text learns.
	if got := stripANSI(colored); got != plain {
		t.Errorf("coloured text without escapes = %q, want %q", got, plain)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestTextGolden(t *testing.T) {
	golden.Check(t, "testdata/sample.txt", []byte(text(t, sample(), Meta{Files: 2})))
	golden.Check(t, "testdata/sample-show-suppressed.txt", []byte(text(t, sample(), Meta{Files: 2, ShowSuppressed: true})))
}
