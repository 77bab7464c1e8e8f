package analyzers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/config"
)

func TestImportName(t *testing.T) {
	for in, want := range map[string]string{
		"my-idea-gaia":    "my_idea",
		"my-idea":         "my_idea",
		"plain":           "plain",
		"gaia":            "gaia",
		"a-gaia-gaia":     "a_gaia",
		"sterile-nu-gaia": "sterile_nu",
	} {
		if got := ImportName(in); got != want {
			t.Errorf("ImportName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Python's Path ordering compares components: src/a/b.py < src/a.py.
func TestComparePaths(t *testing.T) {
	got := []string{"src/a.py", "src/a/b.py", "src/a/__init__.py", "src/B.py", "src/a-b.py"}
	slices.SortFunc(got, comparePaths)
	want := []string{"src/B.py", "src/a/__init__.py", "src/a/b.py", "src/a-b.py", "src/a.py"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// tree writes files (path -> content) under a temp dir and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const gaiaProject = "[project]\nname = \"my-idea-gaia\"\n"

func TestDiscoverLayouts(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		root  string // relative source root, "" = none
		want  []string
		code  string // expected discovery diagnostic
	}{
		{"src layout", map[string]string{"pyproject.toml": gaiaProject, "src/my_idea/__init__.py": "", "src/my_idea/sub/x.py": ""},
			"src/my_idea", []string{"src/my_idea/__init__.py", "src/my_idea/sub/x.py"}, ""},
		{"flat layout first (W1)", map[string]string{"pyproject.toml": gaiaProject, "my_idea/__init__.py": "", "src/my_idea/__init__.py": ""},
			"my_idea", []string{"my_idea/__init__.py"}, ""},
		{"only compiled files (W17)", map[string]string{"pyproject.toml": gaiaProject, "src/my_idea/__init__.py": "", "src/scratch.py": "", "examples/demo.py": "", "src/my_idea/__pycache__/x.py": "", "src/my_idea/.hidden/y.py": ""},
			"src/my_idea", []string{"src/my_idea/__init__.py"}, ""},
		{"no module (W1)", map[string]string{"pyproject.toml": gaiaProject, "src/other/__init__.py": ""}, "", nil, "GAIA002"},
		{"empty module", map[string]string{"pyproject.toml": gaiaProject, "src/my_idea/README.md": ""}, "", nil, "GAIA002"},
		{"bad toml", map[string]string{"pyproject.toml": "[project\nname=", "src/my_idea/__init__.py": ""}, "", nil, "GAIA003"},
		{"escaping name", map[string]string{"pyproject.toml": "[project]\nname = \"../outside\"\n", "src/my_idea/__init__.py": ""}, "", nil, "GAIA003"},
		{"no name", map[string]string{"pyproject.toml": "[project]\nversion = \"1\"\n", "src/my_idea/__init__.py": ""}, "", nil, "GAIA003"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tree(t, tt.files)
			pkgs, ds, err := Discover([]string{dir})
			if err != nil {
				t.Fatal(err)
			}
			if tt.code != "" {
				if len(ds) != 1 || ds[0].Code != tt.code || len(pkgs) != 0 {
					t.Fatalf("got pkgs %v diags %v, want one %s", pkgs, ds, tt.code)
				}
				if want := filepath.ToSlash(filepath.Join(dir, "pyproject.toml")); ds[0].Path != want {
					t.Errorf("diagnostic at %q, want %q", ds[0].Path, want)
				}
				return
			}
			wantWarn := strings.Contains(tt.name, "flat layout") // GAIA903: both layouts exist
			if (len(ds) == 1 && ds[0].Code == "GAIA903") != wantWarn || len(ds) > 1 || len(pkgs) != 1 {
				t.Fatalf("got pkgs %v diags %v", pkgs, ds)
			}
			p := pkgs[0]
			slash := filepath.ToSlash(dir) + "/"
			if p.ImportName != "my_idea" || p.SourceRoot != slash+tt.root {
				t.Errorf("package %+v, want root %s", p, tt.root)
			}
			var rel []string
			for _, f := range p.Files {
				rel = append(rel, strings.TrimPrefix(f, slash))
			}
			if !slices.Equal(rel, tt.want) {
				t.Errorf("files %q, want %q", rel, tt.want)
			}
		})
	}
}

func TestDiscoverRepository(t *testing.T) {
	dir := tree(t, map[string]string{
		"pyproject.toml":                    "[project]\nname = \"research-tools\"\n", // not a Gaia package: skipped
		"ideas/a-gaia/pyproject.toml":       "[project]\nname = \"a-gaia\"\n",
		"ideas/a-gaia/src/a/__init__.py":    "",
		"ideas/b/pyproject.toml":            "[project]\nname = \"b\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n",
		"ideas/b/b/__init__.py":             "",
		"ideas/.venv/pyproject.toml":        "[project]\nname = \"x-gaia\"\n",
		"node_modules/z/pyproject.toml":     "[project]\nname = \"z-gaia\"\n",
		"gaia-sdk/pyproject.toml":           "[project]\nname = \"sdk-gaia\"\n",
		"ideas/c-gaia/.gaia/pyproject.toml": "[project]\nname = \"c-gaia\"\n",
		"ideas/broken-gaia/pyproject.toml":  "[project]\nname = \"broken-gaia\"\n",
	})
	pkgs, ds, err := Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range pkgs {
		names = append(names, p.ImportName)
	}
	if !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("packages %q, want [a b]", names)
	}
	if len(ds) != 1 || ds[0].Code != "GAIA002" || !strings.Contains(ds[0].Path, "broken-gaia") {
		t.Errorf("diagnostics %v, want GAIA002 for broken-gaia", ds)
	}
}

func TestDiscoverPathsAndErrors(t *testing.T) {
	dir := tree(t, map[string]string{
		"pkg/pyproject.toml":          gaiaProject,
		"pkg/src/my_idea/__init__.py": "",
		"pkg/src/my_idea/b.py":        "",
		"loose/script.py":             "",
		"empty/readme.txt":            "",
	})
	chdir(t, dir)
	// A relative argument gives relative, slash-separated paths.
	pkgs, _, err := Discover([]string{"pkg"})
	if err != nil || len(pkgs) != 1 || pkgs[0].Files[0] != "pkg/src/my_idea/__init__.py" {
		t.Fatalf("relative package: %v %v", pkgs, err)
	}
	// A .py file inside a package: that file only, in the package's context.
	pkgs, _, err = Discover([]string{"pkg/src/my_idea/b.py"})
	if err != nil || len(pkgs) != 1 || !slices.Equal(pkgs[0].Files, []string{"pkg/src/my_idea/b.py"}) || pkgs[0].ImportName != "my_idea" || !pkgs[0].Partial || pkgs[0].Dir != "pkg" {
		t.Fatalf("file in package: %+v %v", pkgs, err)
	}
	// A folder inside a package: its files, partial.
	pkgs, _, err = Discover([]string{"pkg/src/my_idea"})
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Files) != 2 || !pkgs[0].Partial {
		t.Fatalf("folder in package: %+v %v", pkgs, err)
	}
	// "." inside a package's module folder.
	chdir(t, filepath.Join(dir, "pkg", "src", "my_idea"))
	pkgs, _, err = Discover([]string{"."})
	if err != nil || len(pkgs) != 1 || pkgs[0].Dir != "../.." || !slices.Equal(pkgs[0].Files, []string{"__init__.py", "b.py"}) {
		t.Fatalf("dot in package: %+v %v", pkgs, err)
	}
	chdir(t, dir)
	// A loose .py file with no package above it is linted alone.
	pkgs, _, err = Discover([]string{"loose/script.py"})
	if err != nil || len(pkgs) != 1 || pkgs[0].Files[0] != "loose/script.py" {
		t.Fatalf("loose file: %+v %v", pkgs, err)
	}
	for _, bad := range []struct{ arg, msg string }{
		{"missing", "missing: no such file or directory"},
		{"empty", "no Gaia package found under empty"},
		{"empty/readme.txt", "not a Python file or a directory"},
	} {
		if _, _, err := Discover([]string{bad.arg}); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("Discover(%q) error = %v, want %q", bad.arg, err, bad.msg)
		}
	}
}

func chdir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chdir(old) })
}

