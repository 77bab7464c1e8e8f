package fakes

import (
	"os"
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
