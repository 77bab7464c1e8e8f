package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/golden"
)

func github(t *testing.T, ds []diag.Diagnostic, meta Meta) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "github", ds, meta); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGitHubLiteral(t *testing.T) {
	tests := []struct {
		name string
		d    diag.Diagnostic
		meta Meta
		want string
	}{
		{"one-line range",
			diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "src/p/__init__.py", Line: 12, Column: 5, EndLine: 12, EndColumn: 9, Message: "off-grade pair (0.8, 0.1)"},
			Meta{}, "::error file=src/p/__init__.py,line=12,col=5,endColumn=9,title=GAIA011::off-grade pair (0.8, 0.1)\n"},
		{"multi-line range drops the columns GitHub ignores",
			diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "a.py", Line: 12, Column: 5, EndLine: 14, EndColumn: 6, Message: "m"},
			Meta{}, "::error file=a.py,line=12,endLine=14,title=GAIA011::m\n"},
		{"warning",
			diag.Diagnostic{Code: "GAIA901", Severity: diag.Warning, Path: "a.py", Line: 1, Column: 1, Message: "m"},
			Meta{}, "::warning file=a.py,line=1,col=1,title=GAIA901::m\n"},
		{"file-level finding",
			diag.Diagnostic{Code: "GAIA000", Severity: diag.Error, Path: "pyproject.toml", Message: "m"},
			Meta{}, "::error file=pyproject.toml,title=GAIA000::m\n"},
		{"toolkit escaping of data and properties",
			diag.Diagnostic{Code: "GAIA032", Severity: diag.Error, Path: "dir,1/a:b%.py", Line: 2, Column: 3, Message: "100% \"x\"\r\nnext: a,b"},
			Meta{}, "::error file=dir%2C1/a%3Ab%25.py,line=2,col=3,title=GAIA032::100%25 \"x\"%0D%0Anext: a,b\n"},
		{"suppressed is hidden",
			diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "a.py", Line: 1, Message: "m", Suppressed: true},
			Meta{}, ""},
		{"suppressed shown as a notice",
			diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "a.py", Line: 1, Message: "m", Suppressed: true},
			Meta{ShowSuppressed: true}, "::notice file=a.py,line=1,title=GAIA011::[suppressed] m\n"},
		{"no path, no file property",
			diag.Diagnostic{Code: "GAIA000", Severity: diag.Error, Message: "m"},
			Meta{}, "::error title=GAIA000::m\n"},
		{"paths are made repository-relative",
			diag.Diagnostic{Code: "GAIA000", Severity: diag.Error, Path: "p/x.py", Line: 1, Message: "m"},
			Meta{WorkDir: "/repo/sub", SrcRoot: "/repo"}, "::error file=sub/p/x.py,line=1,title=GAIA000::m\n"},
		{"a path outside the repository stays as given",
			diag.Diagnostic{Code: "GAIA000", Severity: diag.Error, Path: "../x.py", Line: 1, Message: "m"},
			Meta{WorkDir: "/repo", SrcRoot: "/repo"}, "::error file=../x.py,line=1,title=GAIA000::m\n"},
		{"columns in code points when the file is known",
			sample()[0], Meta{ReadFile: readSample},
			"::error file=src/pkg/__init__.py,line=3,col=10,endColumn=21,title=NULLIUS991::" + sample()[0].Message + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := github(t, []diag.Diagnostic{tt.d}, tt.meta); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestGitHubCapNotice(t *testing.T) {
	var ds []diag.Diagnostic
	for i := 1; i <= annotationCap+1; i++ {
		ds = append(ds, diag.Diagnostic{Code: "GAIA011", Severity: diag.Error, Path: "a.py", Line: i, Message: "m"})
	}
	out := github(t, ds, Meta{})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != annotationCap+2 {
		t.Fatalf("got %d lines, want %d annotations and one notice", len(lines), annotationCap+1)
	}
	if want := "::notice title=nullius::nullius reported 11 errors and 0 warnings; GitHub shows at most 10"; !strings.HasPrefix(lines[len(lines)-1], want) {
		t.Errorf("last line %q, want prefix %q", lines[len(lines)-1], want)
	}
	if strings.Contains(github(t, ds[:annotationCap], Meta{}), "::notice") {
		t.Error("a notice was printed below the cap")
	}
}

func TestGitHubGolden(t *testing.T) {
	golden.Check(t, "testdata/sample.github", []byte(github(t, sample(), Meta{ReadFile: readSample})))
}
