package prior

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// The conformance fixtures mirror the reference's test_close_prior_gate.py:
// a temp project holding two archived identity records, one raw bibliography
// manifest and a saturated ledger, and a survey bound to it.

type jmap = map[string]any

func mustJSON(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return b
}

// writePinned writes v as JSON under root/rel and returns its pinned ref.
func writePinned(t testing.TB, root, rel string, v any) string {
	t.Helper()
	b := mustJSON(v)
	path := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return "project://" + rel + "#" + PinBytes(b)
}

const (
	coreID    = "provider:catalog:core-1"
	citedID   = "doi:10.1000/example"
	ledgerRel = "artifacts/literature/literature-ledger.json"
)

func coreRecord() jmap {
	return jmap{"citation_key": coreID, "providers": []any{
		jmap{"provider": "catalog", "title": "Source-grounded example paper", "authors": []any{"Doe, Jane"}, "year": 2026, "doi": nil, "venue": nil, "identifier": "core-1"},
		jmap{"provider": "registry", "title": "Source-grounded example paper", "authors": []any{"Jane Doe"}, "year": 2026, "doi": nil, "venue": "Example Letters", "identifier": "record-1"},
	}}
}

func citedRecord() jmap {
	return jmap{"citation_key": "10.1000/example", "providers": []any{
		jmap{"provider": "crossref", "title": "Cited example", "authors": []any{"Roe, Rick"}, "year": 2020, "doi": "10.1000/example", "venue": nil, "identifier": nil},
	}}
}

func manifest() jmap {
	return jmap{"source_id": coreID, "references": []any{
		jmap{"raw_text": "R. Roe, Cited example (2020)", "locator": "References, entry 1", "candidate_id": citedID,
			"identity": jmap{"canonical_id": citedID, "title": "Cited example", "year": 2020}},
	}}
}

// baseLedger builds the saturated ledger around the given side-file refs.
func baseLedger(coreRef, citedRef, bibRef string) jmap {
	return jmap{
		"final_status": "saturated", "stop_reason": "every provider exhausted and the last round added no core",
		"providers": jmap{"catalog": jmap{"status": "queried", "queries": []any{"q1"}, "returned_count": 2, "total_count": 2,
			"execution_bounds": jmap{"max_requests": 1, "max_records": 10},
			"request_log":      []any{jmap{"query": "q1", "page_or_cursor": "page:1", "returned_count": 2, "continuation": "exhausted"}},
			"stop_reason":      "exhausted"}},
		"candidate_pool": jmap{"artifact": ledgerRel, "selection_rationale": "core papers address the same observable",
			"total_candidates": 2, "selected_core_ids": []any{coreID}, "candidates": []any{
				jmap{"id": coreID, "identity_status": "resolved", "disposition": "core", "rationale": "same scope",
					"canonical_identity": jmap{"canonical_id": coreID, "title": "Source-grounded example paper", "year": 2026,
						"url": "https://catalog.example/records/core-1", "aliases": []any{},
						"provenance": jmap{"kind": "citation_triangulation", "provider": "catalog", "record_ref": coreRef, "record_sha256": refPin(coreRef)}},
					"discovered_from": []any{jmap{"kind": "search", "source_id": "catalog", "locator": "q1 page 1"}}},
				jmap{"id": citedID, "identity_status": "resolved", "disposition": "supporting", "rationale": "cited method",
					"canonical_identity": jmap{"canonical_id": citedID, "title": "Cited example", "year": 2020,
						"provenance": jmap{"kind": "authoritative_retrieval", "provider": "crossref", "record_ref": citedRef, "record_sha256": refPin(citedRef)}},
					"discovered_from": []any{jmap{"kind": "bibliography", "source_id": coreID, "locator": "References, entry 1"}}},
			}},
		"bibliography_reconciliation": jmap{"core_sources": []any{jmap{"id": coreID, "status": "reconciled",
			"references_artifact_ref": bibRef, "references_extracted": 1, "candidate_ids": []any{citedID}, "coverage_debt": []any{}}}},
		"method_family_audit": jmap{"status": "audited",
			"taxonomy": []any{jmap{"id": "integral-method", "label": "Integral method", "description": "integral equations"}},
			"source_audits": []any{jmap{"source_id": coreID,
				"paper_method_descriptions": []any{jmap{"description": "We solve the integral method equations numerically.", "locator": "sec. 2",
					"evidence_basis": "source_text", "method_features": []any{"integral method"}, "family_ids": []any{"integral-method"}, "disposition": "classified"}},
				"bibliography_candidate_screening": []any{jmap{"candidate_id": citedID, "disposition": "method_bearing", "locator": "sec. 3",
					"evidence_basis": "source_text", "rationale": "introduces the method",
					"description": "The cited integral method kernel.", "method_features": []any{"integral method"},
					"family_ids": []any{"integral-method"}, "method_disposition": "classified"}}}}},
		"citation_graph": jmap{"seeds": []any{jmap{"id": coreID, "references_checked": true, "citations_checked": true, "coverage_status": "saturated", "gaps": []any{}}}},
	}
}

