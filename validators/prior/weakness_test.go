package prior

import (
	"strings"
	"testing"
)

// Tests of the §7 weaknesses nullius closes: each shows the better
// behaviour, and the reference behaviour it replaces is named in the comment.

// W-5: a ledger complete except for a bounded_stop query and a recorded
// citation-graph gap is honest coverage_incomplete debt. The reference fails
// it both ways (declared incomplete or saturated).
func TestW5HonestCoverageIncompleteLedgerIsExpressible(t *testing.T) {
	pr := newProject(t)
	l := pr.ledger
	l["final_status"] = "coverage_incomplete"
	cat := l["providers"].(jmap)["catalog"].(jmap)
	cat["total_count"] = 5
	cat["request_log"].([]any)[0].(jmap)["continuation"] = "bounded_stop"
	seed := l["citation_graph"].(jmap)["seeds"].([]any)[0].(jmap)
	seed["citations_checked"], seed["coverage_status"], seed["gaps"] = false, "bounded_stop", []any{"forward citations beyond page 1"}
	ref := pr.rewriteLedger(t, l)
	s := validSurvey(ref)
	s["coverage"].(jmap)["saturation"] = "coverage_incomplete"
	m := validMatrix()
	m["coverage_status"], m["posterior_status"], m["allocation_eligible"] = "coverage_incomplete", "provisional", false
	r := gate(t, pr.root, s, m, validReport, false, nil)
	expect(t, r)
	if r.Verdict != CoverageIncomplete {
		t.Fatalf("verdict %q, want coverage_incomplete", r.Verdict)
	}
	// The same ledger declared saturated is refused: the debt is real.
	l["final_status"] = "saturated"
	ref = pr.rewriteLedger(t, l)
	r = gate(t, pr.root, validSurvey(ref), validMatrix(), validReport, false, nil)
	expect(t, r, "known total_count must be fully returned", "citation graph seed")
}

// W-6: an empty ledger (no selected cores, no taxonomy, no audits, no seeds)
// recomputes as saturated in the reference; nullius refuses it.
func TestW6EmptyLedgerIsNotSaturated(t *testing.T) {
	pr := newProject(t)
	l := pr.ledger
	pool := l["candidate_pool"].(jmap)
	pool["selected_core_ids"], pool["candidates"], pool["total_candidates"] = []any{}, []any{}, 0
	l["bibliography_reconciliation"] = jmap{"core_sources": []any{}}
	l["method_family_audit"] = jmap{"status": "audited", "taxonomy": []any{}, "source_audits": []any{}}
	l["citation_graph"] = jmap{"seeds": []any{}}
	ref := pr.rewriteLedger(t, l)
	s := validSurvey(ref)
	s["papers"] = []any{}
	cov := s["coverage"].(jmap)
	cov["core_total"], cov["core_deep_read"] = 0, 0
	cov["saturation_evidence"].([]any)[0].(jmap)["new_core_papers"] = 0
	for _, k := range []string{"bibliography_reconciliation", "method_family_audit"} {
		for _, f := range []string{"core_sources_total", "core_sources_reconciled", "candidates_total", "candidates_dispositioned", "core_sources_audited", "taxonomy_families", "source_method_descriptions_audited", "cited_method_descriptions_audited"} {
			if _, ok := cov[k].(jmap)[f]; ok {
				cov[k].(jmap)[f] = 0
			}
		}
	}
	r := gate(t, pr.root, s, validMatrix(), validReport, false, nil)
	expect(t, r, "an empty ledger is not saturated")
	if d := r.Diagnostics; len(d) == 0 || !hasCode(d, CodeEmptySaturation) {
		t.Fatalf("want %s, got:\n%s", CodeEmptySaturation, messages(d))
	}
}

