package fakes

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGaiaFake pins the behaviour the extract and scaffold scripts rely on
// (the bash twin, fixtures/fakegaia/gaia, is tested by pipeline/gaiacli).
func TestGaiaFake(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ir := filepath.Join(dir, "ir-src.json")
	os.WriteFile(ir, []byte(`{"x": 1}`), 0o644)
	for k, v := range map[string]string{GaiaEnvLog: "calls.log", GaiaEnvIR: ir, GaiaEnvBeliefs: "",
		GaiaEnvFail: "", GaiaEnvHang: "", GaiaEnvVersion: "", GaiaEnvFailCode: "", GaiaEnvFailOutput: ""} {
		t.Setenv(k, v)
	}
	steps := []struct {
		args []string
		code int
	}{
		{[]string{"--version"}, 0},
		{[]string{"build", "compile", "pkg"}, 0},
		{[]string{"build", "check", "pkg"}, 0},
		{[]string{"run", "infer", "pkg"}, 0},
		{[]string{"build", "init", "my-idea-gaia"}, 0},
		{[]string{"bogus"}, 2},
	}
	for _, s := range steps {
		if got := gaiaRun(s.args); got != s.code {
			t.Errorf("gaia %v exited %d, want %d", s.args, got, s.code)
		}
	}
	if got, _ := os.ReadFile("pkg/.gaia/ir.json"); string(got) != `{"x": 1}` {
		t.Errorf("compile wrote %q", got)
	}
	if _, err := os.Stat("pkg/.gaia/beliefs.json"); err == nil {
		t.Error("infer wrote beliefs.json without FAKE_GAIA_BELIEFS")
	}
	for _, p := range []string{".git", ".venv", "uv.lock", "src/my_idea/__init__.py"} {
		if _, err := os.Stat(filepath.Join("my-idea-gaia", p)); err != nil {
			t.Errorf("init did not write %s: %v", p, err)
		}
	}
	py, _ := os.ReadFile("my-idea-gaia/pyproject.toml")
	if !strings.Contains(string(py), `"gaia-lang>=0.4.4"`) || !strings.Contains(string(py), `requires-python = ">=3.13"`) {
		t.Errorf("init pyproject lacks the pins hardening retargets:\n%s", py)
	}
	log, _ := os.ReadFile("calls.log")
	want := "--version\nbuild compile pkg\nbuild check pkg\nrun infer pkg\nbuild init my-idea-gaia\nbogus\n"
	if string(log) != want {
		t.Errorf("call log = %q, want %q", log, want)
	}

	t.Setenv(GaiaEnvFail, "check")
	t.Setenv(GaiaEnvFailCode, "7")
	if got := gaiaRun([]string{"build", "check", "pkg"}); got != 7 {
		t.Errorf("failing check exited %d, want 7", got)
	}
}

// TestGaiaTwins runs the Go fake and its bash twin
// (fixtures/fakegaia/gaia) through the same scenarios and compares exit
// status, call log and every file they leave, so the two stay in step. The
// twins share the copying mode (FAKE_GAIA_IR set); compiling for real is
// the Go fake's alone (TestGaiaCompiles).
func TestGaiaTwins(t *testing.T) {
	bash, err := filepath.Abs("../../fixtures/fakegaia/gaia")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "src.json")
	os.WriteFile(src, []byte(`{"fixture": true}`), 0o644)
	scenarios := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"version", nil, []string{"--version"}},
		{"version fails", map[string]string{GaiaEnvFail: "version", GaiaEnvFailCode: "4"}, []string{"--version"}},
		{"compile copies", map[string]string{GaiaEnvIR: src}, []string{"build", "compile", "pkg"}},
		{"compile fails", map[string]string{GaiaEnvIR: src, GaiaEnvFail: "compile", GaiaEnvFailCode: "3"}, []string{"build", "compile", "pkg"}},
		{"infer copies", map[string]string{GaiaEnvBeliefs: src}, []string{"run", "infer", "pkg"}},
		{"check", map[string]string{GaiaEnvIR: src}, []string{"build", "check", "pkg"}},
		{"render fails", map[string]string{GaiaEnvFail: "render"}, []string{"run", "render", "--target", "docs", "pkg"}},
		{"init", nil, []string{"build", "init", "my-idea-gaia"}},
		{"unknown", nil, []string{"publish"}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			for _, k := range []string{GaiaEnvFail, GaiaEnvFailCode, GaiaEnvFailOutput, GaiaEnvHang, GaiaEnvIR, GaiaEnvBeliefs, GaiaEnvVersion} {
				t.Setenv(k, sc.env[k])
			}
			goDir, bashDir := t.TempDir(), t.TempDir()
			t.Chdir(goDir)
			t.Setenv(GaiaEnvLog, filepath.Join(goDir, "calls.log"))
			goCode := gaiaRun(sc.args)

			t.Setenv(GaiaEnvLog, filepath.Join(bashDir, "calls.log"))
			cmd := exec.Command(bash, sc.args...)
			cmd.Dir = bashDir
			bashCode := 0
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Fatal(err)
				}
				bashCode = ee.ExitCode()
			}
			if goCode != bashCode {
				t.Errorf("exit status: Go %d, bash %d", goCode, bashCode)
			}
			if g, b := snapshot(t, goDir), snapshot(t, bashDir); g != b {
				t.Errorf("files differ:\nGo:\n%s\nbash:\n%s", g, b)
			}
		})
	}
}

