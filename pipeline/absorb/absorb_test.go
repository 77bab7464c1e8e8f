package absorb

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/matchproto"
)

const module = `from gaia.engine.lang import claim

__all__ = ["worth"]

worth = claim("The idea merits effort.", title="worth")
`

func artifact(votes []string, winner string, written bool) string {
	var panel []string
	for i, v := range votes {
		panel = append(panel, `{"reviewer_family": "f`+string(rune('a'+i))+`", "model": "m", "vote": "`+v+`", "anchored_arguments": [], "unanimous_arguments_discarded": 0}`)
	}
	w := "false"
	if written {
		w = "true"
	}
	return `{
  "match_id": "mmmmmmmm",
  "campaign_id": "cccccccc",
  "idea_a_node_id": "aaaaaaaa",
  "idea_b_node_id": "bbbbbbbb",
  "panel": [` + strings.Join(panel, ", ") + `],
  "panel_independence": {"mode": "cross_family", "families_present": ["fa", "fb", "fc"], "families_absent": []},
  "independent_runners": true,
  "outcome": {"winner": "` + winner + `", "vote_margin": 1.0, "decided_at": "2026-11-30T00:00:00+00:00"},
  "observation_write": {
    "written": ` + w + `
  }
}
`
}

type fixture struct {
	root, a, b, art string
	lintCalls       int
	failLint        string // lint fails when a module contains this
	onLint          func(call int)
}

func setup(t *testing.T, art string) *fixture {
	t.Helper()
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".nullius"), 0o755)
	fx := &fixture{root: root, a: filepath.Join(root, "graphs", "a-gaia"), b: filepath.Join(root, "graphs", "b é-gaia")}
	for i, pkg := range []string{fx.a, fx.b} {
		os.MkdirAll(filepath.Join(pkg, "src", "idea"), 0o755)
		os.WriteFile(filepath.Join(pkg, "src", "idea", "__init__.py"), []byte(module), 0o644)
		bind(t, pkg, "cccccccc", []string{"aaaaaaaa", "bbbbbbbb"}[i])
	}
	fx.art = filepath.Join(root, "artifacts", "matches", "match-mmmmmmmm.json")
	os.MkdirAll(filepath.Dir(fx.art), 0o755)
	os.WriteFile(fx.art, []byte(art), 0o644)
	return fx
}

