package prior

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gcase is one row of the conformance table of close-prior-and-writeback.md
// §6.1 (G1..G47). setup mutates the baseline; want lists fragments that must
// appear (none = the gate passes).
type gcase struct {
	id   string
	edit func(t *testing.T, x *gx)
	want []string
}

// gx is the mutable baseline of one case.
type gx struct {
	pr     *project
	root   string
	survey jmap
	matrix any
	report string
	allow  bool
	ir     any
}

func (x *gx) cov() jmap    { return x.survey["coverage"].(jmap) }
func (x *gx) bib() jmap    { return x.cov()["bibliography_reconciliation"].(jmap) }
func (x *gx) meth() jmap   { return x.cov()["method_family_audit"].(jmap) }
func (x *gx) m() jmap      { return x.matrix.(jmap) }
func (x *gx) entry() jmap  { return x.m()["entries"].([]any)[0].(jmap) }
func (x *gx) l() jmap      { return x.pr.ledger }
func (x *gx) pool() jmap   { return x.l()["candidate_pool"].(jmap) }
func (x *gx) cands() []any { return x.pool()["candidates"].([]any) }

// rebind rewrites the ledger and points both receipts at it.
func (x *gx) rebind(t *testing.T) {
	ref := x.pr.rewriteLedger(t, x.pr.ledger)
	x.bib()["artifact_ref"] = ref
	x.meth()["artifact_ref"] = ref
}

func tensionIR(pairs [][2]float64, reasoning any) jmap {
	ks := []any{jmap{"id": "k_tension", "label": "tension_resolution", "type": "claim", "content": "x"}}
	var strats []any
	for i, pr := range pairs {
		ev := "k_ev" + itoa(i)
		ks = append(ks, jmap{"id": ev, "label": "ev" + itoa(i), "type": "claim", "content": "e"})
		strats = append(strats, jmap{"type": "infer", "premises": []any{"k_tension"}, "conclusion": ev,
			"conditional_probabilities": []any{pr[1], pr[0]}, "steps": []any{jmap{"reasoning": reasoning}}})
	}
	return jmap{"ir_hash": "sha256:" + strings.Repeat("a", 64), "knowledges": ks, "strategies": strats}
}

const clause = "reader_reasoning: the mechanism resolves it. resolution_evidence: mechanism; anchor: sec. 4"

