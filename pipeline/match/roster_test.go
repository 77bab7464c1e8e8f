package match

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeRoster(t *testing.T, p, label string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(`{"version": 1, "families": {"`+label+`": {"runner": "native", "models": {"default": "m"}}}}`), 0o644))
}

// The discovery rows of §7.5 (test_agent_roster.py).
func TestResolveRoster(t *testing.T) {
	type layout struct {
		explicit, project, inner, above, user bool
		gitFile, homeIsGit, symlinkProject    bool
	}
	tests := []struct {
		name   string
		l      layout
		source string
		family string
	}{
		{"explicit beats project and user", layout{explicit: true, project: true, user: true}, "explicit", "cli-only"},
		{"project beats user", layout{project: true, user: true}, "project", "proj"},
		{"user when no project file", layout{user: true}, "user", "usr"},
		{"builtin when nothing", layout{}, "builtin", "host"},
		{"git root only", layout{project: true, inner: true}, "project", "proj"},
		{"walk-up stops at the git boundary", layout{above: true, user: true}, "user", "usr"},
		{"git file is a boundary", layout{project: true, gitFile: true}, "project", "proj"},
		{"home as git repo is user level", layout{homeIsGit: true}, "user", "usr"},
		{"project symlinked to the user file is user level", layout{symlinkProject: true, user: true}, "user", "usr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			home := filepath.Join(base, "home")
			repo := filepath.Join(base, "outer", "repo")
			mat := filepath.Join(repo, "campaign", "mat")
			must(t, os.MkdirAll(mat, 0o755))
			must(t, os.MkdirAll(home, 0o755))
			if tt.l.gitFile {
				must(t, os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: x"), 0o644))
			} else {
				must(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
			}
			if tt.l.project {
				writeRoster(t, filepath.Join(repo, ".nullius", "agents.json"), "proj")
			}
			if tt.l.inner {
				writeRoster(t, filepath.Join(repo, "campaign", ".nullius", "agents.json"), "inner")
			}
			if tt.l.above {
				writeRoster(t, filepath.Join(base, "outer", ".nullius", "agents.json"), "above")
			}
			if tt.l.user || tt.l.homeIsGit {
				writeRoster(t, filepath.Join(home, ".nullius", "agents.json"), "usr")
			}
			if tt.l.symlinkProject {
				must(t, os.MkdirAll(filepath.Join(repo, ".nullius"), 0o755))
				must(t, os.Symlink(filepath.Join(home, ".nullius", "agents.json"), filepath.Join(repo, ".nullius", "agents.json")))
			}
			matDir := mat
			if tt.l.homeIsGit {
				must(t, os.MkdirAll(filepath.Join(home, ".git"), 0o755))
				matDir = filepath.Join(home, "work", "mat")
				must(t, os.MkdirAll(matDir, 0o755))
			}
			explicit := ""
			if tt.l.explicit {
				explicit = filepath.Join(base, "cli.json")
				writeRoster(t, explicit, "cli-only")
			}
			r, src, err := ResolveRoster(explicit, matDir, home)
			must(t, err)
			if src.Source != tt.source || r.Families[0].Label != tt.family {
				t.Errorf("source %s family %s, want %s %s", src.Source, r.Families[0].Label, tt.source, tt.family)
			}
			if tt.source == "builtin" && src.Path != "" {
				t.Error("builtin path")
			}
		})
	}
}

func TestResolveRosterErrors(t *testing.T) {
	base := t.TempDir()
	if _, _, err := ResolveRoster(filepath.Join(base, "missing.json"), base, ""); err == nil || !strings.Contains(err.Error(), "cannot read roster") {
		t.Errorf("explicit missing: %v", err)
	}
	repo := filepath.Join(base, "repo")
	must(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(repo, ".nullius"), 0o755))
	must(t, os.WriteFile(filepath.Join(repo, ".nullius", "agents.json"), []byte("{not json"), 0o644))
	if _, _, err := ResolveRoster("", repo, ""); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("invalid project roster: %v", err)
	}
	// W26: a directory or a broken symlink is a loud error, not a fall-through.
	must(t, os.Remove(filepath.Join(repo, ".nullius", "agents.json")))
	must(t, os.Mkdir(filepath.Join(repo, ".nullius", "agents.json"), 0o755))
	if _, _, err := ResolveRoster("", repo, ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory roster: %v", err)
	}
	must(t, os.Remove(filepath.Join(repo, ".nullius", "agents.json")))
	must(t, os.Symlink(filepath.Join(base, "nowhere.json"), filepath.Join(repo, ".nullius", "agents.json")))
	if _, _, err := ResolveRoster("", repo, ""); err == nil || !strings.Contains(err.Error(), "broken symlink") {
		t.Errorf("broken symlink roster: %v", err)
	}
}