// FuzzReadPyproject feeds arbitrary pyproject.toml text to discovery: it
// must never panic, and every outcome is a package or one located GAIA00x.
func FuzzReadPyproject(f *testing.F) {
	for _, s := range []string{
		gaiaProject, "[project\nname=", "[project]\nversion = 1\n", "[project]\nname = 3\n",
		"[project]\nname = \"a-gaia\"\ndependencies = [\"gaia-lang\"]\n[tool.gaia]\n", "\xff\xfe", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs, ds, err := Discover([]string{dir})
		if err != nil {
			t.Fatal(err)
		}
		if len(pkgs)+len(ds) != 1 {
			t.Fatalf("want one outcome, got %v %v", pkgs, ds)
		}
		for _, d := range ds {
			if (d.Code != "GAIA002" && d.Code != "GAIA003") || d.Line < 1 || d.Column < 1 || strings.Contains(d.Message, "\n") {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
	})
}

// TestPlainPyproject: discovery marks a pyproject.toml it decoded without
// a [tool.nullius] table (configuration then does not decode it again),
// and never one with the table or one that does not decode.
func TestPlainPyproject(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		plain     bool
	}{
		{"no table", "[project]\nname = \"a-gaia\"\n[tool.gaia]\ntype = \"x\"\n", true},
		{"table", "[project]\nname = \"a-gaia\"\n[tool.nullius]\nwarnings = false\n", false},
		{"dotted table", "[project]\nname = \"a-gaia\"\n[tool]\nnullius.warnings = false\n", false},
		{"binding only", "[project]\nname = \"a-gaia\"\n[tool.nullius]\nnode-id = \"n0de0001\"\n", false},
		{"not TOML", "[project\nname = \"a-gaia\"\n", false},
		{"tool not a table", "tool = 1\n[project]\nname = \"a-gaia\"\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			s := newScan()
			s.readPyproject(dir)
			path := filepath.Join(dir, "pyproject.toml")
			if got := s.t.isPlain(path); got != tt.plain {
				t.Errorf("isPlain = %v, want %v", got, tt.plain)
			}
			// What skipping the decode stands for: no configuration.
			if c, err := config.Load(path); tt.plain && (c != nil || err != nil) {
				t.Errorf("config.Load of a plain pyproject.toml = %+v, %v; want nil, nil", c, err)
			}
		})
	}
}

