package analyzers

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/nullius-dev/nullius/internal/testrace"
)

// quickPyproject reads what toml.Unmarshal decodes of every pyproject.toml
// it takes (the fields discovery reads: the project name, the
// dependencies, the [tool] keys), and takes the plain ones Gaia packages
// have.
func FuzzQuickPyproject(f *testing.F) {
	for _, s := range pyprojectSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got, ok := quickPyproject([]byte(src))
		if !ok {
			return
		}
		var want pyproject
		if err := toml.Unmarshal([]byte(src), &want); err != nil {
			t.Fatalf("quickPyproject took %q, which toml.Unmarshal refuses: %v", src, err)
		}
		if got.Project.Name != want.Project.Name || !slices.Equal(got.Project.Dependencies, want.Project.Dependencies) ||
			!slices.Equal(slices.Sorted(maps.Keys(got.Tool)), slices.Sorted(maps.Keys(want.Tool))) {
			t.Fatalf("%q: quickPyproject %+v, toml.Unmarshal %+v", src, got, want)
		}
	})
}

// pyprojectSeeds are every pyproject.toml of the fixtures, and shapes at
// the edges of what quickPyproject takes.
func pyprojectSeeds(t testing.TB) []string {
	var out []string
	err := filepath.WalkDir("../fixtures", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "pyproject.toml" && d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, string(b))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return append(out,
		"[project]\nname = \"a-gaia\"\ndependencies = [\"gaia-lang==0.5\", 'x']\n[tool.gaia]\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\n",
		"[project]\nname = \"a\\u0041\"\n[build-system]\nrequires = [\"hatchling\"]\n",
		"[project]\nname = '''multi\nline'''\n",
		"[project]\nname = \"a\"\nName = \"b\"\n",
		"[Project]\nname = \"a\"\n",
		"[project]\nname = \"a\"\n[project]\nversion = \"1\"\n",
		"[project]\nname = 1\n",
		"[project]\nname = \"a\"\nversion = 1\n",
		"[project.name]\nx = \"a\"\n",
		"[project]\nname = \"a\"\n[project.urls]\nname = \"b\"\n",
		"[tool]\ngaia = \"x\"\n[tool.gaia]\n",
		"[tool.gaia.sub]\n[tool]\ngaia = true\n",
		"[tool.gaia.sub]\n[tool.gaia]\nx = \"y\"\n",
		"project = \"x\"\n",
		"tool.gaia = \"x\"\n",
		"[project]\nname = \"a\"\nauthors = [{name = \"x\"}]\n",
		"[[tool.x]]\na = \"b\"\n",
		"[project]\ndependencies = [[\"a\"], \"b\"]\n",
		"[project]\ndependencies = []\nname = \"\"\n",
		"[project]\nname = \"a\" # comment\n\n# another\n",
		"[project]\nname = \"\\xff\"\n",
		"[project\nname = \"a\"\n",
	)
}

// The fixtures' pyproject.toml files are all taken (the plain shape is the
// common one), and each edge seed is taken or not as its shape says.
func TestQuickPyprojectTakes(t *testing.T) {
	for _, src := range pyprojectSeeds(t) {
		_, ok := quickPyproject([]byte(src))
		var pp pyproject
		err := toml.Unmarshal([]byte(src), &pp)
		if ok && err != nil {
			t.Errorf("%q taken, but toml.Unmarshal refuses it: %v", src, err)
		}
	}
	good, err := os.ReadFile("../fixtures/lint/good/pyproject.toml")
	if err != nil {
		t.Fatal(err)
	}
	if pp, ok := quickPyproject(good); !ok || pp.Project.Name != "sterile-neutrino-gaia" || !pp.isGaia() {
		t.Errorf("the good fixture's pyproject.toml: %+v, %v; want it taken", pp, ok)
	}
	for _, src := range []string{"[Project]\nname = \"a\"\n", "[project]\nname = 1\n", "[project]\nversion = 1\n", "[[tool.x]]\n", "a.b = \"c\"\n", "[project.name]\n"} {
		if _, ok := quickPyproject([]byte(src)); ok {
			t.Errorf("%q taken; it is toml.Unmarshal's", src)
		}
	}
}

// BenchmarkDecodePyproject decodes the pyproject.toml of a plain Gaia
// package (what discovery reads once per package) and of one with a
// [tool.nullius] table.
func BenchmarkDecodePyproject(b *testing.B) {
	for _, src := range []string{
		"[project]\nname = \"idea-453-gaia\"\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n",
		"[project]\nname = \"idea-453-gaia\"\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n\n[tool.nullius]\nignore = [\"GAIA505\"]\nexclude = [\"scratch/**\"]\n",
	} {
		b.Run(map[bool]string{false: "plain", true: "tool"}[strings.Contains(src, "[tool")], func(b *testing.B) {
			for b.Loop() {
				if _, err := decodePyproject([]byte(src)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A plain pyproject.toml costs quickPyproject the strings and the slice it
// returns and the keys of the paths it checks for repeats: the parser,
// its nodes and the map of paths are reused from call to call.
func TestQuickPyprojectAllocs(t *testing.T) {
	if testrace.Enabled {
		t.Skip("the race detector's runtime allocates differently; make test checks the bound")
	}
	src := []byte("[project]\nname = \"idea-453-gaia\"\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n")
	quickPyproject(src)
	// name, the dependencies slice and its one string, and one key for
	// each of the four paths ([project] and its three keys).
	const budget = 7
	if n := testing.AllocsPerRun(100, func() { quickPyproject(src) }); n > budget {
		t.Errorf("quickPyproject of a plain pyproject.toml: %v allocations, want at most %d", n, budget)
	}
}
