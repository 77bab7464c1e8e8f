package absorb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
)

// realChecks runs the real discipline scan, so the appended block is proven
// to lint clean by the rules themselves, not by a stub.
func realChecks(t *testing.T) Checks {
	return Checks{
		ValidateArtifact: parseArtifact,
		Lint: func(pkg string) ([]diag.Diagnostic, error) {
			res, err := analyzers.Lint([]string{pkg}, analyzers.Options{})
			if err != nil {
				return nil, err
			}
			for _, d := range res.Diagnostics {
				t.Logf("%s", d.String())
			}
			return res.Diagnostics, nil
		},
		Module: func(pkg string) (string, error) {
			return filepath.Join(pkg, "src", strings.TrimSuffix(filepath.Base(pkg), "-gaia"), "__init__.py"), nil
		},
	}
}

// TestBlockLintsCleanWithRealLinter: every outcome, with an artifact path
// full of characters a Python literal must escape, leaves both packages
// without any finding at all (no error, no review flag).
func TestBlockLintsCleanWithRealLinter(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "absorb", "idea_one.py"))
	if err != nil {
		t.Fatal(err)
	}
	for name, votes := range map[string][]string{"unanimous": {"a", "a", "tie"}, "split": {"b", "a", "b"}, "w28": {"a", "tie", "tie"}} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			os.Mkdir(filepath.Join(root, ".nullius"), 0o755)
			var pkgs []string
			for _, slug := range []string{"one", "two"} {
				pkg := filepath.Join(root, "graphs", slug+"-gaia")
				os.MkdirAll(filepath.Join(pkg, "src", slug), 0o755)
				os.WriteFile(filepath.Join(pkg, "pyproject.toml"), []byte("[project]\nname = \""+slug+"-gaia\"\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n\n[tool.nullius]\ncampaign-id = \"cccccccc\"\nnode-id = \""+map[string]string{"one": "aaaaaaaa", "two": "bbbbbbbb"}[slug]+"\"\n"), 0o644)
				os.WriteFile(filepath.Join(pkg, "src", slug, "__init__.py"), src, 0o644)
				pkgs = append(pkgs, pkg)
			}
			winner := "a"
			if name == "split" {
				winner = "b"
			}
			art := filepath.Join(root, "campaign \"q\" \\ é\ttab", "match-mmmmmmmm.json")
			os.MkdirAll(filepath.Dir(art), 0o755)
			os.WriteFile(art, []byte(artifact(votes, winner, false)), 0o644)
			res, err := Absorb(Options{Artifact: art, APackage: pkgs[0], BPackage: pkgs[1]}, realChecks(t))
			if err != nil {
				t.Fatalf("absorb: %v", err)
			}
			for _, pkg := range pkgs {
				lr, err := analyzers.Lint([]string{pkg}, analyzers.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if len(lr.Diagnostics) != 0 {
					t.Errorf("%s has findings after absorbing: %v", pkg, lr.Diagnostics)
				}
			}
			mod, _ := os.ReadFile(res.Edited[0])
			if !strings.Contains(string(mod), `at campaign \"q\" \\ é\ttab/match-mmmmmmmm.json"`) {
				t.Errorf("anchor path not escaped as expected:\n%s", mod)
			}
		})
	}
}