// W-7: rounds cannot admit more core papers than core_total.
func TestW7RoundsCannotExceedCoreTotal(t *testing.T) {
	pr := newProject(t)
	s := validSurvey(pr.ledgerRef)
	s["coverage"].(jmap)["saturation_evidence"].([]any)[0].(jmap)["new_core_papers"] = 3
	expect(t, gate(t, pr.root, s, validMatrix(), validReport, false, nil), "admit 3 new core papers but coverage.core_total is 1")
}

// W-9: the reference accepts the same reference as supporting and
// challenging; nullius calls it a one-sided pool.
func TestW9OneSidedTensionPoolRefused(t *testing.T) {
	pr := newProject(t)
	m := validMatrix()
	m["tension_resolution"] = jmap{"grade": "strong", "supporting_refs": []any{"X"}, "challenge_refs": []any{"X"}}
	r := gate(t, pr.root, validSurvey(pr.ledgerRef), m, validReport, false, nil)
	expect(t, r, "only repeat supporting_refs")
	m["tension_resolution"] = jmap{"grade": "strong", "supporting_refs": []any{"X"}, "challenge_refs": []any{"X", "Y"}}
	expect(t, gate(t, pr.root, validSurvey(pr.ledgerRef), m, validReport, false, nil))
}

// W-10: a metadata_only entry that supports nothing needs no fidelity audit
// of a read that never happened.
func TestW10MetadataOnlyEntryNeedsNoFidelityAudit(t *testing.T) {
	pr := newProject(t)
	m := validMatrix()
	e := validEntry()
	e["reference"], e["read_status"], e["supports_subclaims"], e["source_link"] = "Thin2025", "metadata_only", []any{}, "https://arxiv.org/abs/2501.00002"
	e["identity_triangulation"].(jmap)["providers"].([]any)[0].(jmap)["identifier"] = "arXiv:2501.00002"
	e["identity_triangulation"].(jmap)["providers"].([]any)[1].(jmap)["identifier"] = "recid 1111111"
	delete(e, "source_fidelity_audit")
	m["entries"] = append(m["entries"].([]any), e)
	rep := validReport + "| [Thin2025](https://arxiv.org/abs/2501.00002) | metadata_only | no | — | — | no |\n"
	expect(t, gate(t, pr.root, validSurvey(pr.ledgerRef), m, rep, false, nil))
}

// W-12: a DOI identifier is not mined for a spurious arXiv id.
func TestW12DOIIsNotAnArxivID(t *testing.T) {
	if got := canonicalArxiv("10.1234/5678.90123"); got != "" {
		t.Fatalf("canonicalArxiv(DOI) = %q, want none", got)
	}
	if got := canonicalArxiv("arXiv:2411.18257v2"); got != "2411.18257" {
		t.Fatalf("canonicalArxiv = %q", got)
	}
}

// W-2: refs declared in the matrix must pin the validated files; the gate
// derives both refs from the files it read.
func TestW2CoverageRefsBoundToValidatedFiles(t *testing.T) {
	pr := newProject(t)
	sb := mustJSON(validSurvey(pr.ledgerRef))
	m := validMatrix()
	delete(m, "survey_ref")
	delete(m, "close_prior_matrix_ref")
	mb := mustJSON(m)
	sAbs := pr.root + "/artifacts/literature/survey.json"
	mAbs := pr.root + "/artifacts/literature/close_prior_matrix.json"
	rep := validReport
	sf, _ := ParseFile("survey.json", sb)
	mf, _ := ParseFile("matrix.json", mb)
	in := Input{Survey: sf, Matrix: mf, SurveyAbs: sAbs, MatrixAbs: mAbs, SurveyBytes: sb, MatrixBytes: mb,
		Report: &rep, ProjectRoot: pr.root}
	r := Gate(in)
	expect(t, r)
	want := "project://artifacts/literature/survey.json#" + PinBytes(sb)
	if r.Coverage["survey_ref"] != want {
		t.Fatalf("survey_ref = %v, want %s", r.Coverage["survey_ref"], want)
	}
	if !strings.HasPrefix(r.Coverage["close_prior_matrix_ref"].(string), "project://artifacts/literature/close_prior_matrix.json#sha256:") {
		t.Fatalf("close_prior_matrix_ref = %v", r.Coverage["close_prior_matrix_ref"])
	}
	// A matrix naming some other survey is refused.
	m["survey_ref"] = "project://artifacts/literature/other.json#sha256:" + strings.Repeat("c", 64)
	mb = mustJSON(m)
	in.Matrix, _ = ParseFile("matrix.json", mb)
	in.MatrixBytes = mb
	expect(t, Gate(in), "does not pin the validated file")
}

