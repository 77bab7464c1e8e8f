package ir

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/diag"
)

func TestCompiledIRPinGolden(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{nil, "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{[]byte("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{readFixture(t, "ir_sample.json"), "sha256:ea1a5e095e90ef57c915f7c8a679618ae9111fa125c5a44b833ed9a7fcf4b337"},
	} {
		if got := CompiledIRPin(tc.in); got != tc.want {
			t.Errorf("CompiledIRPin(%.20q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestPinBindsExportFlags is row 64: re-serializing the IR and flipping
// worth's export flag keeps Gaia's ir_hash but changes the pin, and the
// re-check refuses the package.
func TestPinBindsExportFlags(t *testing.T) {
	orig := sampleWith(t, nil)
	flipped := sampleWith(t, func(m map[string]any) { knowledge(m, "worth")["exported"] = false })
	if CompiledIRPin(orig) == CompiledIRPin(flipped) {
		t.Fatal("pin ignores the export flag")
	}
	a, _ := Load("a", orig)
	b, _ := Load("b", flipped)
	if a.IRHash != b.IRHash {
		t.Fatal("ir_hash changed; the test no longer shows the gap")
	}
	ds, _ := run(t, flipped)
	if d := find(t, ds, "GAIA110"); !strings.Contains(d.Message, `__all__ = ["worth"]`) {
		t.Fatal(d.Message)
	}
}

// writePkg lays out a package with the given artifacts (nil = absent).
func writePkg(t *testing.T, irSrc, beliefsSrc []byte) string {
	t.Helper()
	pkg := filepath.Join(t.TempDir(), "pkg")
	if err := os.MkdirAll(filepath.Join(pkg, ".gaia"), 0o755); err != nil {
		t.Fatal(err)
	}
	if irSrc != nil {
		if err := os.WriteFile(IRPath(pkg), irSrc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if beliefsSrc != nil {
		if err := os.WriteFile(BeliefsPath(pkg), beliefsSrc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pkg
}

// TestExtractEndShape is row 20 on our primitives: value, evidence_count and
// the exact-byte pin from a package with the fixture artifacts.
func TestExtractEndShape(t *testing.T) {
	irSrc := readFixture(t, "ir_sample.json")
	pkg := writePkg(t, irSrc, readFixture(t, "beliefs_sample.json"))
	ds, g, err := CheckPackage(pkg, CheckOptions{RequireIR: true, RequireBeliefs: true})
	if err != nil || diag.HasBlocking(ds) || g == nil {
		t.Fatalf("CheckPackage: %v\n%s", err, dump(ds))
	}
	src, _ := os.ReadFile(BeliefsPath(pkg))
	b, _ := LoadBeliefs("beliefs.json", src)
	value, d := ExtractWorthBelief(b, "worth")
	ir, _ := Load("ir.json", irSrc)
	if d != nil || value != 0.8499370175790979 || CountObservations(ir) != 2 || g.ConnectedEvidenceCount() != 2 {
		t.Fatalf("value %v (%v), count %d", value, d, CountObservations(ir))
	}
	if CompiledIRPin(irSrc) != "sha256:ea1a5e095e90ef57c915f7c8a679618ae9111fa125c5a44b833ed9a7fcf4b337" {
		t.Fatal("pin")
	}
	for _, d := range ds {
		if !strings.HasSuffix(d.Path, "pkg/.gaia/ir.json") {
			t.Errorf("path %q is not the ir.json path as reached from pkgDir", d.Path)
		}
	}
}

func TestCheckPackageArtifacts(t *testing.T) {
	// Row 22: an empty package directory.
	pkg := writePkg(t, nil, nil)
	ds, g, err := CheckPackage(pkg, CheckOptions{RequireBeliefs: true})
	if err != nil || g != nil {
		t.Fatal(err, g)
	}
	if got := errorCodes(ds); !slices.Equal(got, []string{"GAIA206", "GAIA206"}) {
		t.Fatalf("codes = %v", got)
	}
	if !strings.Contains(ds[0].Message, "run the inference stages") || !strings.HasSuffix(ds[0].Path, ".gaia/beliefs.json") {
		t.Fatalf("first = %+v (beliefs are checked first)", ds[0])
	}
	// Lint mode: a package never compiled has nothing to check.
	ds, g, err = CheckPackage(pkg, CheckOptions{})
	if err != nil || g != nil || len(ds) != 0 {
		t.Fatal(ds, g, err)
	}
	// An ir.json that is a directory is an I/O error, not a finding.
	if err := os.Mkdir(IRPath(pkg), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := CheckPackage(pkg, CheckOptions{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v", err)
	}
	// Unusable IR: GAIA100, no graph.
	pkg = writePkg(t, []byte("{"), nil)
	ds, g, err = CheckPackage(pkg, CheckOptions{})
	if err != nil || g != nil || !slices.Equal(errorCodes(ds), []string{"GAIA100"}) {
		t.Fatal(ds, g, err)
	}
}

func TestBeliefsBinding(t *testing.T) {
	irSrc := readFixture(t, "ir_sample.json")
	stale := strings.Replace(string(readFixture(t, "beliefs_sample.json")), "sha256:3f1c", "sha256:0000", 1)
	ds, _, err := CheckPackage(writePkg(t, irSrc, []byte(stale)), CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := find(t, ds, "GAIA212")
	if !strings.HasSuffix(d.Path, ".gaia/beliefs.json") || d.Line != 51 || d.Column != 14 || d.Pointer != "/ir_hash" || !strings.Contains(d.Message, "re-run gaia run infer") {
		t.Fatalf("GAIA212 = %+v", d)
	}
	// Unreadable beliefs are a located GAIA207; NaN is not JSON (deviation:
	// the reference reads NaN and fails GAIA209).
	ds, _, _ = CheckPackage(writePkg(t, irSrc, []byte(`{"beliefs": [{"label": "worth", "belief": NaN}]}`)), CheckOptions{})
	if d := find(t, ds, "GAIA207"); d.Column != 43 {
		t.Fatalf("GAIA207 at %d:%d", d.Line, d.Column)
	}
	ds, _, _ = CheckPackage(writePkg(t, irSrc, []byte(`[]`)), CheckOptions{})
	find(t, ds, "GAIA207")
}

func TestIROlderThanSources(t *testing.T) {
	pkg := writePkg(t, readFixture(t, "ir_sample.json"), nil)
	mod := filepath.Join(pkg, "src", "trial_idea", "__init__.py")
	if err := os.MkdirAll(filepath.Dir(mod), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mod, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A .py inside .venv never counts.
	venv := filepath.Join(pkg, ".venv", "lib.py")
	os.MkdirAll(filepath.Dir(venv), 0o755)
	os.WriteFile(venv, nil, 0o644)
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(IRPath(pkg), old, old); err != nil {
		t.Fatal(err)
	}
	ds, _, _ := CheckPackage(pkg, CheckOptions{})
	d := find(t, ds, "GAIA213")
	if d.Severity != diag.Warning || !strings.Contains(d.Message, "src/trial_idea/__init__.py") {
		t.Fatalf("GAIA213 = %+v", d)
	}
	// Fresh IR: no warning.
	now := time.Now().Add(time.Hour)
	os.Chtimes(IRPath(pkg), now, now)
	ds, _, _ = CheckPackage(pkg, CheckOptions{})
	if slices.Contains(codes(ds, diag.Warning), "GAIA213") {
		t.Fatal("GAIA213 on a fresh IR")
	}
	// Explicit file list: only those files count.
	os.Chtimes(IRPath(pkg), old, old)
	ds, _, _ = CheckPackage(pkg, CheckOptions{SourceFiles: []string{}})
	if slices.Contains(codes(ds, diag.Warning), "GAIA213") {
		t.Fatal("GAIA213 with an empty source list")
	}
}

// fakeMap maps the labels and action labels it knows to fixed source lines.
type fakeMap map[string]int

func (f fakeMap) Knowledge(label string) (string, int, int, bool) {
	line, ok := f["k:"+label]
	return "src/trial_idea/__init__.py", line, 1, ok
}

func (f fakeMap) Action(label string) (string, int, int, bool) {
	line, ok := f["a:"+label]
	return "src/trial_idea/__init__.py", line, 5, ok
}

func TestSourceMap(t *testing.T) {
	src := sampleWith(t, func(m map[string]any) {
		setCP(1, "0.2", "0.75")(m)                                                          // GAIA150 on a mapped action
		setCP(2, "0.2", "0.75")(m)                                                          // GAIA150 on an unmapped action
		knowledge(m, "worth")["content"] = "The idea merits sustained verification effort." // GAIA122 on a mapped knowledge
	})
	ir, _ := Load("ir.json", src)
	ds, _ := Check(ir, CheckOptions{SourceMap: fakeMap{"a:github:trial_idea::action::infer_tension_worth": 12, "k:worth": 3}})
	ds = diag.SortDedup(ds)
	var got []string
	for _, d := range ds {
		if d.Severity == diag.Error {
			got = append(got, d.String()[:strings.Index(d.String(), " ")]+" "+d.Code+" "+d.Pointer)
		}
	}
	want := []string{
		"ir.json:157:36: GAIA150 /strategies/2/conditional_probabilities",
		"src/trial_idea/__init__.py:3:1: GAIA122 ",
		"src/trial_idea/__init__.py:12:5: GAIA150 ",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRulesRegistered(t *testing.T) {
	rules := diag.Owned(string(family))
	if len(rules) < 30 {
		t.Fatalf("the IR family owns %d rules, want every GAIA1xx rule and GAIA206-209, 212, 213, 507", len(rules))
	}
	for _, r := range rules {
		if r.Title == "" || r.Text == "" || r.Bad == "" || r.Good == "" || r.Since != "0.1.0" || r.Origin == "" ||
			strings.HasSuffix(r.Title, ".") || strings.ToLower(r.Title[:1]) != r.Title[:1] || len(r.Title) > 72 {
			t.Errorf("%s docs incomplete or malformed: %+v", r.Code, r)
		}
	}
}

// CheckCompiled over ir.json as its caller read and parsed it finds what
// CheckPackage finds reading it, and reads nothing of it: with the file
// gone it finds the same.
func TestCheckCompiledIsCheckPackage(t *testing.T) {
	sample, err := os.ReadFile("../../fixtures/ir/ir_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	beliefs, err := os.ReadFile("../../fixtures/ir/beliefs_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	opts := CheckOptions{RequireIR: true, RequireBeliefs: true}
	for _, src := range [][]byte{sample, []byte("{"), []byte("[1]"), []byte(`{"ir_hash": 5}`)} {
		pkg := writePkg(t, src, beliefs)
		want, wantG, err := CheckPackage(pkg, opts)
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(IRPath(pkg))
		if err != nil {
			t.Fatal(err)
		}
		c := ParseCompiled(src, info)
		if err := os.Remove(IRPath(pkg)); err != nil {
			t.Fatal(err)
		}
		got, g, err := CheckCompiled(pkg, c, opts)
		if err != nil || !slices.EqualFunc(got, want, func(a, b diag.Diagnostic) bool { return a.String() == b.String() }) || (g == nil) != (wantG == nil) {
			t.Errorf("%.20s: CheckCompiled = %v, %v; CheckPackage = %v", src, got, err, want)
		}
	}
	if _, _, err := CheckCompiled(t.TempDir(), &Compiled{}, opts); err == nil {
		t.Error("CheckCompiled without the file's info must refuse, not panic")
	}
}

// CheckCompiled given beliefs.json as its caller read it (ReadBeliefs)
// finds what CheckPackage finds reading it, errors included, and judges
// those bytes: with the file swapped after the read (removed, or created
// where there was none) it finds the same.
func TestCheckCompiledJudgesBeliefsAsRead(t *testing.T) {
	sample := readFixture(t, "ir_sample.json")
	beliefs := readFixture(t, "beliefs_sample.json")
	stale := []byte(strings.Replace(string(beliefs), "sha256:3f1c3f1c", "sha256:00000000", 1))
	opts := CheckOptions{RequireIR: true, RequireBeliefs: true}
	for _, tc := range []struct {
		name string
		src  []byte // nil: no beliefs.json
		dir  bool   // a directory in its place
	}{
		{"sample", beliefs, false}, {"not JSON", []byte("{"), false}, {"array", []byte("[1]"), false},
		{"stale", stale, false}, {"missing", nil, false}, {"directory", nil, true},
	} {
		pkg := writePkg(t, sample, tc.src)
		if tc.dir {
			if err := os.Mkdir(BeliefsPath(pkg), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		want, wantG, wantErr := CheckPackage(pkg, opts)
		info, err := os.Stat(IRPath(pkg))
		if err != nil {
			t.Fatal(err)
		}
		c := ParseCompiled(sample, info)
		c.Beliefs = ReadBeliefs(pkg)
		if err := os.RemoveAll(BeliefsPath(pkg)); err != nil {
			t.Fatal(err)
		}
		if tc.src == nil && !tc.dir {
			if err := os.WriteFile(BeliefsPath(pkg), stale, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, g, err := CheckCompiled(pkg, c, opts)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !slices.EqualFunc(got, want, func(a, b diag.Diagnostic) bool { return a.String() == b.String() }) || (g == nil) != (wantG == nil) {
			t.Errorf("%s: CheckCompiled = %v, %v; CheckPackage = %v, %v", tc.name, got, err, want, wantErr)
		}
	}
	pkg := writePkg(t, sample, beliefs)
	info, err := os.Stat(IRPath(pkg))
	if err != nil {
		t.Fatal(err)
	}
	c := ParseCompiled(sample, info)
	c.Beliefs = ReadBeliefs(writePkg(t, sample, beliefs))
	if _, _, err := CheckCompiled(pkg, c, opts); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("CheckCompiled given another package's beliefs = %v, want an internal error", err)
	}
}
