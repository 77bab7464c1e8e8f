package prior

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/golden"
)

// fixtures/prior/project is the researcher's project the CLI scripts copy:
// the bound ledger and its side files, a saturated survey, a matrix whose
// tension grade matches fixtures/ir/ir_sample.json, the posterior report
// and a gate_result_v1. go test -update regenerates it from the
// builders above; otherwise this test proves the committed copy still
// passes the whole gate (a stale fixture cannot hide).

const fixtureProject = "../../fixtures/prior/project"

func fixtureMatrix() jmap {
	m := validMatrix()
	delete(m, "survey_ref")
	delete(m, "close_prior_matrix_ref")
	m["tension_resolution"] = jmap{"grade": "substantial", "supporting_refs": []any{"Example2026"},
		"challenge_refs": []any{"https://arxiv.org/abs/2601.00001#sec-5"}}
	return m
}

const fixtureReport = `# Posterior report: example-idea

- Admission verdict: passed (route: mechanism), see [gate result](gate_result.json).
- Posterior value: ` + "`0.850`" + ` (the exact value is in the extraction output).

## Close-Prior Matrix

Full matrix: [close_prior_matrix.json](literature/close_prior_matrix.json).

| Reference | Read status | Same-scope | Supports | Weakens | Stale |
|---|---|---|---|---|---|
| [Example2026](https://arxiv.org/abs/2601.00001) | full_text_read | adjacent | mechanism | — | no |

Critique search: "example criticism", top hit reviewed: Example2026.
`

func fixtureGateResult() jmap {
	return jmap{"artifact": "gate_result_v1", "idea_slug": "example-idea", "verdict": "passed", "route": "mechanism",
		"anchors":          []any{jmap{"statement": "the mechanism exists", "reference": "https://arxiv.org/abs/2601.00001"}},
		"rejection_reason": nil, "date": "2026-11-30"}
}

func writeFixtureProject(t *testing.T, root string) {
	if err := os.MkdirAll(filepath.Join(root, ".nullius"), 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, ".nullius", "README.md"), []byte("Marks the project root for nullius (pinned project:// references resolve here).\n"), 0o644))
	coreRef := writePinned(t, root, "artifacts/literature/records/core-1.json", coreRecord())
	citedRef := writePinned(t, root, "artifacts/literature/records/example.json", citedRecord())
	bibRef := writePinned(t, root, "artifacts/literature/core-1-bibliography.json", manifest())
	ledgerRef := writePinned(t, root, ledgerRel, baseLedger(coreRef, citedRef, bibRef))
	writePinned(t, root, "artifacts/literature/survey.json", validSurvey(ledgerRef))
	writePinned(t, root, "artifacts/literature/close_prior_matrix.json", fixtureMatrix())
	writePinned(t, root, "artifacts/gate_result.json", fixtureGateResult())
	must(os.WriteFile(filepath.Join(root, "artifacts", "posterior_report_v1.md"), []byte(fixtureReport), 0o644))
}

// fixtureIncomplete is the same project with honest coverage debt (W-5):
// one provider query stopped at its budget and one citation-graph gap, the
// ledger, survey and matrix all declaring coverage_incomplete, the matrix
// posterior provisional.
const fixtureIncomplete = "../../fixtures/prior/incomplete"

func writeIncompleteProject(t *testing.T, root string) {
	writeFixtureProject(t, root)
	coreRef := "project://artifacts/literature/records/core-1.json#" + pinFile(t, root, "artifacts/literature/records/core-1.json")
	citedRef := "project://artifacts/literature/records/example.json#" + pinFile(t, root, "artifacts/literature/records/example.json")
	bibRef := "project://artifacts/literature/core-1-bibliography.json#" + pinFile(t, root, "artifacts/literature/core-1-bibliography.json")
	l := baseLedger(coreRef, citedRef, bibRef)
	l["final_status"] = "coverage_incomplete"
	l["stop_reason"] = "request budget reached on the catalog provider; forward citations of core-1 beyond page 1 not checked"
	cat := l["providers"].(jmap)["catalog"].(jmap)
	cat["total_count"] = 5
	cat["request_log"].([]any)[0].(jmap)["continuation"] = "bounded_stop"
	seed := l["citation_graph"].(jmap)["seeds"].([]any)[0].(jmap)
	seed["citations_checked"], seed["coverage_status"], seed["gaps"] = false, "bounded_stop", []any{"forward citations beyond page 1"}
	ledgerRef := writePinned(t, root, ledgerRel, l)
	s := validSurvey(ledgerRef)
	s["coverage"].(jmap)["saturation"] = "coverage_incomplete"
	writePinned(t, root, "artifacts/literature/survey.json", s)
	m := fixtureMatrix()
	m["coverage_status"], m["posterior_status"], m["allocation_eligible"] = "coverage_incomplete", "provisional", false
	writePinned(t, root, "artifacts/literature/close_prior_matrix.json", m)
}

func pinFile(t *testing.T, root, rel string) string {
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return PinBytes(b)
}

func TestFixtureProject(t *testing.T) {
	testFixture(t, fixtureProject, writeFixtureProject, Saturated)
}

func TestFixtureIncomplete(t *testing.T) {
	testFixture(t, fixtureIncomplete, writeIncompleteProject, CoverageIncomplete)
}

func testFixture(t *testing.T, dir string, write func(*testing.T, string), verdict string) {
	if golden.Update() {
		must := os.RemoveAll(filepath.Join(dir, "artifacts"))
		if must != nil {
			t.Fatal(must)
		}
		write(t, dir)
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatalf("fixture missing (record it with go test ./validators/prior -run TestFixture -update): %v", err)
		}
		return b
	}
	sb, mb := read("artifacts/literature/survey.json"), read("artifacts/literature/close_prior_matrix.json")
	rep := string(read("artifacts/posterior_report_v1.md"))
	sf, ds1 := ParseFile("survey.json", sb)
	mf, ds2 := ParseFile("matrix.json", mb)
	r := Gate(Input{Survey: sf, Matrix: mf, Report: &rep, ProjectRoot: root,
		SurveyAbs: filepath.Join(root, "artifacts/literature/survey.json"), SurveyBytes: sb,
		MatrixAbs: filepath.Join(root, "artifacts/literature/close_prior_matrix.json"), MatrixBytes: mb})
	if len(ds1)+len(ds2)+len(r.Diagnostics) != 0 || r.Verdict != verdict {
		t.Fatalf("fixture project does not pass the gate (%s):\n%s", r.Verdict, messages(append(append(ds1, ds2...), r.Diagnostics...)))
	}
	if !strings.HasPrefix(r.Coverage["survey_ref"].(string), "project://artifacts/literature/survey.json#sha256:") {
		t.Fatalf("coverage %v", r.Coverage)
	}
	gf, _ := ParseFile("gate_result.json", read("artifacts/gate_result.json"))
	if ds := CheckGateResult(gf); len(ds) != 0 {
		t.Fatalf("gate result: %s", messages(ds))
	}
}
