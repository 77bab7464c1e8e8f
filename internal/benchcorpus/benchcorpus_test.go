package benchcorpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/pyscan"
)

func TestDeterministic(t *testing.T) {
	a, b := Files(200<<10), Files(200<<10)
	if len(a) != len(b) {
		t.Fatalf("file counts differ: %d vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("file %d differs between runs", i)
		}
	}
	total := 0
	for _, f := range Sources(200 << 10) {
		total += len(f.Data)
	}
	if total < 200<<10 || total > 400<<10 {
		t.Errorf("python bytes = %d, want about 200 KiB", total)
	}
}

// TestModulesParse checks that every generated module is valid Python with
// the statements the benchmarks are meant to exercise.
func TestModulesParse(t *testing.T) {
	p := pyscan.NewParser()
	defer p.Close()
	calls := map[string]int{}
	for _, f := range Sources(300 << 10) {
		m, err := p.Parse(f.Path, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Syntax) > 0 {
			t.Fatalf("%s: %v", f.Path, m.Syntax[0])
		}
		for _, c := range m.Calls {
			calls[c.Func.DottedName()]++
		}
		if m.All == nil || !m.All.Literal {
			t.Errorf("%s: no literal __all__", f.Path)
		}
	}
	for _, verb := range []string{"claim", "infer", "observe", "register_prior"} {
		if calls[verb] == 0 {
			t.Errorf("no %s calls generated", verb)
		}
	}
}

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(dir, 10<<10); err != nil {
		t.Fatal(err)
	}
	py, err := os.ReadFile(filepath.Join(dir, "idea-1-gaia", "pyproject.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(py), `name = "idea-1-gaia"`) {
		t.Errorf("pyproject.toml: %s", py)
	}
	if _, err := os.Stat(filepath.Join(dir, "idea-1-gaia", "src", "idea_1", "__init__.py")); err != nil {
		t.Error(err)
	}
	if err := Generate(dir, 10<<10); err == nil {
		t.Error("Generate overwrote an existing corpus")
	}
}

func TestSmallPackages(t *testing.T) {
	a, b := SmallPackages(60), SmallPackages(60)
	if len(a) != len(b) {
		t.Fatalf("file counts differ: %d vs %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("file %d differs between runs", i)
		}
	}
	py := PythonOnly(a)
	total := 0
	for _, f := range py {
		total += len(f.Data)
	}
	// 60 packages, one or two modules each, ~2.8 KB per module.
	if len(py) < 80 || len(py) > 120 || total/len(py) < 2200 || total/len(py) > 3400 {
		t.Errorf("%d modules of %d bytes on average, want ~100 of ~2.8 KB", len(py), total/len(py))
	}
	p := pyscan.NewParser()
	defer p.Close()
	for _, f := range py {
		m, err := p.Parse(f.Path, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Syntax) > 0 {
			t.Fatalf("%s: %v", f.Path, m.Syntax[0])
		}
	}
}