func refPin(ref string) string {
	if i := strings.Index(ref, "#"); i >= 0 {
		return ref[i+1:]
	}
	return ""
}

func validSurvey(ledgerRef string) jmap {
	return jmap{"version": "1", "topic": "example",
		"papers": []any{jmap{"ref_key": "Ex2026", "role": "core", "read_status": "full_text_read",
			"source_links":  []any{"https://catalog.example/records/core-1"},
			"read_locators": []any{"source.tex lines 10-70"},
			"read_sections": []any{"introduction", "formalism_method", "results_discussion", "conclusion_outlook"},
			"identity_triangulation": jmap{"verdict": "consistent", "providers": []any{
				jmap{"provider": "catalog", "title": "Source-grounded example paper", "year": 2026, "identifier": "core-1"},
				jmap{"provider": "registry", "title": "Source-grounded example paper", "year": 2026, "identifier": "record-1"}}},
			"source_fidelity_audit": jmap{"status": "pass", "auditor": "rev", "checked_locators": []any{"source.tex lines 10-70"}}}},
		"coverage": jmap{"total_papers": 1, "deep_read": 1, "core_total": 1, "core_deep_read": 1, "saturation": "saturated",
			"saturation_evidence": []any{
				jmap{"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 1, "discovery_methods": []any{"seed_search", "backward_references"}},
				jmap{"round": 2, "expansion_candidates_screened": 6, "new_core_papers": 0, "discovery_methods": []any{"forward_citations", "critique_specific_search"}}},
			"bibliography_reconciliation": jmap{"status": "reconciled", "artifact_ref": ledgerRef, "core_sources_total": 1, "core_sources_reconciled": 1,
				"candidates_total": 2, "candidates_dispositioned": 2, "unresolved_candidates": 0, "coverage_debt_candidates": 0},
			"method_family_audit": jmap{"status": "audited", "artifact_ref": ledgerRef, "core_sources_total": 1, "core_sources_audited": 1,
				"taxonomy_families": 1, "source_method_descriptions_audited": 1, "cited_method_descriptions_audited": 1, "unresolved_method_family_gaps": 0}}}
}

func validEntry() jmap {
	return jmap{"reference": "Example2026", "read_status": "full_text_read",
		"source_link": "https://arxiv.org/abs/2601.00001", "locator": "sec. 4, eq. 12",
		"sections_read": []any{"introduction", "formalism_method", "results_discussion", "conclusion_outlook"},
		"same_scope":    "adjacent", "supports_subclaims": []any{"mechanism"}, "weakens_novelty_claims": []any{}, "stale_or_provisional": false,
		"identity_triangulation": jmap{"verdict": "consistent", "providers": []any{
			jmap{"provider": "arXiv", "title": "Example close prior", "year": 2026, "identifier": "arXiv:2601.00001"},
			jmap{"provider": "INSPIRE", "title": "Example close prior", "year": "2026", "identifier": "recid 2853359"}}},
		"source_fidelity_audit": jmap{"status": "pass", "auditor": "rev", "checked_locators": []any{"sec. 4"}}}
}

func validMatrix() jmap {
	return jmap{"coverage_status": "saturated", "posterior_status": "current", "allocation_eligible": true,
		"survey_ref":             "project://artifacts/literature/survey.json#sha256:" + strings.Repeat("c", 64),
		"close_prior_matrix_ref": "project://artifacts/literature/close_prior_matrix.json#sha256:" + strings.Repeat("d", 64),
		"entries":                []any{validEntry()},
		"critique_search":        jmap{"queries": []any{"example criticism"}, "top_hits_reviewed": []any{"Example2026"}},
		"gaia_anchors": []any{jmap{"anchor_source": "claim_grounding", "proposition": "the mechanism exists", "quote": "we observe",
			"locator": "sec. 4", "source_link": "https://arxiv.org/abs/2601.00001"}}}
}

const validReport = `# Posterior report

## Close-Prior Matrix

| Reference | Read status | Same-scope | Supports | Weakens | Stale |
|---|---|---|---|---|---|
| [Example2026](https://arxiv.org/abs/2601.00001) | full_text_read | adjacent | mechanism | — | no |
`

// project is one temp project with the bound ledger written.
type project struct {
	root                                 string
	ledgerRef, coreRef, citedRef, bibRef string
	ledger                               jmap
}

func newProject(t testing.TB) *project {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".nullius"), 0o755); err != nil {
		t.Fatal(err)
	}
	pr := &project{root: root}
	pr.coreRef = writePinned(t, root, "artifacts/literature/records/core-1.json", coreRecord())
	pr.citedRef = writePinned(t, root, "artifacts/literature/records/example.json", citedRecord())
	pr.bibRef = writePinned(t, root, "artifacts/literature/core-1-bibliography.json", manifest())
	pr.ledger = baseLedger(pr.coreRef, pr.citedRef, pr.bibRef)
	pr.ledgerRef = writePinned(t, root, ledgerRel, pr.ledger)
	return pr
}

