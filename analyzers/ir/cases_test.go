package ir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/golden"
)

// TestCases runs every fixtures/ir/cases/<name>.json and compares its
// findings, one `line:col: CODE message` per line, with <name>.want
// (-update records them).
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
			golden.Check(t, strings.TrimSuffix(file, ".json")+".want", []byte(b.String()))
		})
	}
}