var gateCases = []gcase{
	{"G1", func(t *testing.T, x *gx) {}, nil},
	{"G2", func(t *testing.T, x *gx) { x.root = "" }, []string{"project_root is required"}},
	{"G3", func(t *testing.T, x *gx) {
		ref := "project://artifacts/literature/missing.json#sha256:" + strings.Repeat("0", 64)
		x.bib()["artifact_ref"], x.meth()["artifact_ref"] = ref, ref
	}, []string{"does not resolve"}},
	{"G4a", func(t *testing.T, x *gx) {
		ref := "project://" + ledgerRel + "#sha256:" + strings.Repeat("0", 64)
		x.bib()["artifact_ref"], x.meth()["artifact_ref"] = ref, ref
	}, []string{"pin"}},
	{"G4b", func(t *testing.T, x *gx) {
		ref := "project://../outside.json#sha256:" + strings.Repeat("0", 64)
		x.bib()["artifact_ref"], x.meth()["artifact_ref"] = ref, ref
	}, []string{"escapes"}},
	{"G5", func(t *testing.T, x *gx) {
		x.meth()["artifact_ref"] = writePinned(t, x.root, "artifacts/literature/other-ledger.json", x.pr.ledger)
	}, []string{"same combined ledger"}},
	{"G6", func(t *testing.T, x *gx) {
		c := x.cands()[0].(jmap)
		c["id"] = "provider:catalog:other-core"
		c["canonical_identity"].(jmap)["canonical_id"] = "provider:catalog:other-core"
		x.pool()["selected_core_ids"] = []any{"provider:catalog:other-core"}
		x.rebind(t)
	}, []string{"core identity set"}},
	{"G7", func(t *testing.T, x *gx) {
		x.bib()["candidates_total"] = 99
		x.meth()["cited_method_descriptions_audited"] = 99
	}, []string{"does not match detailed ledger"}},
	{"G8a", func(t *testing.T, x *gx) {
		x.pool()["candidates"] = append(x.cands(), jmap{"id": "doi:10.1000/debt", "identity_status": "unresolved", "disposition": "coverage_debt",
			"rationale": "could not resolve", "discovered_from": []any{jmap{"kind": "search", "source_id": "catalog", "locator": "q1 page 1"}}})
		x.pool()["total_candidates"] = 3
		x.rebind(t)
		x.bib()["candidates_total"], x.bib()["candidates_dispositioned"] = 3, 3
	}, []string{"cannot retain unresolved/coverage-debt candidates"}},
	{"G8b", func(t *testing.T, x *gx) {
		x.cands()[1].(jmap)["disposition"] = "core"
		x.rebind(t)
	}, []string{"core-disposition candidate"}},
	{"G9", func(t *testing.T, x *gx) {
		rec := jmap{"citation_key": "provider:catalog:cited-example", "providers": []any{
			jmap{"provider": "catalog", "title": "Cited example", "authors": []any{"Roe, Rick"}, "year": 2020, "doi": "10.1000/example", "venue": nil, "identifier": "cited-example"}}}
		ref := writePinned(t, x.root, "artifacts/literature/records/cited-example.json", rec)
		x.pool()["candidates"] = append(x.cands(), jmap{"id": "provider:catalog:cited-example", "identity_status": "resolved", "disposition": "background",
			"rationale": "duplicate listing", "discovered_from": []any{jmap{"kind": "search", "source_id": "catalog", "locator": "q1 page 1"}},
			"canonical_identity": jmap{"canonical_id": "provider:catalog:cited-example", "title": "Cited example", "year": 2020,
				"provenance": jmap{"kind": "archived_canonical_metadata", "provider": "catalog", "record_ref": ref, "record_sha256": refPin(ref)}}})
		x.pool()["total_candidates"] = 3
		x.rebind(t)
		x.bib()["candidates_total"], x.bib()["candidates_dispositioned"] = 3, 3
	}, []string{"merge aliases"}},
	{"G10", func(t *testing.T, x *gx) {
		prov := x.cands()[0].(jmap)["canonical_identity"].(jmap)["provenance"].(jmap)
		prov["record_ref"] = "project://artifacts/literature/records/missing.json#sha256:" + strings.Repeat("0", 64)
		prov["record_sha256"] = "sha256:" + strings.Repeat("0", 64)
		x.rebind(t)
	}, []string{"provenance.record_ref does not resolve"}},
	{"G11a", func(t *testing.T, x *gx) {
		prov := x.cands()[1].(jmap)["canonical_identity"].(jmap)["provenance"].(jmap)
		prov["record_ref"] = "https://records.example/cited.json#sha256:" + strings.Repeat("b", 64)
		prov["record_sha256"] = "sha256:" + strings.Repeat("b", 64)
		x.rebind(t)
	}, []string{"must be an exact pinned project JSON reference"}},
	{"G11b", func(t *testing.T, x *gx) {
		rec := citedRecord()
		rec["providers"].([]any)[0].(jmap)["title"] = "A different paper"
		ref := writePinned(t, x.root, "artifacts/literature/records/example.json", rec)
		prov := x.cands()[1].(jmap)["canonical_identity"].(jmap)["provenance"].(jmap)
		prov["record_ref"], prov["record_sha256"] = ref, refPin(ref)
		x.rebind(t)
	}, []string{"title does not match canonical candidate metadata"}},
	{"G12", func(t *testing.T, x *gx) {
		a := x.l()["method_family_audit"].(jmap)["source_audits"].([]any)[0].(jmap)
		a["bibliography_candidate_screening"] = []any{jmap{"candidate_id": citedID, "disposition": "not_method_bearing", "locator": "title",
			"evidence_basis": "title_year_query", "rationale": "title only"}}
		x.rebind(t)
	}, []string{"evidence_basis must be 'source_text'"}},
	{"G13a", func(t *testing.T, x *gx) {
		c := x.cands()[1].(jmap)
		c["discovered_from"] = append(c["discovered_from"].([]any), jmap{"kind": "bibliography", "source_id": coreID, "locator": "References, entry 8"})
		x.rebind(t)
	}, []string{"bibliography discovery claims do not match the pinned raw manifest"}},
	{"G13b", func(t *testing.T, x *gx) {
		c := x.cands()[1].(jmap)
		c["discovered_from"] = append(c["discovered_from"].([]any), jmap{"kind": "bibliography", "source_id": "provider:catalog:unknown", "locator": "References, entry 2"})
		x.rebind(t)
	}, []string{"is not a selected core source"}},
	{"G14", func(t *testing.T, x *gx) { delete(x.l(), "providers"); x.rebind(t) },
		[]string{"providers must include bounded query/page or cursor accounting"}},
	{"G15", func(t *testing.T, x *gx) {
		x.l()["providers"].(jmap)["catalog"].(jmap)["queries"] = []any{"q1", "q2"}
		x.rebind(t)
	}, []string{"every declared query must have request_log coverage"}},
	{"G16", func(t *testing.T, x *gx) {
		rec := jmap{"citation_key": "10.2000/different", "providers": []any{
			jmap{"provider": "registry", "title": "Source-grounded example paper", "authors": []any{"Doe, Jane"}, "year": 2026, "doi": "10.2000/different", "venue": nil, "identifier": nil}}}
		ref := writePinned(t, x.root, "artifacts/literature/records/core-doi.json", rec)
		ci := x.cands()[0].(jmap)["canonical_identity"].(jmap)
		ci["canonical_id"] = "doi:10.2000/different"
		ci["provenance"] = jmap{"kind": "archived_canonical_metadata", "provider": "registry", "record_ref": ref, "record_sha256": refPin(ref)}
		x.rebind(t)
	}, []string{"core identity set"}},
	{"G17", func(t *testing.T, x *gx) { x.m()["posterior_status"] = "stale"; x.m()["allocation_eligible"] = false },
		[]string{"posterior_status stale"}},
	{"G18a", func(t *testing.T, x *gx) {
		x.m()["coverage_status"], x.m()["posterior_status"], x.m()["allocation_eligible"] = "coverage_incomplete", "provisional", false
	}, nil},
	{"G18b", func(t *testing.T, x *gx) {
		x.m()["coverage_status"], x.m()["posterior_status"], x.m()["allocation_eligible"] = "coverage_incomplete", "current", false
	}, []string{"posterior_status current"}},
	{"G18c", func(t *testing.T, x *gx) {
		x.m()["coverage_status"], x.m()["posterior_status"], x.m()["allocation_eligible"] = "coverage_incomplete", "provisional", true
	}, []string{"allocation_eligible"}},
	{"G19a", func(t *testing.T, x *gx) {
		x.m()["coverage_status"], x.m()["posterior_status"], x.m()["allocation_eligible"] = "coverage_incomplete", "provisional", true
		x.m()["exploratory_allocation"] = true
	}, []string{"requires --allow-exploratory"}},
	{"G19b", func(t *testing.T, x *gx) {
		x.m()["coverage_status"], x.m()["posterior_status"], x.m()["allocation_eligible"] = "coverage_incomplete", "provisional", true
		x.m()["exploratory_allocation"] = true
		x.allow = true
	}, nil},
	{"G20", func(t *testing.T, x *gx) {
		x.m()["coverage_status"], x.m()["posterior_status"] = "metadata_only", "provisional"
	},
		[]string{"metadata_only coverage"}},
	{"G21", func(t *testing.T, x *gx) { x.cov()["saturation"] = "unknown"; delete(x.cov(), "saturation_evidence") },
		[]string{"saturation=unknown"}},
	{"G22", func(t *testing.T, x *gx) {
		x.cov()["saturation_evidence"] = []any{jmap{"round": 2, "expansion_candidates_screened": 0, "new_core_papers": 1, "discovery_methods": []any{"seed_search", "seed_search"}}}
	}, []string{"round must equal 1", "positive integer", "cannot exceed", "must not repeat"}},
	{"G23", func(t *testing.T, x *gx) { x.bib()["status"] = "coverage_debt"; x.bib()["unresolved_candidates"] = 1 },
		[]string{"requires bibliography_reconciliation.status=reconciled", "cannot retain unresolved or coverage-debt bibliography candidates"}},
	{"G24", func(t *testing.T, x *gx) {
		x.meth()["status"] = "coverage_debt"
		x.meth()["unresolved_method_family_gaps"] = 1
	},
		[]string{"requires method_family_audit.status=audited", "cannot retain unresolved method-family gaps"}},
	{"G25", func(t *testing.T, x *gx) { x.meth()["source_method_descriptions_audited"] = 0; x.root = "" },
		[]string{"source-text method evidence for every audited core source"}},
	{"G26", func(t *testing.T, x *gx) {
		for _, k := range []string{"core_sources_total", "core_sources_reconciled", "candidates_total", "candidates_dispositioned", "unresolved_candidates", "coverage_debt_candidates"} {
			x.bib()[k] = true
		}
		for _, k := range []string{"core_sources_total", "core_sources_audited", "taxonomy_families", "source_method_descriptions_audited", "cited_method_descriptions_audited", "unresolved_method_family_gaps"} {
			x.meth()[k] = true
		}
		x.cov()["core_total"] = true
		r := x.cov()["saturation_evidence"].([]any)[0].(jmap)
		r["round"], r["expansion_candidates_screened"] = true, true
	}, []string{"bibliography_reconciliation.candidates_total must be a non-negative integer", "method_family_audit.taxonomy_families must be a non-negative integer",
		"coverage.core_total must be a non-negative integer", "bibliography_reconciliation.core_sources_total must be a non-negative integer",
		"method_family_audit.core_sources_total must be a non-negative integer", ".round must be a positive integer", "expansion_candidates_screened must be a positive integer"}},
	{"G27", func(t *testing.T, x *gx) {
		x.meth()["taxonomy_families"] = "bad"
		x.meth()["source_method_descriptions_audited"] = "bad"
	},
		[]string{"method_family_audit.taxonomy_families must be a non-negative integer", "method_family_audit.source_method_descriptions_audited must be a non-negative integer"}},
	{"G28", func(t *testing.T, x *gx) {
		delete(x.m(), "critique_search")
		x.m()["tension_resolution"] = jmap{"grade": "substantial", "supporting_refs": []any{"A"}, "challenge_refs": []any{"B"}}
	}, []string{"critique_search.queries"}},
	{"G29", func(t *testing.T, x *gx) {
		x.m()["tension_resolution"] = jmap{"grade": "substantial", "supporting_refs": []any{"A"}}
	}, []string{"challenge_refs"}},
	{"G30", func(t *testing.T, x *gx) {
		x.m()["tension_resolution"] = jmap{"grade": "weakest", "supporting_refs": []any{"A"}, "challenge_refs": []any{"B"}}
		x.ir = tensionIR([][2]float64{{0.9, 0.09}}, clause)
	}, []string{"does not match compiled Gaia"}},
	{"G31a", func(t *testing.T, x *gx) {
		x.m()["tension_resolution"] = jmap{"grade": "substantial", "supporting_refs": []any{"A"}, "challenge_refs": []any{"B"}}
		x.ir = tensionIR([][2]float64{{0.75, 0.25}, {0.9, 0.09}}, clause)
	}, []string{"raising_likelihood_grades"}},
	{"G31b", func(t *testing.T, x *gx) {
		x.m()["tension_resolution"] = jmap{"grade": "substantial", "raising_likelihood_grades": []any{"weakest", "substantial"}, "supporting_refs": []any{"A"}, "challenge_refs": []any{"B"}}
		x.ir = tensionIR([][2]float64{{0.75, 0.25}, {0.9, 0.09}}, clause)
	}, nil},
	{"G32", func(t *testing.T, x *gx) {
		x.m()["tension_resolution"] = jmap{"grade": "substantial", "supporting_refs": []any{"A"}, "challenge_refs": []any{"B"}}
		x.ir = tensionIR([][2]float64{{0.9, 0.09}}, "reader_reasoning: the tension exists and we plan a test. anchor: sec. 1")
	}, []string{"tension existence or a plan alone is insufficient"}},
	{"G33", func(t *testing.T, x *gx) {
		x.m()["tension_resolution"] = jmap{"grade": "substantial", "supporting_refs": []any{"A"}, "challenge_refs": []any{"B"}}
		x.ir = tensionIR([][2]float64{{0.9, 0.09}}, nil)
	}, []string{"idea-specific pre-anchor clause"}},
	{"G34", func(t *testing.T, x *gx) { x.m()["entries"] = []any{jmap{"reference": "ThinEntry"}} },
		[]string{"read_status", "source_link", "locator", "citation identity triangulation"}},
	{"G35a", func(t *testing.T, x *gx) { x.entry()["identity_triangulation"].(jmap)["verdict"] = "conflicted" }, []string{"verdict must be consistent"}},
	{"G35b", func(t *testing.T, x *gx) {
		tri := x.entry()["identity_triangulation"].(jmap)
		tri["providers"] = tri["providers"].([]any)[:1]
	}, []string{"at least two provider records"}},
	{"G35c", func(t *testing.T, x *gx) {
		x.entry()["identity_triangulation"].(jmap)["providers"].([]any)[1].(jmap)["provider"] = "arxiv"
	}, []string{"independent provider names"}},
	{"G35d", func(t *testing.T, x *gx) {
		x.entry()["identity_triangulation"].(jmap)["providers"].([]any)[1].(jmap)["title"] = "Another paper"
	}, []string{"conflicting titles"}},
	{"G35e", func(t *testing.T, x *gx) {
		x.entry()["identity_triangulation"].(jmap)["providers"].([]any)[1].(jmap)["identifier"] = "arXiv:2601.99999"
	}, []string{"conflicting arXiv ids"}},
	{"G36", func(t *testing.T, x *gx) {
		e := x.entry()
		e["read_status"], e["supports_subclaims"] = "metadata_only", []any{"novelty"}
	}, []string{"cannot support or weaken subclaims"}},
	{"G37", func(t *testing.T, x *gx) {
		e := x.entry()
		e["read_status"], e["supports_subclaims"], e["gaia_anchor_refs"] = "metadata_only", []any{}, []any{"anchor-1"}
	}, []string{"cannot anchor Gaia likelihood"}},
	{"G38", func(t *testing.T, x *gx) {
		x.m()["negative_novelty_claims"] = []any{jmap{"claim": "no prior work", "strength": "strong"}}
	},
		[]string{"requires reviewer_gate"}},
	{"G39", func(t *testing.T, x *gx) { x.matrix = nil }, []string{"close-prior matrix must be a JSON object"}},
	{"G40", func(t *testing.T, x *gx) {
		x.report = strings.Replace(validReport, "[Example2026](https://arxiv.org/abs/2601.00001)", "Example2026", 1) + "\nSee [notes](notes.md).\n"
	}, []string{"clickable source link"}},
	{"G41a", func(t *testing.T, x *gx) { delete(x.entry(), "source_fidelity_audit") }, []string{"source_fidelity_audit"}},
	{"G41b", func(t *testing.T, x *gx) { x.entry()["source_fidelity_audit"].(jmap)["status"] = "partial" }, []string{"status must be pass"}},
	{"G42", func(t *testing.T, x *gx) {
		e := x.entry()
		e["required_late_caveat_terms"] = []any{"source profile", "source size", "UV regulator"}
		e["key_caveats"] = []any{"results depend on the cutoff"}
	}, []string{"required late-section caveat terms", "source profile"}},
	{"G43", func(t *testing.T, x *gx) {
		e := x.entry()
		e["required_late_caveat_terms"] = []any{"source profile", "source size", "UV regulator"}
		e["key_caveats"] = []any{"Gaussian source profile assumed", "source size 1 fm"}
		e["caveat_summary"] = "results depend on the uv regulator"
	}, nil},
	{"G44", func(t *testing.T, x *gx) {
		x.m()["subagent_inputs"] = []any{jmap{"summary": "s", "used_in_gaia": true}}
	},
		[]string{"without claim_grounding_ref"}},
	{"G45", func(t *testing.T, x *gx) {
		x.m()["gaia_anchors"].([]any)[0].(jmap)["anchor_source"] = "subagent_summary"
	},
		[]string{"must come from claim_grounding"}},
	{"G46", func(t *testing.T, x *gx) {
		x.m()["gaia_anchors"].([]any)[0].(jmap)["source_link"] = "https://arxiv.org/abs/2601.99999"
	}, []string{"must match a source-read close-prior entry"}},
}