// Execution signatures (§5.7): env-redirected and hard-linked runner
// scripts are one command; distinct missing paths and distinct models are not.
func TestExecutionSignatures(t *testing.T) {
	dir := setup(t)
	script := filepath.Join(dir, "run.sh")
	must(t, os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755))
	link := filepath.Join(dir, "run-link.sh")
	must(t, os.Link(script, link))
	roster := `{"version": 1, "families": {"kimi": {"runner": "kimi", "models": {"default": "m"}}, "gemini": {"runner": "gemini", "models": {"default": "m"}}, "a": {"runner": "opencode", "models": {"default": "x/1"}}, "b": {"runner": "opencode", "models": {"default": "x/2"}}}}`
	must(t, os.WriteFile(filepath.Join(dir, "roster.json"), []byte(roster), 0o644))
	for _, tt := range []struct {
		name        string
		env         map[string]string
		independent bool
	}{
		{"env redirect to one script", map[string]string{"IDEA_PAIRWISE_KIMI_RUNNER": script, "IDEA_PAIRWISE_GEMINI_RUNNER": script}, false},
		{"hard link alias", map[string]string{"IDEA_PAIRWISE_KIMI_RUNNER": script, "IDEA_PAIRWISE_GEMINI_RUNNER": link}, false},
		{"distinct missing scripts", map[string]string{"IDEA_PAIRWISE_KIMI_RUNNER": filepath.Join(dir, "no1"), "IDEA_PAIRWISE_GEMINI_RUNNER": filepath.Join(dir, "no2")}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := opts(dir, &stubRunner{}, tt.env)
			p := &panel{o: &o}
			r, _, err := ResolveRoster(o.Roster, dir, "")
			must(t, err)
			p.roster = r
			must(t, p.parseFlags())
			ind, err := p.checkIndependence(r.Families)
			if tt.independent && (err != nil || !ind) {
				t.Errorf("independent: %v %v", ind, err)
			}
			if !tt.independent && (err == nil || !strings.Contains(err.Error(), "same underlying command")) {
				t.Errorf("want refusal, got %v", err)
			}
			tt.env["IDEA_PAIRWISE_ALLOW_STUB_RUNNERS"] = "1"
			if ind, err := p.checkIndependence(r.Families); err != nil || ind != tt.independent {
				t.Errorf("with the hatch: %v %v", ind, err)
			}
		})
	}
	o := opts(dir, &stubRunner{}, map[string]string{})
	p := &panel{o: &o, override: map[string]string{}, specs: map[string]string{}}
	r, _, _ := ResolveRoster(filepath.Join(dir, "roster.json"), dir, "")
	a, _ := r.Family("a")
	b, _ := r.Family("b")
	if p.execSignature(a) == p.execSignature(b) {
		t.Error("same runner with different models collides")
	}
	p.specs["b"] = "x/1"
	if p.execSignature(a) != p.execSignature(b) {
		t.Error("--model-spec not part of the signature")
	}
}