// snapshot lists every file and directory under dir with file contents.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			b.WriteString(rel + "/\n")
			return nil
		}
		data, _ := os.ReadFile(p)
		b.WriteString(rel + ": " + string(data) + "\n")
		return nil
	})
	return b.String()
}

// TestGaiaCompiles drives the compiling mode (no FAKE_GAIA_IR): compile
// writes the IR gaiac compiles, check and infer refuse a stale one, infer
// writes beliefs bound to the IR.
func TestGaiaCompiles(t *testing.T) {
	root := repoRoot(t)
	t.Chdir(t.TempDir())
	for _, k := range []string{GaiaEnvLog, GaiaEnvIR, GaiaEnvBeliefs, GaiaEnvFail, GaiaEnvHang} {
		t.Setenv(k, "")
	}
	mod := filepath.Join("pkg", "src", "example_idea", "__init__.py")
	os.MkdirAll(filepath.Dir(mod), 0o755)
	os.WriteFile(filepath.Join("pkg", "pyproject.toml"), []byte("[project]\nname = \"example-idea-gaia\"\nversion = \"0.1.0\"\n"), 0o644)
	src, err := os.ReadFile(filepath.Join(root, "fixtures", "extract", "road", "__init__.py"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mod, src, 0o644)
	for _, stage := range [][]string{{"build", "compile", "pkg"}, {"build", "check", "pkg"}, {"run", "infer", "pkg"}} {
		if code := gaiaRun(stage); code != 0 {
			t.Fatalf("gaia %v exited %d", stage, code)
		}
	}
	ir, _ := os.ReadFile("pkg/.gaia/ir.json")
	beliefs, _ := os.ReadFile("pkg/.gaia/beliefs.json")
	hash, _ := os.ReadFile("pkg/.gaia/ir_hash")
	var irDoc, bDoc struct {
		IRHash string `json:"ir_hash"`
	}
	json.Unmarshal(ir, &irDoc)
	json.Unmarshal(beliefs, &bDoc)
	if irDoc.IRHash == "" || bDoc.IRHash != irDoc.IRHash || strings.TrimSpace(string(hash)) != irDoc.IRHash {
		t.Errorf("ir_hash %q, beliefs %q, ir_hash file %q: not one compile", irDoc.IRHash, bDoc.IRHash, hash)
	}
	if !strings.Contains(string(beliefs), `"label": "worth"`) {
		t.Errorf("beliefs without worth:\n%s", beliefs)
	}
	// The author edits the module: check and infer refuse the stale IR.
	os.WriteFile(mod, []byte(strings.Replace(string(src), "p_e_given_h=0.90", "p_e_given_h=0.75", 1)), 0o644)
	for _, stage := range [][]string{{"build", "check", "pkg"}, {"run", "infer", "pkg"}} {
		if code := gaiaRun(stage); code != 1 {
			t.Errorf("gaia %v on a stale IR exited %d, want 1", stage, code)
		}
	}
	if after, _ := os.ReadFile("pkg/.gaia/beliefs.json"); string(after) != string(beliefs) {
		t.Error("a refused infer rewrote beliefs.json")
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}
