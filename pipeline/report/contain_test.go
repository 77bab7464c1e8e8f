package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 7: a link to a file that exists inside the project but is a
// symlink out of it escapes the root (REPORT012), whether written as a
// relative path, a project:// reference or a '..' path; and the
// normalizer never rewrites such a link as if it were local.
func TestLinkSymlinkEscapes(t *testing.T) {
	root, rep := linkProject(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "artifacts", "campaign", "leak.md")); err != nil {
		t.Skip("symlinks unsupported")
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(root, "ideas", "elsewhere")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(rep), outside)
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{
		"leak.md",
		"artifacts/campaign/leak.md",
		"project://artifacts/campaign/leak.md",
		"project://ideas/elsewhere/secret.md",
		"../../ideas/elsewhere/secret.md",
		filepath.ToSlash(rel), // plain '..' out of the root
	} {
		iss, err := LinkIssues("[x]("+target+")\n", rep, root)
		if err != nil {
			t.Fatal(err)
		}
		if len(iss) != 1 || iss[0].Rule != CodeLinkEscapes {
			t.Errorf("%s: issues %+v, want one %s", target, iss, CodeLinkEscapes.Code)
		}
		out, err := NormalizeLinks("[x]("+target+")\n", rep, root)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "secret") && !strings.Contains("[x]("+target+")\n", "secret") {
			t.Errorf("%s normalized to %q", target, out)
		}
	}
	// A symlink that stays inside the root is an ordinary link.
	if err := os.Symlink(filepath.Join(root, "artifacts", "campaign", "matrix.json"), filepath.Join(root, "artifacts", "campaign", "alias.json")); err != nil {
		t.Fatal(err)
	}
	if iss, _ := LinkIssues("[a](alias.json)\n", rep, root); len(iss) != 0 {
		t.Errorf("inside link flagged: %+v", iss)
	}
}
