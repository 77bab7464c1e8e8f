package scaffold

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/pipeline/gaiacli"
)

// The §4.2 template rows (test_scaffold.py), on our own wording.
func TestTemplateRows(t *testing.T) {
	tpl := Template("example-idea")
	t.Run("declares worth and all sub-criteria", func(t *testing.T) {
		for _, name := range append([]string{"worth"}, Criteria...) {
			for _, want := range []string{name + " = claim(", `title="` + name + `"`} {
				if !strings.Contains(tpl, want) {
					t.Errorf("template lacks %q", want)
				}
			}
		}
	})
	t.Run("exports only the root claim", func(t *testing.T) {
		if !strings.Contains(tpl, `__all__ = ["worth"]`) {
			t.Error(`template lacks __all__ = ["worth"]`)
		}
		head := tpl[:strings.Index(tpl, "worth = claim(")]
		for _, c := range Criteria {
			for _, q := range []string{`"` + c + `"`, `'` + c + `'`} {
				if strings.Contains(head, q) {
					t.Errorf("criterion %s quoted before the worth claim", q)
				}
			}
		}
	})
	t.Run("structural reader roles", func(t *testing.T) {
		worth := tpl[strings.Index(tpl, "worth = claim("):]
		worth = worth[:strings.Index(worth, ")\n")]
		if !strings.Contains(worth, `reader_role="conclusion"`) {
			t.Errorf("worth block lacks reader_role=\"conclusion\":\n%s", worth)
		}
		if n := strings.Count(tpl, `reader_role="criterion"`); n != 5 {
			t.Errorf("%d reader_role=\"criterion\", want 5", n)
		}
	})
	t.Run("restates the three grades", func(t *testing.T) {
		for _, g := range []string{"p_e_given_h=0.75, p_e_given_not_h=0.25", "p_e_given_h=0.90, p_e_given_not_h=0.09", "p_e_given_h=0.90, p_e_given_not_h=0.03"} {
			if !strings.Contains(tpl, g) {
				t.Errorf("template lacks %q", g)
			}
		}
	})
	t.Run("anchor and exclusivity guidance", func(t *testing.T) {
		for _, s := range []string{"anchor:", "pairwise", "exclusive()", "0.5.0a4"} {
			if !strings.Contains(tpl, s) {
				t.Errorf("template lacks %q", s)
			}
		}
	})
	t.Run("separates tension existence from resolution evidence", func(t *testing.T) {
		for _, s := range []string{"resolution_evidence: mechanism", "resolution_evidence: discriminating_test",
			"resolution_evidence: demonstrated_partial_resolution", "evidence_family: <token>",
			"one composite observation", "correlation_model: single", "reader_reasoning:", "domains:"} {
			if !strings.Contains(tpl, s) {
				t.Errorf("template lacks %q", s)
			}
		}
	})
	t.Run("domain neutral and jargon free", func(t *testing.T) {
		for _, text := range []string{tpl, Pyproject("example-idea")} {
			lower := strings.ToLower(text)
			for _, w := range []string{"quark", "hadron", "lattice", "hamiltonian", "oracle", "rubric", "ceremony", "fail-closed", "provenance", "boilerplate", "harness"} {
				if strings.Contains(lower, w) {
					t.Errorf("banned word %q in the template", w)
				}
			}
		}
	})
	t.Run("interpolates the slug", func(t *testing.T) {
		if !strings.Contains(Template("my-special-slug"), "my-special-slug") {
			t.Error("slug missing from the template")
		}
	})
	t.Run("stock sentences are the claim contents", func(t *testing.T) {
		for _, s := range StockSentences {
			if !strings.Contains(tpl, `"`+s+`"`) {
				t.Errorf("claim content %q missing", s)
			}
		}
	})
	t.Run("no live statement besides the claims", func(t *testing.T) {
		// The recipes are comments: a fresh scaffold must lint to exactly
		// the stock-sentence findings.
		for _, line := range strings.Split(tpl, "\n") {
			if regexp.MustCompile(`^\s*(infer|observe|register_prior|exclusive)\(`).MatchString(line) {
				t.Errorf("live statement in the template: %q", line)
			}
		}
	})
}

