package prior

import (
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// The fuzz targets assert the validators' honesty rule: any input yields
// findings or a clean pass, never a panic, and a finding is always located.

func checkLocated(t *testing.T, f *File, ds []diag.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Line < 1 || d.Column < 1 || d.Code == "" || d.Message == "" {
			t.Fatalf("unlocated or empty finding: %+v", d)
		}
	}
}

func FuzzMatrix(f *testing.F) {
	f.Add(mustJSON(validMatrix()))
	f.Add([]byte(`{"entries":[{"read_status":"metadata_only","supports_subclaims":[1]}],"tension_resolution":{"grade":"strong","challenge_refs":"x"}}`))
	f.Add([]byte(`{"coverage_status":"saturated","entries":[null],"gaia_anchors":[{"source_link":5}],"negative_novelty_claims":[{"reviewer_gate":[]}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte("{\"entries\":[{\"identity_triangulation\":{\"providers\":[{\"identifier\":1e400}]}}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, ds := ParseFile("matrix.json", data)
		ds = append(ds, CheckMatrix(file)...)
		sds, err := CheckSchema(file, SchemaMatrix)
		if err != nil {
			t.Fatal(err)
		}
		checkLocated(t, file, append(ds, sds...))
		rep := "close-prior matrix"
		r := Gate(Input{Matrix: file, Report: &rep})
		if r.Verdict != Refused {
			t.Fatalf("a matrix without a survey passed the gate: %q", r.Verdict)
		}
	})
}

func FuzzLedger(f *testing.F) {
	pr := newProject(f)
	f.Add(mustJSON(pr.ledger))
	f.Add([]byte(`{"final_status":"saturated","providers":{"p":{"status":"queried","queries":["a","a"],"request_log":[{"query":"a"},{"query":"a"}]}},"candidate_pool":{"selected_core_ids":[],"candidates":[]}}`))
	f.Add([]byte(`{"candidate_pool":{"candidates":[{"id":"x","identity_status":"resolved","canonical_identity":{"canonical_id":"doi:10.1/x","provenance":{"record_ref":"project://../x#sha256:00"}}}]}}`))
	f.Add([]byte(`{"bibliography_reconciliation":{"core_sources":[{"id":"a","references_artifact_ref":"project://artifacts/literature/literature-ledger.json#sha256:` + "0000000000000000000000000000000000000000000000000000000000000000" + `"}]}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, ds := ParseFile("ledger.json", data)
		if file.Doc != nil {
			ds = append(ds, CheckLedger(file, pr.root)...)
			sds, err := CheckSchema(file, SchemaLedger)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, sds...)
		}
		checkLocated(t, file, ds)
	})
}

func TestCheckLedgerBaselineClean(t *testing.T) {
	pr := newProject(t)
	f := file(t, "ledger.json", pr.ledger)
	if ds := CheckLedger(f, pr.root); len(ds) != 0 {
		t.Fatalf("baseline ledger: %s", messages(ds))
	}
	if ds, err := CheckSchema(f, SchemaLedger); err != nil || len(ds) != 0 {
		t.Fatalf("baseline ledger schema: %v %s", err, messages(ds))
	}
	delete(pr.ledger, "stop_reason")
	f = file(t, "ledger.json", pr.ledger)
	ds, _ := CheckSchema(f, SchemaLedger)
	if !hasCode(ds, CodeSchema) {
		t.Fatalf("schema did not flag a missing stop_reason: %s", messages(ds))
	}
}

func TestSchemasAcceptBaselines(t *testing.T) {
	pr := newProject(t)
	for name, v := range map[string]any{SchemaSurvey: validSurvey(pr.ledgerRef), SchemaMatrix: validMatrix()} {
		ds, err := CheckSchema(file(t, "x.json", v), name)
		if err != nil || len(ds) != 0 {
			t.Errorf("%s: %v %s", name, err, messages(ds))
		}
	}
	m := validMatrix()
	m["tension_resolution"] = "strong"
	ds, _ := CheckSchema(file(t, "m.json", m), SchemaMatrix)
	if len(ds) != 1 || ds[0].Pointer != "/tension_resolution" {
		t.Fatalf("want one finding at /tension_resolution (the reference ignores it silently), got %s", messages(ds))
	}
}

func FuzzSurveyGate(f *testing.F) {
	pr := newProject(f)
	f.Add(mustJSON(validSurvey(pr.ledgerRef)))
	f.Add([]byte(`{"coverage":{"saturation":"saturated","saturation_evidence":[{"round":true,"discovery_methods":"x"}],"bibliography_reconciliation":{"artifact_ref":"project://a#sha256:1"},"method_family_audit":[]},"papers":[{"role":"core","identity_triangulation":{"providers":[{"year":1e999}]}}]}`))
	f.Add([]byte(`{"papers":"x","coverage":null}`))
	m := mustJSON(validMatrix())
	rep := validReport
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, ds := ParseFile("survey.json", data)
		mf, _ := ParseFile("matrix.json", m)
		r := Gate(Input{Survey: sf, Matrix: mf, Report: &rep, ProjectRoot: pr.root})
		checkLocated(t, sf, append(ds, r.Diagnostics...))
		if sf.Doc == nil && r.Verdict != Refused && len(ds) == 0 {
			t.Fatal("unparsed survey passed")
		}
	})
}

func FuzzGateResult(f *testing.F) {
	f.Add(mustJSON(fixtureGateResult()))
	f.Add([]byte(`{"artifact":"gate_result_v1","verdict":"rejected","rejection_reason":"","anchors":[null],"date":"2026-02-30"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, ds := ParseFile("g.json", data)
		ds = append(ds, CheckGateResult(file)...)
		checkLocated(t, file, ds)
	})
}

func TestGateResultRules(t *testing.T) {
	g := fixtureGateResult()
	if ds := CheckGateResult(file(t, "g.json", g)); len(ds) != 0 {
		t.Fatalf("valid gate result: %s", messages(ds))
	}
	for _, tc := range []struct {
		edit func(jmap)
		want string
	}{
		{func(g jmap) { g["verdict"] = "maybe" }, `verdict 'maybe' must be`},
		{func(g jmap) { g["rejection_reason"] = "too close" }, "a passed verdict must have rejection_reason null"},
		{func(g jmap) { g["verdict"] = "rejected" }, ""},
		{func(g jmap) { g["verdict"], g["rejection_reason"] = "rejected", "" }, "must state its rejection_reason"},
		{func(g jmap) { g["anchors"] = []any{} }, "needs at least one anchor"},
		{func(g jmap) { g["date"] = "2026-02-30" }, "calendar date"},
		{func(g jmap) { g["route"] = "vibes" }, "route"},
		{func(g jmap) { delete(g, "idea_slug") }, "missing idea_slug"},
	} {
		g := fixtureGateResult()
		tc.edit(g)
		if tc.want == "" {
			g["rejection_reason"] = "a same-scope prior exists"
		}
		ds := CheckGateResult(file(t, "g.json", g))
		if tc.want == "" {
			if len(ds) != 0 {
				t.Errorf("rejected with reason: %s", messages(ds))
			}
			continue
		}
		if !strings.Contains(messages(ds), tc.want) {
			t.Errorf("want %q in:\n%s", tc.want, messages(ds))
		}
	}
}
