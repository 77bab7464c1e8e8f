package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/contain"
)

func TestContained(t *testing.T) {
	outside := t.TempDir()
	base := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(base, "inner"), 0o755))
	links := map[string]string{
		"out":       outside,
		"in":        filepath.Join(base, "inner"),
		"rel-out":   "../" + filepath.Base(outside),
		"dangling":  filepath.Join(outside, "not-yet"),
		"dangle-in": filepath.Join(base, "inner", "not-yet"),
		"dotdot":    "inner/../..",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Skip("symlinks unsupported")
		}
	}
	linkBase := filepath.Join(t.TempDir(), "base-link")
	must(t, os.Symlink(base, linkBase))
	for _, tc := range []struct {
		base, rel string
		ok        bool
	}{
		{base, "votes", true},
		{base, "artifacts/matches", true},
		{base, "inner", true},
		{base, "in", true},
		{base, "in/deeper/x", true},
		{base, "dangle-in/x", true},
		{linkBase, "votes", true}, // the user-named base may be a symlink
		{linkBase, "in", true},
		{base, "out", false},
		{base, "out/matches", false},
		{base, "rel-out", false},
		{base, "dangling", false},
		{base, "dangling/x", false},
		{base, "dotdot", false},
		{base, "../x", false},
		{linkBase, "out", false},
	} {
		err := contained(tc.base, tc.rel)
		if (err == nil) != tc.ok {
			t.Errorf("contained(%s, %q) = %v, want ok=%v", tc.base, tc.rel, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "outside") {
			t.Errorf("message %q", err)
		}
	}
}

// The artifact's directory is fixed under the campaign (§0.2): a symlinked
// artifacts/ leading out of the campaign is refused before anything is
// written through it.
func TestAssembleRefusesArtifactsDirOutsideCampaign(t *testing.T) {
	_, o := assembled(t)
	outside := t.TempDir()
	must(t, os.MkdirAll(o.CampaignDir, 0o755))
	must(t, os.Symlink(outside, filepath.Join(o.CampaignDir, "artifacts")))
	o.MatchID = "4c9a2d10"
	_, err := Assemble(o)
	wantErr(t, err, ExitInvalid, "outside "+o.CampaignDir)
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the campaign: %v", entries)
	}
}

// votes/ and raw/ are fixed under the panel directory (§0.2).
func TestPanelRefusesVotesDirOutsideOutDir(t *testing.T) {
	for _, sub := range []string{"votes", "raw"} {
		t.Run(sub, func(t *testing.T) {
			dir := setup(t)
			outside := t.TempDir()
			must(t, os.MkdirAll(filepath.Join(dir, "panel"), 0o755))
			must(t, os.Symlink(outside, filepath.Join(dir, "panel", sub)))
			r := &stubRunner{}
			o := opts(dir, r, nil)
			o.RunnerOverrides = overrides(map[string]string{"claude": "vote:a", "gpt": "vote:a", "glm": "vote:b"})
			wantErr(t, RunPanel(context.Background(), o), ExitRefused, "outside "+filepath.Join(dir, "panel"))
			if len(r.calls) != 0 {
				t.Error("a judge ran")
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("written outside the panel directory: %v", entries)
			}
		})
	}
}

// A materials file linked in from outside the materials directory is
// refused; a link inside it is fine.
func TestMaterialsFilesStayInside(t *testing.T) {
	dir := setup(t)
	mat := filepath.Join(dir, "mat")
	must(t, os.MkdirAll(filepath.Join(mat, "drafts"), 0o755))
	must(t, os.Rename(filepath.Join(mat, "statement_a.md"), filepath.Join(mat, "drafts", "a.md")))
	must(t, os.Symlink(filepath.Join("drafts", "a.md"), filepath.Join(mat, "statement_a.md")))
	if _, err := LoadMaterials(mat, 600); err != nil {
		t.Fatalf("a link inside the materials was refused: %v", err)
	}
	elsewhere := filepath.Join(t.TempDir(), "a.md")
	must(t, os.Rename(filepath.Join(mat, "drafts", "a.md"), elsewhere))
	must(t, os.Remove(filepath.Join(mat, "statement_a.md")))
	must(t, os.Symlink(elsewhere, filepath.Join(mat, "statement_a.md")))
	_, err := LoadMaterials(mat, 600)
	wantErr(t, err, ExitRefused, "statement_a.md resolves to "+elsewhere)
}

// FuzzContained: whatever rel is, an accepted path resolves inside the
// base, and a lexical escape ('..' out of the base) is never accepted.
func FuzzContained(f *testing.F) {
	for _, s := range []string{"votes", "raw/claude/attempt1", "../x", "a/../../b", "out/x", "in/../..", "", ".", "/etc", "dangling/x"} {
		f.Add(s)
	}
	base := f.TempDir()
	outside := f.TempDir()
	if err := os.MkdirAll(filepath.Join(base, "in"), 0o755); err != nil {
		f.Fatal(err)
	}
	_ = os.Symlink(outside, filepath.Join(base, "out"))
	_ = os.Symlink(filepath.Join(outside, "gone"), filepath.Join(base, "dangling"))
	_ = os.Symlink(filepath.Join(base, "in"), filepath.Join(base, "back"))
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		if strings.ContainsRune(rel, 0) {
			return
		}
		err := contained(base, rel)
		if err != nil {
			return
		}
		if !contain.Within(filepath.Join(base, rel), base) {
			t.Fatalf("contained(%q) accepted a lexical escape", rel)
		}
		real, rerr := contain.Resolve(filepath.Join(base, rel))
		if rerr != nil || !contain.Within(real, realBase) {
			t.Fatalf("contained(%q) accepted %s (%v)", rel, real, rerr)
		}
	})
}
