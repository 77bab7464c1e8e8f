package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
)

// Golden sha256 of the extraction fixtures (fixtures/extract/gen.py).
const (
	irSampleSHA = "790b9402bf42659de5125ce4b71798daf9c9ce6c1974f4111d11e191d9fdf92a"
	irW09SHA    = "b40b1036cecd87b5f35b5f6faebf35fc76ec288cb3d9b9697fa4216f3dbabd5d"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../fixtures/extract/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFixturesPassTheIRContract: the samples the fake gaia hands out are
// clean compiled packages (only GAIA507 review flags), so every extraction
// test that fails does so for the reason it names.
func TestFixturesPassTheIRContract(t *testing.T) {
	for _, name := range []string{"ir_sample.json", "ir_w09_disconnected_observation.json"} {
		doc, ds := ir.Load(name, readFixture(t, name))
		if doc == nil {
			t.Fatalf("%s: %v", name, ds)
		}
		more, _ := ir.Check(doc, ir.CheckOptions{})
		for _, d := range append(ds, more...) {
			if d.Severity == diag.Error {
				t.Errorf("%s: %s", name, d)
			}
		}
	}
}

// TestRunRealIRChecks runs the default compiled-IR checks of analyzers/ir
// over the fixtures, end to end: rows 5 and 20, and W9.
func TestRunRealIRChecks(t *testing.T) {
	tests := []struct {
		ir, beliefs      string
		count, connected int
		sha              string
	}{
		{"ir_sample.json", "beliefs_sample.json", 2, 2, irSampleSHA},
		{"ir_w09_disconnected_observation.json", "beliefs_w09_disconnected_observation.json", 3, 2, irW09SHA},
	}
	for _, tt := range tests {
		t.Run(tt.ir, func(t *testing.T) {
			e := newEnv(t)
			t.Setenv("FAKE_GAIA_IR", e.fixture+"/"+tt.ir)
			t.Setenv("FAKE_GAIA_BELIEFS", e.fixture+"/"+tt.beliefs)
			e.opts.Checks.IR = nil // the real analyzers/ir checks
			res, err := e.run()
			if err != nil {
				t.Fatalf("Run: %v\n%s", err, e.stderr.String())
			}
			p := res.Posterior
			if p.Value != 0.8499370175790979 || p.EvidenceCount != tt.count || p.ConnectedEvidenceCount != tt.connected ||
				p.GaiaPackageRef != "project://argument%20graphs/my-idea-gaia#sha256:"+tt.sha {
				t.Errorf("posterior = %+v", p)
			}
		})
	}
}

// TestRunRealIRChecksRefuse: a hand-edited IR (worth no longer exported,
// row 64) is refused by the real checks after compile, and recorded.
func TestRunRealIRChecksRefuse(t *testing.T) {
	e := newEnv(t)
	edited := strings.Replace(string(readFixture(t, "ir_sample.json")), `"exported": true`, `"exported": false`, 1)
	p := t.TempDir() + "/ir.json"
	os.WriteFile(p, []byte(edited), 0o644)
	t.Setenv("FAKE_GAIA_IR", p)
	e.opts.Checks.IR = nil
	_, err := Run(context.Background(), e.opts)
	f := wantFailure(t, err, "GAIA204", false, "compiled-IR contract violation")
	found := false
	for _, d := range f.Findings {
		found = found || d.Code == "GAIA110" && strings.Contains(d.Message, `__all__ = ["worth"]`)
	}
	if !found {
		t.Errorf("findings = %v, want GAIA110 naming __all__ = [\"worth\"]", f.Findings)
	}
	if rec := e.record(); rec.IRPin != ir.CompiledIRPin([]byte(edited)) || !rec.ExplorationOnly {
		t.Errorf("discipline.json = %+v", rec)
	}
}

// TestPosteriorJSONGolden compares Posterior.JSON with Python's
// json.dumps(obj, indent=2, sort_keys=True) (testdata/posterior.golden).
func TestPosteriorJSONGolden(t *testing.T) {
	cases := []Posterior{
		{Value: 0.8499370175790979, EvidenceCount: 2, ConnectedEvidenceCount: 2,
			GaiaPackageRef: "project://argument%20graphs/%C3%BC/example-idea-gaia#sha256:" + strings.Repeat("7", 64)},
		{Value: 1, GaiaPackageRef: "exploration-only:project://a#sha256:" + strings.Repeat("0", 64)},
		{Value: 1e-05, EvidenceCount: 12, ConnectedEvidenceCount: 3, GaiaPackageRef: "project://x/y#sha256:" + strings.Repeat("a", 64)},
	}
	var got strings.Builder
	for _, p := range cases {
		got.Write(p.JSON())
		got.WriteByte('\n')
	}
	if want := string(mustRead(t, "testdata/posterior.golden")); got.String() != want {
		t.Errorf("JSON =\n%s\nPython:\n%s", got.String(), want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRunOnTheIRFixtures extracts over the analyzers/ir team's own
// reconstruction of the reference samples (fixtures/ir): the reference's
// numbers (row 20: 0.8499370175790979 and evidence_count 2) must come out of
// theirs too, whatever its exact bytes.
func TestRunOnTheIRFixtures(t *testing.T) {
	irPath, _ := filepath.Abs("../../fixtures/ir/ir_sample.json")
	data, err := os.ReadFile(irPath)
	if err != nil {
		t.Skipf("fixtures/ir not present: %v", err)
	}
	e := newEnv(t)
	t.Setenv("FAKE_GAIA_IR", irPath)
	t.Setenv("FAKE_GAIA_BELIEFS", filepath.Join(filepath.Dir(irPath), "beliefs_sample.json"))
	e.opts.Checks.IR = nil
	res, err := e.run()
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, e.stderr.String())
	}
	p := res.Posterior
	if p.Value != 0.8499370175790979 || p.EvidenceCount != 2 ||
		p.GaiaPackageRef != "project://argument%20graphs/my-idea-gaia#"+ir.CompiledIRPin(data) {
		t.Errorf("posterior = %+v", p)
	}
}