func TestPyproject(t *testing.T) {
	var doc struct {
		Project struct {
			Name           string   `toml:"name"`
			RequiresPython string   `toml:"requires-python"`
			Dependencies   []string `toml:"dependencies"`
		} `toml:"project"`
	}
	if err := toml.Unmarshal([]byte(Pyproject("my-idea")), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Project
	if p.Name != "my-idea-gaia" || p.RequiresPython != ">=3.12" || len(p.Dependencies) != 1 || p.Dependencies[0] != "gaia-lang==0.5.0a4" {
		t.Errorf("pyproject = %+v", p)
	}
}

func TestCheckSlug(t *testing.T) {
	for _, s := range []string{"my-idea", "example-idea", "x", "a1-b2"} {
		if err := CheckSlug(s); err != nil {
			t.Errorf("CheckSlug(%q) = %v", s, err)
		}
	}
	for _, s := range []string{"", "My-Idea", "1idea", "my_idea", "my--idea", "-x", "x-", "a/b", "../x", "my idea", "my-idea-gaia", "gaia", "ü", "class", "import"} {
		if err := CheckSlug(s); err == nil {
			t.Errorf("CheckSlug(%q) accepted", s)
		}
	}
}

func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

func TestCreateSkeleton(t *testing.T) {
	dest := t.TempDir()
	pkg, err := Create(context.Background(), Options{Slug: "example-idea", Dest: dest})
	if err != nil {
		t.Fatal(err)
	}
	if pkg != filepath.Join(dest, "example-idea-gaia") {
		t.Errorf("package = %q", pkg)
	}
	want := "example-idea-gaia, example-idea-gaia/.python-version, example-idea-gaia/pyproject.toml, " +
		"example-idea-gaia/src, example-idea-gaia/src/example_idea, example-idea-gaia/src/example_idea/__init__.py"
	if got := strings.Join(tree(t, dest), ", "); got != want {
		t.Errorf("tree = %s\nwant   %s", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(pkg, ".python-version")); string(data) != "3.12\n" {
		t.Errorf(".python-version = %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(pkg, "src", "example_idea", "__init__.py")); string(data) != Template("example-idea") {
		t.Error("module is not the template")
	}

	// Second run: refuse, change nothing.
	os.WriteFile(filepath.Join(pkg, "marker"), []byte("mine"), 0o644)
	_, err = Create(context.Background(), Options{Slug: "example-idea", Dest: dest})
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Errorf("second Create = %v, want refusing to overwrite", err)
	}
	if data, _ := os.ReadFile(filepath.Join(pkg, "marker")); string(data) != "mine" {
		t.Error("the existing package was touched")
	}
}

// TestCreateBound: with a binding, pyproject.toml is the template plus the
// [tool.nullius] table, both ways of building the skeleton, and nothing
// else (no lock file) appears in the package.
func TestCreateBound(t *testing.T) {
	b := binding.Binding{CampaignID: "cmp00001", NodeID: "nd000001"}
	for _, viaGaia := range []bool{false, true} {
		opts := Options{Slug: "example-idea", Dest: t.TempDir(), Binding: &b}
		if viaGaia {
			opts.Gaia = fakeGaia(t)
		}
		pkg, err := Create(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		got, bound, err := binding.Read(pkg)
		if err != nil || !bound || got != b {
			t.Errorf("gaia=%v: binding = %+v, %v, %v", viaGaia, got, bound, err)
		}
		py, _ := os.ReadFile(filepath.Join(pkg, "pyproject.toml"))
		if !viaGaia && string(py) != Pyproject("example-idea")+"\n[tool.nullius]\ncampaign-id = \"cmp00001\"\nnode-id = \"nd000001\"\n" {
			t.Errorf("pyproject.toml =\n%s", py)
		}
		for _, f := range tree(t, opts.Dest) {
			if strings.Contains(f, ".nullius") {
				t.Errorf("gaia=%v: %s left in the package", viaGaia, f)
			}
		}
	}
}

func TestCreateRefusesEmptyDirAndBadDest(t *testing.T) {
	dest := t.TempDir()
	os.Mkdir(filepath.Join(dest, "x-gaia"), 0o755)
	if _, err := Create(context.Background(), Options{Slug: "x", Dest: dest}); !errors.Is(err, ErrExists) {
		t.Errorf("an existing empty directory must not be replaced: %v", err)
	}
	if _, err := Create(context.Background(), Options{Slug: "x", Dest: filepath.Join(dest, "nope")}); err == nil {
		t.Error("missing destination accepted")
	}
}

func TestRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Mkdir(from, 0o755)
	os.Mkdir(to, 0o755) // empty: a plain rename(2) would replace it
	if err := renameNoReplace(from, to); !errors.Is(err, fs.ErrExist) {
		t.Errorf("renameNoReplace onto an empty dir = %v, want ErrExist", err)
	}
	os.Remove(to)
	if err := renameNoReplace(from, to); err != nil {
		t.Errorf("renameNoReplace = %v", err)
	}
}

func fakeGaia(t *testing.T) *gaiacli.CLI {
	t.Helper()
	bin, _ := filepath.Abs("../../fixtures/fakegaia/gaia")
	for _, k := range []string{"FAKE_GAIA_FAIL", "FAKE_GAIA_VERSION", "FAKE_GAIA_LOG"} {
		t.Setenv(k, "")
	}
	return &gaiacli.CLI{Bin: bin}
}

func TestCreateViaGaia(t *testing.T) {
	g := fakeGaia(t)
	dest := t.TempDir()
	pkg, err := Create(context.Background(), Options{Slug: "example-idea", Dest: dest, Gaia: g})
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{".git", ".venv", "uv.lock"} {
		if _, err := os.Lstat(filepath.Join(pkg, gone)); err == nil {
			t.Errorf("%s left behind", gone)
		}
	}
	py, _ := os.ReadFile(filepath.Join(pkg, "pyproject.toml"))
	if !strings.Contains(string(py), `"gaia-lang==0.5.0a4"`) || !strings.Contains(string(py), `requires-python = ">=3.12"`) {
		t.Errorf("pins not retargeted:\n%s", py)
	}
	if data, _ := os.ReadFile(filepath.Join(pkg, "src", "example_idea", "__init__.py")); string(data) != Template("example-idea") {
		t.Error("module is not the template")
	}
	if got := tree(t, dest); len(got) == 0 || strings.Contains(strings.Join(got, " "), ".nullius-scaffold") {
		t.Errorf("temporary directory left behind: %v", got)
	}
}

func TestCreateViaGaiaFailuresLeaveNothing(t *testing.T) {
	tests := []struct {
		name, env, value, want string
	}{
		{"near-miss banner", "FAKE_GAIA_VERSION", "gaia-lang 0.5.0a41", "version mismatch"},
		{"init fails", "FAKE_GAIA_FAIL", "init", "failed (exit 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := fakeGaia(t)
			t.Setenv(tt.env, tt.value)
			dest := t.TempDir()
			_, err := Create(context.Background(), Options{Slug: "example-idea", Dest: dest, Gaia: g})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Create = %v, want %q", err, tt.want)
			}
			if got := tree(t, dest); len(got) != 0 {
				t.Errorf("left behind: %v", got)
			}
		})
	}
}

