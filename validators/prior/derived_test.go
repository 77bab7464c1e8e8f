package prior

import (
	"slices"
	"testing"
)

// TestLedgerDerivedStatusOnce: the closure recomputation (L-14) and the
// derived method status (L-10) refuse a saturated ledger only for a
// reason no other finding names. A mistake already reported is not
// refused again as "final_status does not match", but honest debt under
// a saturated claim, which nothing else reports, still is.
func TestLedgerDerivedStatusOnce(t *testing.T) {
	cases := []struct {
		name string
		edit func(l jmap)
		want []string // the codes, sorted and compacted
	}{
		{"baseline", func(l jmap) {}, nil},
		{"citation gap under saturated", func(l jmap) {
			l["citation_graph"].(jmap)["seeds"].([]any)[0].(jmap)["citations_checked"] = false
		}, []string{"PRIOR045"}},
		{"method structural error", func(l jmap) {
			a := l["method_family_audit"].(jmap)["source_audits"].([]any)[0].(jmap)
			a["paper_method_descriptions"].([]any)[0].(jmap)["evidence_basis"] = "title_year_query"
		}, []string{"PRIOR044"}},
		{"honest bibliography debt under saturated", func(l jmap) {
			l["bibliography_reconciliation"].(jmap)["core_sources"].([]any)[0].(jmap)["status"] = "coverage_debt"
			l["method_family_audit"].(jmap)["source_audits"].([]any)[0].(jmap)["bibliography_candidate_screening"] = []any{}
		}, []string{"PRIOR048"}},
		{"honest method gap under saturated", func(l jmap) {
			s := l["method_family_audit"].(jmap)["source_audits"].([]any)[0].(jmap)["bibliography_candidate_screening"].([]any)[0].(jmap)
			s["method_disposition"], s["family_ids"] = "coverage_debt", []any{}
		}, []string{"PRIOR047", "PRIOR048"}},
		{"honest debt beside an unrelated error", func(l jmap) {
			l["bibliography_reconciliation"].(jmap)["core_sources"].([]any)[0].(jmap)["status"] = "coverage_debt"
			l["method_family_audit"].(jmap)["source_audits"].([]any)[0].(jmap)["bibliography_candidate_screening"] = []any{}
			l["citation_graph"].(jmap)["seeds"].([]any)[0].(jmap)["citations_checked"] = false
		}, []string{"PRIOR045", "PRIOR048"}},
		{"empty ledger declared saturated", func(l jmap) {
			emptyLedger(l)
		}, []string{"PRIOR501"}},
		{"empty ledger declared coverage_incomplete", func(l jmap) {
			emptyLedger(l)
			l["final_status"] = "coverage_incomplete"
		}, nil},
		{"complete ledger declared coverage_incomplete", func(l jmap) {
			l["final_status"] = "coverage_incomplete"
		}, []string{"PRIOR048"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pr := newProject(t)
			tc.edit(pr.ledger)
			ds := CheckLedger(file(t, "ledger.json", pr.ledger), pr.root)
			var got []string
			for _, d := range ds {
				got = append(got, d.Code)
			}
			slices.Sort(got)
			if got = slices.Compact(got); !slices.Equal(got, tc.want) {
				t.Fatalf("codes %v, want %v:\n%s", got, tc.want, messages(ds))
			}
		})
	}
}

// TestSurveyDebtRefusedOnce: a saturated survey whose receipts carry the
// ledger's debt is refused for its receipts (PRIOR031), not a second time
// for the ledger's status (L-15).
func TestSurveyDebtRefusedOnce(t *testing.T) {
	pr := newProject(t)
	s := pr.ledger["method_family_audit"].(jmap)["source_audits"].([]any)[0].(jmap)["bibliography_candidate_screening"].([]any)[0].(jmap)
	s["method_disposition"], s["family_ids"] = "coverage_debt", []any{}
	pr.ledger["method_family_audit"].(jmap)["status"] = "coverage_debt"
	pr.ledger["final_status"] = "coverage_incomplete"
	sv := validSurvey(pr.rewriteLedger(t, pr.ledger))
	m := sv["coverage"].(jmap)["method_family_audit"].(jmap)
	m["status"], m["cited_method_descriptions_audited"], m["unresolved_method_family_gaps"] = "coverage_debt", 0, 1
	ds := CheckSurvey(file(t, "survey.json", sv), pr.root)
	for _, d := range ds {
		if d.Code != CodeReceiptOpen.Code {
			t.Fatalf("want only PRIOR031, got:\n%s", messages(ds))
		}
	}
	if len(ds) == 0 {
		t.Fatal("a saturated survey carrying debt passed")
	}
	sv["coverage"].(jmap)["saturation"] = "coverage_incomplete"
	if ds := CheckSurvey(file(t, "survey.json", sv), pr.root); len(ds) != 0 {
		t.Fatalf("honest coverage_incomplete survey refused:\n%s", messages(ds))
	}
}

func emptyLedger(l jmap) {
	pool := l["candidate_pool"].(jmap)
	pool["selected_core_ids"], pool["candidates"], pool["total_candidates"] = []any{}, []any{}, 0
	l["bibliography_reconciliation"].(jmap)["core_sources"] = []any{}
	m := l["method_family_audit"].(jmap)
	m["source_audits"], m["taxonomy"] = []any{}, []any{}
	l["citation_graph"].(jmap)["seeds"] = []any{}
}
