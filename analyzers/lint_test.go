package analyzers_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// copyTree copies a fixture package into a temp dir.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

func TestLintGoodPackageIsClean(t *testing.T) {
	res, err := analyzers.Lint([]string{filepath.Join(fixtureRoot, "good")}, analyzers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 0 || len(res.Packages) != 1 || res.Files != 1 {
		t.Errorf("good package: %d packages, %d files, diagnostics %v", len(res.Packages), res.Files, res.Diagnostics)
	}
}

// goodWithIR copies the good package and gives it the sample IR, which
// disagrees with its source.
func goodWithIR(t *testing.T) string {
	t.Helper()
	dir := copyTree(t, filepath.Join(fixtureRoot, "good"))
	irJSON, err := os.ReadFile("../fixtures/ir/ir_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".gaia"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gaia", "ir.json"), irJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// With a compiled IR present, Lint adds the IR checks (unless NoIR), and
// IR findings about a knowledge point at the line that declares it.
func TestLintRunsIRChecks(t *testing.T) {
	dir := goodWithIR(t)
	res, err := analyzers.Lint([]string{dir}, analyzers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var irCodes, located int
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Code, "GAIA1") || d.Code == "GAIA507" || d.Code == "GAIA213" {
			irCodes++
		}
		if strings.HasSuffix(d.Path, ".py") {
			located++
		}
	}
	if irCodes == 0 {
		t.Errorf("no IR finding on a package whose ir.json disagrees with its source: %v", res.Diagnostics)
	}
	if located == 0 {
		t.Errorf("no IR finding mapped to a source line: %v", res.Diagnostics)
	}
	res, err = analyzers.Lint([]string{dir}, analyzers.Options{NoIR: true})
	if err != nil || len(res.Diagnostics) != 0 {
		t.Errorf("NoIR: %v %v", res.Diagnostics, err)
	}
}

func TestLintSingleFileAndDedup(t *testing.T) {
	bad := filepath.Join(fixtureRoot, "bad", "src", "bad_idea", "__init__.py")
	res, err := analyzers.Lint([]string{bad, bad, filepath.Join(fixtureRoot, "bad")}, analyzers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 {
		t.Errorf("files = %d, want 2 (the package's two modules, counted once)", res.Files)
	}
	seen := map[string]bool{}
	for _, d := range res.Diagnostics {
		if seen[d.String()] {
			t.Errorf("duplicate diagnostic %v", d)
		}
		seen[d.String()] = true
		if strings.Contains(d.Path, `\`) || !strings.HasPrefix(d.Path, "../fixtures/lint/bad/") {
			t.Errorf("path %q is not the slash path reached from the argument", d.Path)
		}
	}
}

func TestLintErrors(t *testing.T) {
	if _, err := analyzers.Lint([]string{"does-not-exist"}, analyzers.Options{}); err == nil {
		t.Error("a missing path must be an error")
	}
	if _, err := analyzers.Lint([]string{t.TempDir()}, analyzers.Options{}); err == nil || !strings.Contains(err.Error(), "no Gaia package found") {
		t.Errorf("an empty directory: %v", err)
	}
}

func BenchmarkLintGood(b *testing.B) {
	for b.Loop() {
		if _, err := analyzers.Lint([]string{filepath.Join(fixtureRoot, "good")}, analyzers.Options{NoIR: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// corpus writes 40 packages of ~50 KB each (2 MB of Python) and returns
// the root and the module paths.
func corpus(b *testing.B) (string, []string, int) {
	src, err := os.ReadFile(filepath.Join(fixtureRoot, "good", "src", "sterile_neutrino", "__init__.py"))
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	body := strings.Repeat(string(src), 50_000/len(src)+1)
	var files []string
	for i := range 40 {
		dir := filepath.Join(root, "p"+strconv.Itoa(i)+"-gaia")
		mod := filepath.Join(dir, "src", "p"+strconv.Itoa(i))
		if err := os.MkdirAll(mod, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[project]\nname = \"p"+strconv.Itoa(i)+"-gaia\"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		file := filepath.Join(mod, "__init__.py")
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, file)
	}
	return root, files, len(body) * len(files)
}

// BenchmarkLintCorpus lints the corpus end to end (discovery, parsing,
// every rule); compare its MB/s with BenchmarkParseCorpus, the parse-only
// baseline (the budget: rules must not halve the throughput).
func BenchmarkLintCorpus(b *testing.B) {
	root, _, total := corpus(b)
	b.SetBytes(int64(total))
	for b.Loop() {
		if _, err := analyzers.Lint([]string{root}, analyzers.Options{NoIR: true, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseCorpus reads and parses the same corpus with one parser.
func BenchmarkParseCorpus(b *testing.B) {
	_, files, total := corpus(b)
	b.SetBytes(int64(total))
	p := pyscan.NewParser()
	defer p.Close()
	for b.Loop() {
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.Parse(f, src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// An overlay replaces a file's contents for the source scan; a suppression
// of an IR finding is judged only when the IR checks ran (a NoIR run, as an
// editor makes while typing, cannot tell whether it is unused).
func TestLintOverlayAndSkippedIRSuppressions(t *testing.T) {
	dir := filepath.ToSlash(goodWithIR(t))
	res, err := analyzers.Lint([]string{dir}, analyzers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var target *diag.Diagnostic
	for i, d := range res.Diagnostics {
		if strings.HasSuffix(d.Path, ".py") && ir.Reports(d.Code) {
			target = &res.Diagnostics[i]
			break
		}
	}
	if target == nil {
		t.Fatalf("no IR finding mapped to a source line: %v", res.Diagnostics)
	}
	src, err := os.ReadFile(target.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	indent := lines[target.Line-1][:len(lines[target.Line-1])-len(strings.TrimLeft(lines[target.Line-1], " "))]
	lines[target.Line-1] = indent + "# nullius: ignore[" + target.Code + "] accepted for the test\n" + lines[target.Line-1]
	overlay := map[string][]byte{target.Path: []byte(strings.Join(lines, ""))}

	find := func(res *analyzers.Result, code string, line int) *diag.Diagnostic {
		for i, d := range res.Diagnostics {
			if d.Path == target.Path && d.Code == code && (line == 0 || d.Line == line) {
				return &res.Diagnostics[i]
			}
		}
		return nil
	}
	full, err := analyzers.Lint([]string{dir}, analyzers.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(full, target.Code, target.Line+1); d == nil || !d.Suppressed {
		t.Errorf("the overlay's suppression did not silence %s at line %d: %v", target.Code, target.Line+1, full.Diagnostics)
	}
	if d := find(full, "NULLIUS002", 0); d != nil {
		t.Errorf("full run: %v", d)
	}
	partial, err := analyzers.Lint([]string{dir}, analyzers.Options{Overlay: overlay, NoIR: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := find(partial, "NULLIUS002", 0); d != nil {
		t.Errorf("a NoIR run judged an IR suppression unused: %v", d)
	}
	// Without the overlay the file on disk has no suppression.
	if d := find(res, target.Code, target.Line); d == nil || d.Suppressed {
		t.Errorf("disk contents: %v", res.Diagnostics)
	}
}

// AlsoNoIR: one run returns what the run with the IR checks returns and,
// beside it, what the run with NoIR returns, finding for finding (an
// editor's save shows both from one parse). Suppressions of IR codes are
// where the two differ beyond the IR findings themselves: only a run that
// ran the IR checks may call them unused.
func TestLintAlsoNoIR(t *testing.T) {
	withIR := goodWithIR(t)
	module := filepath.Join("src", "sterile_neutrino", "__init__.py")
	src, err := os.ReadFile(filepath.Join(withIR, module))
	if err != nil {
		t.Fatal(err)
	}
	suppressions := []byte("# nullius: ignore[GAIA130] reviewed\n# nullius: ignore[GAIA011] reviewed\n" + string(src))
	noGaia := copyTree(t, filepath.Join(fixtureRoot, "good"))
	two := t.TempDir()
	for _, p := range []string{"good-ir", "bad"} {
		from := withIR
		if p == "bad" {
			from = filepath.Join(fixtureRoot, "bad")
		}
		if err := os.CopyFS(filepath.Join(two, p), os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		path    string
		overlay map[string][]byte
		split   bool // the IR checks add findings
	}{
		{"ir", withIR, nil, true},
		{"ir-suppressions", withIR, map[string][]byte{filepath.Join(withIR, module): suppressions}, true},
		{"no-gaia-suppressions", noGaia, map[string][]byte{filepath.Join(noGaia, module): suppressions}, true},
		{"two-packages", two, nil, true},
		{"one-file", filepath.Join(withIR, module), nil, false},
		{"rules-package", "../fixtures/rules/package", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lint := func(o analyzers.Options) *analyzers.Result {
				o.Overlay = tc.overlay
				res, err := analyzers.Lint([]string{tc.path}, o)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			both, full, noIR := lint(analyzers.Options{AlsoNoIR: true}), lint(analyzers.Options{}), lint(analyzers.Options{NoIR: true})
			if !reflect.DeepEqual(both.Diagnostics, full.Diagnostics) || both.Files != full.Files || len(both.Packages) != len(full.Packages) {
				t.Errorf("with the IR checks:\n%v\nwant\n%v", both.Diagnostics, full.Diagnostics)
			}
			if !reflect.DeepEqual(both.NoIRDiagnostics, noIR.Diagnostics) {
				t.Errorf("without them:\n%v\nwant\n%v", both.NoIRDiagnostics, noIR.Diagnostics)
			}
			if split := !reflect.DeepEqual(full.Diagnostics, noIR.Diagnostics); split != tc.split {
				t.Errorf("the IR checks changed the findings: %v, want %v", split, tc.split)
			}
		})
	}
	if res, _ := analyzers.Lint([]string{withIR}, analyzers.Options{}); res.NoIRDiagnostics != nil {
		t.Errorf("NoIRDiagnostics without AlsoNoIR: %v", res.NoIRDiagnostics)
	}
}