// W-11: an IR anchor citing a paper the matrix lists as metadata_only is
// refused; the reference passes it as long as the matrix has no such anchor.
func TestW11IRAnchorOnUnreadPaper(t *testing.T) {
	pr := newProject(t)
	m := validMatrix()
	e := validEntry()
	e["reference"], e["read_status"], e["supports_subclaims"], e["source_link"] = "Thin2025", "metadata_only", []any{}, "https://arxiv.org/abs/2501.00002"
	e["identity_triangulation"].(jmap)["providers"].([]any)[0].(jmap)["identifier"] = "arXiv:2501.00002"
	e["identity_triangulation"].(jmap)["providers"].([]any)[1].(jmap)["identifier"] = "recid 1111111"
	m["entries"] = append(m["entries"].([]any), e)
	rep := validReport + "| [Thin2025](https://arxiv.org/abs/2501.00002) | metadata_only | no | — | — | no |\n"
	ir := tensionIR(nil, nil)
	ir["knowledges"] = append(ir["knowledges"].([]any), jmap{"id": "k_obs", "label": "ev_thin", "type": "claim", "content": "x",
		"metadata": jmap{"supported_by": []any{jmap{"pattern": "observation",
			"rationale": "evidence_family: thin; correlation_model: single; anchor: https://arxiv.org/abs/2501.00002 table 2"}}}})
	r := gate(t, pr.root, validSurvey(pr.ledgerRef), m, rep, false, ir)
	expect(t, r, "observation of ev_thin anchors on 'https://arxiv.org/abs/2501.00002', but entries[1] is metadata_only")
	// Anchoring on the paper that was read passes.
	ir["knowledges"].([]any)[1].(jmap)["metadata"] = jmap{"supported_by": []any{jmap{"pattern": "observation",
		"rationale": "evidence_family: thin; correlation_model: single; anchor: https://arxiv.org/abs/2601.00001 sec. 4"}}}
	expect(t, gate(t, pr.root, validSurvey(pr.ledgerRef), m, rep, false, ir))
}

// W-8: the reference accepts the six column names anywhere in prose; nullius
// needs them to head a table, with each entry's link in a row of it.
func TestW8ReportMatrixMustBeATable(t *testing.T) {
	pr := newProject(t)
	prose := "# Report\n\nnotes: close-prior matrix; reference read status same-scope supports weakens stale. see [x](https://arxiv.org/abs/2601.00001)\n"
	r := gate(t, pr.root, validSurvey(pr.ledgerRef), validMatrix(), prose, false, nil)
	expect(t, r, "table is missing headers/columns", "in a row of the close-prior matrix table")
}

func TestFoldText(t *testing.T) {
	for in, want := range map[string]string{
		`The $\alpha$-decay width`: "the alpha decay width",
		"The α-decay width":        "the alpha decay width",
		"Schrödinger {Equation}":   "schrodinger equation",
		"Straße":                   "strasse",
		"ΛΣ hyperons":              "lambda sigma hyperons",
	} {
		if got := foldText(in); got != want {
			t.Errorf("foldText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"Doe, Jane": "doe", "Jane Doe": "doe", "Martin Luther King Jr": "king", "": ""} {
		if got := familyName(in); got != want {
			t.Errorf("familyName(%q) = %q, want %q", in, got, want)
		}
	}
}