// TestTreeSharesClimbingPaths: a package named by a path that climbs
// ("../p") is cached under the clean absolute paths the configuration
// lookup asks for, so its pyproject.toml is read and its directory listed
// once for both.
func TestTreeSharesClimbingPaths(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a", "p"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pp := filepath.Join(root, "p", "pyproject.toml")
	if err := os.WriteFile(pp, []byte("[project]\nname = \"p-gaia\"\n[tool.nullius]\nwarnings = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "a"))
	s := newScan()
	if _, dg := s.readPyproject("../p"); dg != nil {
		t.Fatal(dg)
	}
	if _, _, ok := s.t.files.Peek(pp); !ok {
		t.Errorf("pyproject.toml read as ../p/pyproject.toml is not cached under %s", pp)
	}
	if !s.hasPyproject("../p") {
		t.Fatal("hasPyproject(../p) = false")
	}
	if exists, known := s.t.holds(filepath.Join(root, "p"), "pyproject.toml"); !exists || !known {
		t.Errorf("holds after listing ../p = %v, %v; want true, true", exists, known)
	}
}

// TestTreeKeys: every spelling of one path, relative or absolute, is one
// key of the run's caches, and a sibling directory sharing the working
// directory's name as a prefix is not taken for a path under it.
func TestTreeKeys(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "w")
	if err := os.MkdirAll(filepath.Join(cwd, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(cwd)
	tr := newFSTree()
	for _, c := range []struct{ in, want string }{
		{"p", "p"},
		{filepath.Join(cwd, "p"), "p"},
		{"../w/p", "p"},
		{".", "."},
		{cwd, "."},
		{"..", root},
		{root, root},
		{cwd + "x", cwd + "x"},
		{filepath.Join(root, "q"), filepath.Join(root, "q")},
	} {
		if got := tr.key(c.in); got != c.want {
			t.Errorf("key(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if _, err := tr.list("p"); err != nil {
		t.Fatal(err)
	}
	if _, known := tr.holds(filepath.Join(cwd, "p"), "pyproject.toml"); !known {
		t.Error("p listed as a relative path is not known by its absolute path")
	}
	if tr2 := (&fsTree{cwd: "/"}); tr2.key("/x/y") != "x/y" || tr2.key("/") != "." {
		t.Errorf("with / as the working directory: key(/x/y) = %q, key(/) = %q", tr2.key("/x/y"), tr2.key("/"))
	}
}
