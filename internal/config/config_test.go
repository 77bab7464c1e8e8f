package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

var (
	_ = diag.Register(diag.Rule{Code: "NULLIUS901", Name: "test-config-error", Severity: diag.Error, Title: "test"})
	_ = diag.Register(diag.Rule{Code: "NULLIUS902", Name: "test-config-warning", Severity: diag.Warning, Title: "test"})
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGlob(t *testing.T) {
	cases := []struct {
		glob, path string
		want       bool
	}{
		{"scratch/**", "scratch/a/b.py", true},
		{"scratch/**", "src/scratch.py", false},
		{"**/legacy.py", "src/x/legacy.py", true},
		{"**/legacy.py", "legacy.py", true},
		{"legacy.py", "src/x/legacy.py", true},
		{"src/*.py", "src/a.py", true},
		{"src/*.py", "src/x/a.py", false},
		{"src/x", "src/x/a.py", true},
		{"a?.py", "ab.py", true},
		{"a.py", "axpy", false},
	}
	for _, c := range cases {
		re, err := Glob(c.glob)
		if err != nil {
			t.Fatal(err)
		}
		if got := re.MatchString(c.path); got != c.want {
			t.Errorf("Glob(%q).Match(%q) = %v, want %v", c.glob, c.path, got, c.want)
		}
	}
}

// apply configures each finding as a lint run does (Resolver.Configure),
// keeping those not dropped; the error is the first configuration that
// cannot be loaded.
func apply(r *Resolver, ds []diag.Diagnostic) ([]diag.Diagnostic, error) {
	var out []diag.Diagnostic
	for _, d := range ds {
		d, keep, err := r.Configure(d)
		if err != nil {
			return nil, err
		}
		if keep {
			out = append(out, d)
		}
	}
	return out, nil
}

func TestClosestWinsAndApply(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "nullius.toml"), "warnings = false\n")
	write(t, filepath.Join(root, "pkg", "pyproject.toml"), `[project]
name = "x-gaia"
[tool.nullius]
exclude = ["src/scratch/**"]
per-file-ignores = { "src/x/legacy.py" = ["test-config-warning", "NULLIUS901"] }
`)
	write(t, filepath.Join(root, "other", "pyproject.toml"), "[project]\nname = \"y\"\n")
	r := NewResolverWith(ResolverOptions{})
	ds := []diag.Diagnostic{
		{Code: "NULLIUS902", Name: "test-config-warning", Severity: diag.Warning, Path: filepath.Join(root, "other", "a.py")},
		{Code: "NULLIUS901", Severity: diag.Error, Path: filepath.Join(root, "pkg", "src", "scratch", "s.py")},
		{Code: "NULLIUS901", Severity: diag.Error, Path: filepath.Join(root, "pkg", "src", "x", "legacy.py")},
		{Code: "NULLIUS902", Name: "test-config-warning", Severity: diag.Warning, Path: filepath.Join(root, "pkg", "src", "x", "legacy.py")},
		{Code: "NULLIUS901", Severity: diag.Error, Path: filepath.Join(root, "pkg", "src", "x", "main.py")},
	}
	got, err := apply(r, ds)
	if err != nil {
		t.Fatal(err)
	}
	// other/ has no [tool.nullius], so the root nullius.toml (warnings off) governs it: dropped.
	if len(got) != 4 {
		t.Fatalf("got %d findings, want 4: %+v", len(got), got)
	}
	want := []bool{true, true, true, false}
	for i, d := range got {
		if d.Suppressed != want[i] {
			t.Errorf("finding %d (%s %s) suppressed=%v, want %v", i, d.Code, d.Path, d.Suppressed, want[i])
		}
	}
	if !diag.HasBlocking(got) {
		t.Fatal("the unsuppressed error must still block")
	}
}

func TestExtend(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "base.toml"), "ignore = [\"NULLIUS902\"]\nwarnings = true\n")
	write(t, filepath.Join(root, "sub", "nullius.toml"), "extend = \"../base.toml\"\nexclude = [\"x/**\"]\n")
	c, err := Load(filepath.Join(root, "sub", "nullius.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Settings.Ignore) != 1 || len(c.Settings.Exclude) != 1 || c.Settings.Warnings == nil {
		t.Fatalf("extend did not merge: %+v", c.Settings)
	}
}

func TestErrors(t *testing.T) {
	root := t.TempDir()
	cases := map[string]string{
		"unknown.toml": "exlude = [\"a\"]\n",
		"badcode.toml": "ignore = [\"GAIA999999\"]\n",
		"syntax.toml":  "ignore = [\n",
		"cycle.toml":   "extend = \"cycle.toml\"\n",
	}
	wants := map[string]string{
		"unknown.toml": `unknown configuration key "exlude" (did you mean "exclude"?)`,
		"badcode.toml": `unknown rule "GAIA999999"`,
		"syntax.toml":  "syntax.toml:1:11: not valid TOML: array is incomplete",
		"cycle.toml":   "cycle",
	}
	for name, content := range cases {
		p := filepath.Join(root, name)
		write(t, p, content)
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), wants[name]) {
			t.Errorf("Load(%s) error = %v, want it to contain %q", name, err, wants[name])
		}
	}
}

