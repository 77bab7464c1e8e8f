package output

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// BenchmarkWrite prints 5,000 findings over 50 files in every format, with
// file content available (the SARIF and github column conversion path).
func BenchmarkWrite(b *testing.B) {
	content := []byte(strings.Repeat("x = \"é\"; infer(e, hypothesis=h, p_e_given_h=0.85, p_e_given_not_h=0.15)\n", 200))
	var ds []diag.Diagnostic
	for i := range 5000 {
		ds = append(ds, diag.Diagnostic{Code: "NULLIUS991", Name: "test-error-rule", Severity: diag.Error,
			Path: fmt.Sprintf("src/p/m%02d.py", i%50), Line: i%200 + 1, Column: 10, EndLine: i%200 + 1, EndColumn: 40,
			Message: "infer uses off-grade pair (0.85, 0.15)"})
	}
	meta := Meta{Command: "lint", Version: func() string { return "0.1.0" }, WorkDir: "/repo", SrcRoot: "/repo",
		ReadFile: func(string) ([]byte, error) { return content, nil }}
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, format, ds, meta); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