// bind writes the package's pyproject.toml bound to node of campaign.
func bind(t testing.TB, pkg, campaign, node string) {
	t.Helper()
	name := strings.ReplaceAll(filepath.Base(pkg), " ", "-")
	data := "[project]\nname = \"" + name + "\"\nversion = \"0.1.0\"\n\n[tool.nullius]\ncampaign-id = \"" + campaign + "\"\nnode-id = \"" + node + "\"\n"
	if err := os.WriteFile(filepath.Join(pkg, "pyproject.toml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// parseArtifact stands in for the match validator: it parses the artifact
// as the validator does and checks nothing else.
func parseArtifact(_ string, data []byte) (*jsonloc.Doc, []diag.Diagnostic) {
	doc, err := jsonloc.Parse(data, matchproto.DecodeOptions)
	if err != nil {
		return nil, []diag.Diagnostic{{Code: "MATCH001", Severity: diag.Error, Message: err.Error()}}
	}
	return doc, nil
}

// readMatchBytes parses data as the validator does and reads the match.
func readMatchBytes(data []byte) (*match, error) {
	doc, err := jsonloc.Parse(data, matchproto.DecodeOptions)
	if err != nil {
		return nil, err
	}
	return readMatch(doc)
}

func (fx *fixture) checks() Checks {
	return Checks{
		ValidateArtifact: parseArtifact,
		Lint: func(pkg string) ([]diag.Diagnostic, error) {
			fx.lintCalls++
			if fx.onLint != nil {
				fx.onLint(fx.lintCalls)
			}
			src, _ := os.ReadFile(filepath.Join(pkg, "src", "idea", "__init__.py"))
			if fx.failLint != "" && bytes.Contains(src, []byte(fx.failLint)) {
				return []diag.Diagnostic{{Code: "GAIA011", Severity: diag.Error}}, nil
			}
			return nil, nil
		},
		Module: func(pkg string) (string, error) { return filepath.Join(pkg, "src", "idea", "__init__.py"), nil },
	}
}

func (fx *fixture) opts() Options { return Options{Artifact: fx.art, APackage: fx.a, BPackage: fx.b} }

func read(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUnanimousWin(t *testing.T) {
	fx := setup(t, artifact([]string{"a", "a", "tie"}, "a", false))
	res, err := Absorb(fx.opts(), fx.checks())
	if err != nil {
		t.Fatal(err)
	}
	if res.Tier != 10 || res.Winner != "a" || len(res.Edited) != 2 {
		t.Fatalf("result %+v", res)
	}
	a := read(t, filepath.Join(fx.a, "src", "idea", "__init__.py"))
	b := read(t, filepath.Join(fx.b, "src", "idea", "__init__.py"))
	for _, want := range []string{"p_e_given_h=0.90,\n    p_e_given_not_h=0.09", "evidence_family: pairwise-match-mmmmmmmm; correlation_model: single; ", `"anchor: pairwise_match_v1 mmmmmmmm at artifacts/matches/match-mmmmmmmm.json"`, "reader_reasoning: a unanimous panel win"} {
		if !strings.Contains(a, want) {
			t.Errorf("winner module lacks %q:\n%s", want, a)
		}
	}
	if !strings.Contains(b, "p_e_given_h=0.09,\n    p_e_given_not_h=0.90") || !strings.Contains(b, "panel loss") {
		t.Errorf("loser module must lower worth:\n%s", b)
	}
	art := read(t, fx.art)
	if !strings.Contains(art, `"written": true`) || !strings.Contains(art, `"gaia_package_ref": "project://graphs/a-gaia project://graphs/b%20%C3%A9-gaia"`) {
		t.Fatalf("artifact not marked:\n%s", art)
	}
	if !strings.HasPrefix(art, "{\n  \"match_id\": \"mmmmmmmm\",\n") {
		t.Fatalf("other bytes of the artifact changed:\n%s", art)
	}
	// A second absorb of the same match is refused and changes nothing.
	_, err = Absorb(fx.opts(), fx.checks())
	var r *Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Msg, "already absorbed") {
		t.Fatalf("second absorb: %v", err)
	}
	if read(t, filepath.Join(fx.a, "src", "idea", "__init__.py")) != a {
		t.Fatal("second absorb edited a module")
	}
}

func TestSplitWinForB(t *testing.T) {
	fx := setup(t, artifact([]string{"b", "b", "a"}, "b", false))
	res, err := Absorb(fx.opts(), fx.checks())
	if err != nil || res.Tier != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	b := read(t, filepath.Join(fx.b, "src", "idea", "__init__.py"))
	a := read(t, filepath.Join(fx.a, "src", "idea", "__init__.py"))
	if !strings.Contains(b, "p_e_given_h=0.75,\n    p_e_given_not_h=0.25") || !strings.Contains(a, "p_e_given_h=0.25,\n    p_e_given_not_h=0.75") {
		t.Fatalf("split grades wrong:\nA:\n%s\nB:\n%s", a, b)
	}
}

func TestTieChangesNothing(t *testing.T) {
	art := artifact([]string{"a", "b", "tie"}, "tie", false)
	fx := setup(t, art)
	res, err := Absorb(fx.opts(), fx.checks())
	if err != nil || res.Winner != "tie" || !strings.Contains(res.Message, "nothing was changed") {
		t.Fatalf("%+v %v", res, err)
	}
	if read(t, fx.art) != art || read(t, filepath.Join(fx.a, "src", "idea", "__init__.py")) != module {
		t.Fatal("a tie changed files")
	}
}

func TestRefusalsLeaveEverythingUntouched(t *testing.T) {
	cases := map[string]func(fx *fixture){
		"invalid artifact": func(fx *fixture) { os.WriteFile(fx.art, []byte("{"), 0o644) },
		"lint before":      func(fx *fixture) { fx.failLint = "merits" },
		"lint after":       func(fx *fixture) { fx.failLint = "panel loss" },
		"no worth": func(fx *fixture) {
			os.WriteFile(filepath.Join(fx.b, "src", "idea", "__init__.py"), []byte("x = 1\n"), 0o644)
		},
		"winner mismatch": func(fx *fixture) { os.WriteFile(fx.art, []byte(artifact([]string{"a", "a", "a"}, "b", false)), 0o644) },
		"family already present": func(fx *fixture) {
			os.WriteFile(filepath.Join(fx.b, "src", "idea", "__init__.py"), []byte(module+"# evidence_family : pairwise-match-mmmmmmmm ;\n"), 0o644)
		},
		"no project root": func(fx *fixture) { os.Remove(filepath.Join(fx.root, ".nullius")) },
		"short panel":     func(fx *fixture) { os.WriteFile(fx.art, []byte(artifact([]string{"a", "a"}, "a", false)), 0o644) },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			fx := setup(t, artifact([]string{"a", "a", "a"}, "a", false))
			mutate(fx)
			beforeArt := read(t, fx.art)
			beforeA := read(t, filepath.Join(fx.a, "src", "idea", "__init__.py"))
			beforeB := read(t, filepath.Join(fx.b, "src", "idea", "__init__.py"))
			_, err := Absorb(fx.opts(), fx.checks())
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("want a refusal, got %v", err)
			}
			if read(t, fx.art) != beforeArt || read(t, filepath.Join(fx.a, "src", "idea", "__init__.py")) != beforeA || read(t, filepath.Join(fx.b, "src", "idea", "__init__.py")) != beforeB {
				t.Fatal("a refused absorb changed files")
			}
		})
	}
}