// A value of the wrong type is said in the file's own terms: the key, the
// line and column, what it must be, and what is there (issue 16: it said
// "cannot decode TOML string into struct field config.Settings.Warnings of
// type bool").
func TestWrongTypeMessages(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"nullius.toml", "warnings = \"no\"\n",
			`nullius.toml:1:12: warnings must be true or false (warnings = false), not a string: "no"`},
		{"nullius.toml", "\nwarnings = 1 # off\n",
			`nullius.toml:2:12: warnings must be true or false (warnings = false), not an integer: 1`},
		{"nullius.toml", "ignore = \"GAIA011\"\n",
			`nullius.toml:1:10: ignore must be an array of rule codes or names (ignore = ["GAIA505"]), not a string: "GAIA011"`},
		{"nullius.toml", "exclude = [\"a\", 1]\n",
			`nullius.toml:1:17: exclude must be an array of glob patterns (exclude = ["tests/**"]), not an array holding an integer: 1`},
		{"nullius.toml", "extend = 3\n",
			`nullius.toml:1:10: extend must be a string, the path of another configuration file (extend = "../nullius.toml"), not an integer: 3`},
		{"nullius.toml", "per-file-ignores = [\"a\"]\n",
			`nullius.toml:1:20: per-file-ignores must be a table of glob = array of rule codes (per-file-ignores = { "tests/**" = ["GAIA011"] }), not an array: ["a"]`},
		{"nullius.toml", "per-file-ignores = { \"a\" = \"GAIA011\" }\n",
			`nullius.toml:1:28: each per-file-ignores entry must be an array of rule codes or names ("tests/**" = ["GAIA011"]), not a string: "GAIA011"`},
		{"nullius.toml", "per-file-ignores = { \"a\" = [1] }\n",
			`nullius.toml:1:29: each per-file-ignores entry must be an array of rule codes or names ("tests/**" = ["GAIA011"]), not an array holding an integer: 1`},
		{"pyproject.toml", "[project]\nname = \"x\"\n[tool.nullius]\nwarnings = [true]\n",
			`pyproject.toml:4:12: warnings must be true or false (warnings = false), not an array: [true]`},
		{"pyproject.toml", "[project]\nname = \"x\"\n[tool.nullius]\ncampaign-id = 12\n",
			`pyproject.toml:4:15: campaign-id must be a string (campaign-id = "c0ffee12"), not an integer: 12`},
		{"pyproject.toml", "[tool.nullius]\nwarnigns = false\n",
			`pyproject.toml:2:1: unknown configuration key "warnigns" (did you mean "warnings"?) (line 2, column 1)`},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, c.name)
		write(t, p, c.content)
		_, err := Load(p)
		got := ""
		if err != nil {
			got = strings.TrimPrefix(err.Error(), dir+string(filepath.Separator))
		}
		if !strings.HasPrefix(got, c.want) || strings.Contains(got, "struct field") || strings.Contains(got, "config.Settings") {
			t.Errorf("%q:\n got %s\nwant %s", c.content, got, c.want)
		}
	}
}

func TestPyprojectWithoutTable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pyproject.toml")
	write(t, p, "[project]\nname = \"x\"\n")
	c, err := Load(p)
	if c != nil || err != nil {
		t.Fatalf("Load = %v, %v; want nil, nil", c, err)
	}
}

// TestBindingIsNotConfiguration: a package's binding keys are accepted in
// its [tool.nullius], and a table holding only them does not hide the
// project's configuration above it; in a shared nullius.toml they are an
// error (they would bind every package below it to one idea).
func TestBindingIsNotConfiguration(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "nullius.toml"), "warnings = false\n")
	bound := "[project]\nname = \"x\"\n[tool.nullius]\ncampaign-id = \"cmp00001\"\nnode-id = \"nd000001\"\n"
	write(t, filepath.Join(root, "pkg", "pyproject.toml"), bound)
	c, err := Find(filepath.Join(root, "pkg", "src"))
	if err != nil || c == nil || c.Path != filepath.Join(root, "nullius.toml") {
		t.Fatalf("Find below a binding-only table = %+v, %v; want the root nullius.toml", c, err)
	}
	write(t, filepath.Join(root, "cfg", "pyproject.toml"), bound+"ignore = [\"NULLIUS902\"]\n")
	c, err = Find(filepath.Join(root, "cfg"))
	if err != nil || c == nil || c.Path != filepath.Join(root, "cfg", "pyproject.toml") || len(c.Settings.Ignore) != 1 {
		t.Fatalf("Find with binding and settings = %+v, %v; want the package's table", c, err)
	}
	p := filepath.Join(root, "shared", "nullius.toml")
	write(t, p, "node-id = \"nd000001\"\n")
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "belong in the package's pyproject.toml") {
		t.Errorf("Load of a nullius.toml with node-id = %v", err)
	}
}