// rewriteLedger writes a modified ledger and returns its new ref.
func (pr *project) rewriteLedger(t testing.TB, l jmap) string {
	pr.ledgerRef = writePinned(t, pr.root, ledgerRel, l)
	return pr.ledgerRef
}

func file(t testing.TB, path string, v any) *File {
	t.Helper()
	f, ds := ParseFile(path, mustJSON(v))
	if len(ds) > 0 {
		t.Fatalf("fixture %s does not parse: %v", path, ds)
	}
	return f
}

// gate runs the gate on in-memory artifacts; matrix nil means missing.
func gate(t testing.TB, root string, survey, matrix any, report string, allow bool, ir any) Result {
	t.Helper()
	in := Input{Survey: file(t, "survey.json", survey), Report: &report, ReportPath: "report.md", ProjectRoot: root, AllowExploratory: allow, IR: ir}
	if matrix != nil {
		in.Matrix = file(t, "matrix.json", matrix)
	}
	return Gate(in)
}

func messages(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Code + " " + d.Pointer + " " + d.Message + "\n")
	}
	return b.String()
}

// expect asserts every fragment appears in some message (and, with none
// given, that nothing was reported).
func expect(t *testing.T, r Result, fragments ...string) {
	t.Helper()
	all := messages(r.Diagnostics)
	if len(fragments) == 0 {
		if len(r.Diagnostics) != 0 {
			t.Fatalf("want no problems, got:\n%s", all)
		}
		if r.Verdict == Refused {
			t.Fatalf("verdict refused with no problems")
		}
		return
	}
	for _, f := range fragments {
		if !strings.Contains(all, f) {
			t.Errorf("want a problem containing %q, got:\n%s", f, all)
		}
	}
	if r.Verdict != Refused {
		t.Errorf("verdict %q, want refused", r.Verdict)
	}
}

func hasCode(ds []diag.Diagnostic, rule *diag.Rule) bool {
	for _, d := range ds {
		if d.Code == rule.Code {
			return true
		}
	}
	return false
}
