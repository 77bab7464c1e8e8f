package analyzers_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
)

// fixtureRoot holds one complete Gaia package per directory; each states
// its own expectations with `# want` comments.
const fixtureRoot = "../fixtures/lint"

// TestFixtures runs every analyzer (with suppressions, as Lint does) over
// every fixture package.
func TestFixtures(t *testing.T) {
	entries, err := os.ReadDir(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			ruletest.Run(t, filepath.Join(fixtureRoot, e.Name()))
		})
	}
	if n == 0 {
		t.Fatal("no fixture packages under " + fixtureRoot)
	}
}
