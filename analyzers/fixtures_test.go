package analyzers_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
	"github.com/nullius-dev/nullius/internal/diag"
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

// TestEveryRuleHasAFixture: each source rule is expected (`# want`) by at
// least one fixture, so no rule ships without an end-to-end case.
func TestEveryRuleHasAFixture(t *testing.T) {
	wantRE := regexp.MustCompile(`"((?:GAIA|NULLIUS)[0-9]{3})`)
	seen := map[string]bool{}
	err := filepath.WalkDir(fixtureRoot, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if _, after, ok := strings.Cut(line, "# want"); ok {
				for _, m := range wantRE.FindAllStringSubmatch(after, -1) {
					seen[m[1]] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every rule of the source scan, and the layout rules of discovery
	// (NULLIUS004, a package that could not be checked at all, has its own
	// tests in lint_test.go).
	codes := []string{"GAIA002", "GAIA003", "GAIA903"}
	owners := []string{"suppress"}
	for _, a := range analyzers.All() {
		owners = append(owners, a.Name)
	}
	for _, r := range diag.Owned(owners...) {
		codes = append(codes, r.Code)
	}
	for _, code := range codes {
		if !seen[code] {
			t.Errorf("no fixture under %s expects %s", fixtureRoot, code)
		}
	}
}