// TestTier: the tier comes from internal/matchproto (W28: a unanimous win
// needs the loser at zero votes AND a strict majority of the whole panel).
// TestArtifactChangedMidwayRestoresBoth: the artifact is spliced from the
// bytes that were validated; if it changed meanwhile, both modules go back.
func TestArtifactChangedMidwayRestoresBoth(t *testing.T) {
	fx := setup(t, artifact([]string{"a", "a", "a"}, "a", false))
	os.Chmod(filepath.Join(fx.a, "src", "idea", "__init__.py"), 0o600)
	fx.onLint = func(call int) {
		if call == 4 { // the last lint, after both edits
			os.WriteFile(fx.art, []byte(artifact([]string{"a", "a", "a"}, "a", false)+" "), 0o644)
		}
	}
	_, err := Absorb(fx.opts(), fx.checks())
	if err == nil || !strings.Contains(err.Error(), "changed while it was being absorbed") || !strings.Contains(err.Error(), "both packages were restored") {
		t.Fatalf("err = %v", err)
	}
	for _, pkg := range []string{fx.a, fx.b} {
		if read(t, filepath.Join(pkg, "src", "idea", "__init__.py")) != module {
			t.Fatalf("%s not restored", pkg)
		}
	}
	if fi, _ := os.Stat(filepath.Join(fx.a, "src", "idea", "__init__.py")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v not kept", fi.Mode())
	}
}

func TestPackageRefusals(t *testing.T) {
	fx := setup(t, artifact([]string{"a", "a", "a"}, "a", false))
	for name, opts := range map[string]Options{
		"same package":    {Artifact: fx.art, APackage: fx.a, BPackage: fx.a + "/."},
		"outside root":    {Artifact: fx.art, APackage: fx.a, BPackage: fx.b, ProjectRoot: fx.a},
		"root is package": {Artifact: fx.art, APackage: fx.a, BPackage: fx.b, ProjectRoot: filepath.Join(fx.root, "graphs", "a-gaia")},
	} {
		_, err := Absorb(opts, fx.checks())
		var r *Refusal
		if !errors.As(err, &r) {
			t.Errorf("%s: want a refusal, got %v", name, err)
		}
	}
	if _, err := Absorb(Options{Artifact: fx.art, APackage: filepath.Join(fx.root, "nope"), BPackage: fx.b}, fx.checks()); err == nil || errors.As(err, new(*Refusal)) {
		t.Errorf("missing package: want an I/O error, got %v", err)
	}
	if read(t, fx.art) != artifact([]string{"a", "a", "a"}, "a", false) {
		t.Fatal("a refusal changed the artifact")
	}
}

func TestTier(t *testing.T) {
	for _, c := range []struct {
		v    [3]int
		want int
	}{{[3]int{3, 0, 0}, 10}, {[3]int{1, 0, 2}, 3}, {[3]int{2, 0, 1}, 10}, {[3]int{2, 1, 0}, 3}, {[3]int{1, 1, 1}, 0}, {[3]int{0, 4, 1}, 10}, {[3]int{1, 0, 4}, 3}, {[3]int{0, 2, 2}, 3}} {
		var votes []string
		for i, name := range []string{"a", "b", "tie"} {
			for range c.v[i] {
				votes = append(votes, name)
			}
		}
		winner := map[bool]string{true: "a", false: "b"}[c.v[0] > c.v[1]]
		if c.v[0] == c.v[1] {
			winner = "tie"
		}
		m, err := readMatchBytes([]byte(artifact(votes, winner, false)))
		if err != nil {
			t.Fatalf("%v: %v", c.v, err)
		}
		if m.tier != c.want {
			t.Errorf("tier of %v = %d, want %d", c.v, m.tier, c.want)
		}
	}
}