func TestGateConformance(t *testing.T) {
	for _, tc := range gateCases {
		t.Run(tc.id, func(t *testing.T) {
			pr := newProject(t)
			x := &gx{pr: pr, root: pr.root, survey: validSurvey(pr.ledgerRef), matrix: validMatrix(), report: validReport}
			tc.edit(t, x)
			r := gate(t, x.root, x.survey, x.matrix, x.report, x.allow, x.ir)
			expect(t, r, tc.want...)
		})
	}
}

// TestGateLocatesFindings checks that findings carry the pointer of the
// offending member and the line it maps to.
func TestGateLocatesFindings(t *testing.T) {
	pr := newProject(t)
	s := validSurvey(pr.ledgerRef)
	s["coverage"].(jmap)["bibliography_reconciliation"].(jmap)["candidates_total"] = 99
	r := gate(t, pr.root, s, validMatrix(), validReport, false, nil)
	for _, d := range r.Diagnostics {
		if d.Code == CodeReceiptMismatch.Code && d.Pointer == "/coverage/bibliography_reconciliation/candidates_total" {
			if d.Line <= 1 || d.Path != "survey.json" {
				t.Fatalf("finding not located: %+v", d)
			}
			return
		}
	}
	t.Fatalf("no located receipt mismatch in:\n%s", messages(r.Diagnostics))
}

func TestGateSymlinkedLedgerCannotEscape(t *testing.T) {
	pr := newProject(t)
	outside := t.TempDir()
	b, err := os.ReadFile(filepath.Join(pr.root, ledgerRel))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "l.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(pr.root, "artifacts/literature/link.json")
	if err := os.Symlink(filepath.Join(outside, "l.json"), link); err != nil {
		t.Skip("symlinks unsupported")
	}
	ref := "project://artifacts/literature/link.json#" + PinBytes(b)
	s := validSurvey(ref)
	r := gate(t, pr.root, s, validMatrix(), validReport, false, nil)
	expect(t, r, "does not resolve inside project root")
}