// initShaped lays out what `gaia build init` leaves (§4.2 harden rows).
func initShaped(t *testing.T, pyproject string) string {
	t.Helper()
	pkg := filepath.Join(t.TempDir(), "example-idea-gaia")
	for _, d := range []string{".git/objects", ".venv/bin", "src/example_idea"} {
		os.MkdirAll(filepath.Join(pkg, d), 0o755)
	}
	if pyproject != "" {
		os.WriteFile(filepath.Join(pkg, "pyproject.toml"), []byte(pyproject), 0o644)
	}
	os.WriteFile(filepath.Join(pkg, "uv.lock"), nil, 0o644)
	os.WriteFile(filepath.Join(pkg, ".python-version"), []byte("3.13\n"), 0o644)
	os.WriteFile(filepath.Join(pkg, "src/example_idea/__init__.py"), nil, 0o644)
	return pkg
}

const initPyproject = "[project]\nname = \"example-idea-gaia\"\nrequires-python = \">=3.13\"\ndependencies = [\"gaia-lang>=0.4.4\"]\n"

func TestHardenStripsGitAndRetargetsPins(t *testing.T) {
	pkg := initShaped(t, initPyproject)
	if err := Harden(pkg); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{".git", ".venv", "uv.lock"} {
		if _, err := os.Lstat(filepath.Join(pkg, gone)); err == nil {
			t.Errorf("%s left behind", gone)
		}
	}
	py, _ := os.ReadFile(filepath.Join(pkg, "pyproject.toml"))
	want := "[project]\nname = \"example-idea-gaia\"\nrequires-python = \">=3.12\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n"
	if string(py) != want {
		t.Errorf("pyproject =\n%s\nwant\n%s", py, want)
	}
	if v, _ := os.ReadFile(filepath.Join(pkg, ".python-version")); string(v) != "3.12\n" {
		t.Errorf(".python-version = %q", v)
	}
}

