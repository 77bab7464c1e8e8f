package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// FuzzWrite feeds arbitrary findings and file content to every printer:
// none may fail or panic, text keeps one finding per line, github one
// command per line, json stays valid JSON, and sarif passes the official
// SARIF 2.1.0 schema (so regions keep lines and columns ≥ 1).
func FuzzWrite(f *testing.F) {
	f.Add("src/p.py", "infer(0.85)\n", "GAIA011", "off-grade", 1, 1, 1, 12, false, true)
	f.Add("a b/é.py", "x = \"é\"; infer()\r\n", "NULLIUS991", "a\nb", 1, 9, 1, 4, true, false)
	f.Add("../out.json", "", "MATCH001", "100%,:", 0, 0, 0, 0, false, false)
	f.Add("/abs/x.py", "\xff\xfe", "GAIA000", "", 3, 99, 2, 1, true, true)
	sch := sarifValidator(f)
	f.Fuzz(func(t *testing.T, path, content, code, msg string, line, col, endLine, endCol int, suppressed, warn bool) {
		sev := diag.Error
		if warn {
			sev = diag.Warning
		}
		d := diag.Diagnostic{Code: code, Severity: sev, Path: path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol, Message: msg, Suppressed: suppressed}
		meta := Meta{ShowSuppressed: true, WorkDir: "/w", SrcRoot: "/w", ReadFile: func(string) ([]byte, error) { return []byte(content), nil }}
		for _, format := range Formats() {
			var buf bytes.Buffer
			if err := Write(&buf, format, []diag.Diagnostic{d, d}, meta); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
			out := buf.String()
			switch format {
			case "text", "github":
				for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if format == "github" && !strings.HasPrefix(l, "::") {
						t.Fatalf("github line %q is not a workflow command", l)
					}
				}
				if format == "text" && strings.Count(out, "\n") != 2 {
					t.Fatalf("text printed %d lines for one finding:\n%s", strings.Count(out, "\n"), out)
				}
			case "json":
				if !json.Valid(buf.Bytes()) {
					t.Fatalf("invalid json:\n%s", out)
				}
			case "sarif":
				var doc sarifDoc
				if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
					t.Fatalf("invalid sarif json: %v", err)
				}
				if err := validateSARIF(t, sch, buf.Bytes()); err != nil {
					t.Fatalf("sarif fails the schema: %v\n%s", err, out)
				}
				for _, r := range doc.Runs[0].Results {
					if reg := r.Locations[0].PhysicalLocation.Region; reg != nil {
						if reg.StartLine < 1 || reg.StartColumn < 0 || reg.EndLine < 0 || reg.EndColumn < 0 {
							t.Fatalf("region out of range: %+v", reg)
						}
					}
				}
			}
		}
	})
}