// FuzzReadMatch: arbitrary artifact bytes never panic the reader, and a
// match it accepts can be marked written without breaking the JSON or
// touching any byte before observation_write.
func FuzzReadMatch(f *testing.F) {
	f.Add([]byte(artifact([]string{"a", "a", "tie"}, "a", false)))
	f.Add([]byte(artifact([]string{"a", "b", "tie"}, "tie", false)))
	f.Add([]byte(`{"match_id": "mmmmmmmm", "observation_write": {"written": false}, "panel": [{"vote": "a"}]}`))
	f.Add([]byte(`{"observation_write":{"written":false}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := readMatchBytes(data)
		if err != nil {
			return
		}
		out, err := markWritten(m.doc, "project://x project://y")
		if err != nil {
			return
		}
		doc, err := jsonloc.Parse(out, jsonloc.Options{})
		if err != nil {
			t.Fatalf("marked artifact does not parse: %v", err)
		}
		ow, _ := doc.Value.(map[string]any)["observation_write"].(map[string]any)
		if ow["written"] != true || ow["gaia_package_ref"] != "project://x project://y" {
			t.Fatalf("observation_write = %v", ow)
		}
		start, _, _ := m.doc.Range("/observation_write")
		if !bytes.Equal(out[:start], data[:start]) {
			t.Fatal("bytes before observation_write changed")
		}
	})
}

// Issue 12: each package must be bound to the idea the artifact names for
// it. Swapped flags, an unbound package, a package of another node or
// campaign, and an unreadable binding are refused with a MATCH061 finding
// at the package's pyproject.toml, the fix in the message, nothing edited.
func TestBindingRefusals(t *testing.T) {
	for name, c := range map[string]struct {
		mutate func(fx *fixture) Options
		want   []string
		finds  int
	}{
		"swapped": {func(fx *fixture) Options {
			return Options{Artifact: fx.art, APackage: fx.b, BPackage: fx.a}
		}, []string{"are swapped", "is bound to node bbbbbbbb (the artifact's idea_b_node_id)", "--a-package " + "%A" + " --b-package " + "%B"}, 2},
		"unbound": {func(fx *fixture) Options {
			os.WriteFile(filepath.Join(fx.b, "pyproject.toml"), []byte("[project]\nname = \"b\"\n"), 0o644)
			return fx.opts()
		}, []string{"is not bound to an idea", "nullius bind --package %B --campaign-id cccccccc --node-id bbbbbbbb"}, 1},
		"half bound": {func(fx *fixture) Options {
			os.WriteFile(filepath.Join(fx.a, "pyproject.toml"), []byte("[tool.nullius]\nnode-id = \"aaaaaaaa\"\n"), 0o644)
			return fx.opts()
		}, []string{"--a-package", "is not bound to an idea"}, 1},
		"other node": {func(fx *fixture) Options {
			bind(t, fx.b, "cccccccc", "dddddddd")
			return fx.opts()
		}, []string{"is bound to node dddddddd, but the artifact's idea_b_node_id is bbbbbbbb"}, 1},
		"both on one idea": {func(fx *fixture) Options {
			bind(t, fx.b, "cccccccc", "aaaaaaaa")
			return fx.opts()
		}, []string{"is bound to node aaaaaaaa, but the artifact's idea_b_node_id is bbbbbbbb; node aaaaaaaa is the artifact's idea_a_node_id, so pass"}, 1},
		"other campaign": {func(fx *fixture) Options {
			bind(t, fx.a, "dddddddd", "aaaaaaaa")
			return fx.opts()
		}, []string{"is bound to campaign dddddddd, but the artifact's campaign_id is cccccccc"}, 1},
		"malformed binding": {func(fx *fixture) Options {
			os.WriteFile(filepath.Join(fx.a, "pyproject.toml"), []byte("[tool.nullius]\nnode-id = 7\ncampaign-id = \"cccccccc\"\n"), 0o644)
			return fx.opts()
		}, []string{"its binding cannot be read", "node-id must be a string"}, 1},
	} {
		t.Run(name, func(t *testing.T) {
			art := artifact([]string{"a", "a", "a"}, "a", false)
			fx := setup(t, art)
			opts := c.mutate(fx)
			_, err := Absorb(opts, fx.checks())
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("want a refusal, got %v", err)
			}
			for _, w := range c.want {
				w = strings.NewReplacer("%A", fx.a, "%B", fx.b).Replace(w)
				if !strings.Contains(r.Msg, w) {
					t.Errorf("message %q lacks %q", r.Msg, w)
				}
			}
			if len(r.Diagnostics) != c.finds {
				t.Fatalf("%d findings, want %d: %+v", len(r.Diagnostics), c.finds, r.Diagnostics)
			}
			for _, d := range r.Diagnostics {
				if d.Code != "MATCH061" || !strings.HasSuffix(d.Path, "pyproject.toml") || d.Line < 1 {
					t.Errorf("finding %+v", d)
				}
			}
			if read(t, fx.art) != art || read(t, fx.moduleA()) != module || read(t, fx.moduleB()) != module {
				t.Fatal("a binding refusal edited a file")
			}
			if fx.lintCalls != 0 {
				t.Fatal("packages were linted before the bindings were checked")
			}
		})
	}
}