// FuzzLoad: arbitrary config bytes give a config or an *Error, never a panic.
func FuzzLoad(f *testing.F) {
	f.Add("warnings = false\n", false)
	f.Add("[tool.nullius]\nexclude = [\"**/x\"]\n", true)
	f.Add("per-file-ignores = { \"a\" = [1] }\n", false)
	f.Add("exclude = [\"[\"]", false)
	f.Fuzz(func(t *testing.T, content string, pyproject bool) {
		name := NulliusTOML
		if pyproject {
			name = PyprojectTOML
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(p)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if c != nil {
			r := NewResolverWith(ResolverOptions{Explicit: c})
			if _, err := apply(r, []diag.Diagnostic{{Code: "NULLIUS901", Severity: diag.Error, Path: "a/b.py"}}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestPlainPyprojectIsNotDecoded: a pyproject.toml the caller reports as
// plain (decoded already, no [tool.nullius]) is neither read nor decoded
// again, and the closest configuration above it governs.
func TestPlainPyprojectIsNotDecoded(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "nullius.toml"), "warnings = false\n")
	pp := filepath.Join(root, "pkg", "pyproject.toml")
	write(t, pp, "[project]\nname = \"x-gaia\"\n")
	for _, plain := range []bool{false, true} {
		var read []string
		r := NewResolverWith(ResolverOptions{
			Read:  func(abs string) ([]byte, error) { read = append(read, abs); return readFile(abs) },
			Plain: func(abs string) bool { return plain && abs == pp },
		})
		c, err := r.ForDir(filepath.Join(root, "pkg"))
		if err != nil || c == nil || c.Path != filepath.Join(root, "nullius.toml") {
			t.Fatalf("plain=%v: ForDir = %+v, %v; want the root nullius.toml", plain, c, err)
		}
		if got := slices.Contains(read, pp); got == plain {
			t.Errorf("plain=%v: pyproject.toml read = %v, want %v (reads: %q)", plain, got, !plain, read)
		}
	}
}

// A run's configuration files that repeat a pattern share its compiled
// regexp: one resolver compiles each distinct glob once, however many
// packages' pyproject.toml files list it.
func TestResolverCompilesEachGlobOnce(t *testing.T) {
	root := t.TempDir()
	table := "[project]\nname = \"x-gaia\"\n[tool.nullius]\nexclude = [\"scratch/**\"]\nper-file-ignores = { \"**/evidence.py\" = [\"NULLIUS902\"] }\n"
	write(t, filepath.Join(root, "a", "pyproject.toml"), table)
	write(t, filepath.Join(root, "b", "pyproject.toml"), table)
	r := NewResolverWith(ResolverOptions{})
	a, errA := r.ForDir(filepath.Join(root, "a"))
	b, errB := r.ForDir(filepath.Join(root, "b"))
	if errA != nil || errB != nil || a == nil || b == nil || a == b {
		t.Fatalf("a: %v %v; b: %v %v", a, errA, b, errB)
	}
	if a.exclude[0] != b.exclude[0] || a.perFile[0].re != b.perFile[0].re {
		t.Error("the same glob in two files was compiled twice")
	}
}

// A directory spelled uncleanly is the directory: its configuration, and
// a broken one's error, are found where the clean spelling finds them.
func TestForDirUnclean(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "nullius.toml"), "warnigns = false\n")
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := NewResolverWith(ResolverOptions{Cwd: dir})
	want := filepath.Join(dir, "a", "nullius.toml")
	for _, p := range []string{"a/b", "a/./b", "a/b/", "a/b/.", "a//b", "./a/b", "a/b/../b", filepath.Join(dir, "a", "b") + "/."} {
		_, err := r.ForDir(p)
		var ce *Error
		if !errors.As(err, &ce) || ce.Path != want {
			t.Errorf("ForDir(%q): error %v; want one at %s", p, err, want)
		}
	}
}

// abs gives what filepath.Join gives against the working directory: a
// clean path, the resolver's memo key, without allocating for one
// already clean.
func TestAbsIsClean(t *testing.T) {
	paths := []string{".", "a", "a/b", "a/./b", "a/b/", "a/b/.", "a//b", "./a", "../a", "..", "a/..", "..a/b", "a/..b", "", "/x/./y", "/"}
	for _, cwd := range []string{"/w/d", "/w/d/", "/"} {
		r := NewResolverWith(ResolverOptions{Cwd: cwd})
		for _, p := range paths {
			want := filepath.Join(cwd, p)
			if filepath.IsAbs(p) {
				want = filepath.Clean(p)
			}
			if got := r.abs(p); got != want {
				t.Errorf("cwd %q: abs(%q) = %q, want %q", cwd, p, got, want)
			}
		}
	}
	r := NewResolverWith(ResolverOptions{Cwd: "/w/d"})
	if n := testing.AllocsPerRun(100, func() { _ = r.abs("pkg/mod/x.py") }); n > 1 {
		t.Errorf("abs of a clean path: %v allocations, want 1 (the join)", n)
	}
}