func TestHardenStopsOnTemplateDrift(t *testing.T) {
	drifted := strings.Replace(initPyproject, "gaia-lang>=0.4.4", "gaia-lang>=9.9.9", 1)
	pkg := initShaped(t, drifted)
	err := Harden(pkg)
	if !errors.Is(err, ErrTemplateDrift) || !strings.Contains(err.Error(), "template") {
		t.Fatalf("Harden = %v, want template drift", err)
	}
	if py, _ := os.ReadFile(filepath.Join(pkg, "pyproject.toml")); string(py) != drifted {
		t.Error("pyproject.toml changed despite the drift")
	}
	if _, err := os.Lstat(filepath.Join(pkg, ".git")); err == nil {
		t.Error("the nested .git goes first, even on drift")
	}
}

func TestHardenRequiresPyproject(t *testing.T) {
	err := Harden(initShaped(t, ""))
	if err == nil || !strings.Contains(err.Error(), "pyproject") {
		t.Errorf("Harden = %v, want a pyproject error", err)
	}
}

func TestFindModuleDir(t *testing.T) {
	pkg := t.TempDir()
	if _, err := FindModuleDir(pkg); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no src: %v, want not-exist", err)
	}
	os.MkdirAll(filepath.Join(pkg, "src", "example_idea"), 0o755)
	if _, err := FindModuleDir(pkg); err == nil || !strings.Contains(err.Error(), "refusing to guess") {
		t.Errorf("zero modules: %v", err)
	}
	os.WriteFile(filepath.Join(pkg, "src", "example_idea", "__init__.py"), nil, 0o644)
	if got, err := FindModuleDir(pkg); err != nil || got != filepath.Join(pkg, "src", "example_idea") {
		t.Errorf("one module: %q, %v", got, err)
	}
	os.MkdirAll(filepath.Join(pkg, "src", "other"), 0o755)
	os.WriteFile(filepath.Join(pkg, "src", "other", "__init__.py"), nil, 0o644)
	if _, err := FindModuleDir(pkg); err == nil || !strings.Contains(err.Error(), "refusing to guess") {
		t.Errorf("two modules: %v", err)
	}
}

func TestInGitWorkTree(t *testing.T) {
	dir := t.TempDir()
	if InGitWorkTree(dir) {
		t.Skip("the temporary directory sits inside a git work tree")
	}
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	sub := filepath.Join(dir, "a", "b")
	os.MkdirAll(sub, 0o755)
	if !InGitWorkTree(sub) {
		t.Error("ancestor .git not found")
	}
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// FuzzCheckSlug: an accepted slug yields a Python identifier module, a
// single path element, and a template that names it.
func FuzzCheckSlug(f *testing.F) {
	for _, s := range []string{"my-idea", "a", "../x", "my-idea-gaia", "gaia", "A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, slug string) {
		if CheckSlug(slug) != nil {
			return
		}
		if !identRE.MatchString(ModuleName(slug)) || filepath.Base(slug) != slug || ModuleName(slug) == "gaia" || pythonKeywords.Get()[ModuleName(slug)] {
			t.Fatalf("accepted slug %q gives module %q", slug, ModuleName(slug))
		}
		if !strings.Contains(Template(slug), slug) {
			t.Fatalf("template lacks %q", slug)
		}
	})
}
