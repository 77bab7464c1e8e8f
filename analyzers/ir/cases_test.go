package ir

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite fixtures/ir/cases/*.want from the current output")

// TestCases runs every fixtures/ir/cases/<name>.json and compares its
// findings, one `line:col: CODE message` per line, with <name>.want.
func TestCases(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixturesDir(t), "cases", "*.json"))
	if len(files) == 0 {
		t.Fatal("found no cases")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ds, _ := run(t, src)
			var b strings.Builder
			for _, d := range ds {
				fmt.Fprintf(&b, "%d:%d: %s %s\n", d.Line, d.Column, d.Code, d.Message)
			}
			wantFile := strings.TrimSuffix(file, ".json") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Fatalf("%s: got\n%s\nwant\n%s", name, b.String(), want)
			}
		})
	}
}
