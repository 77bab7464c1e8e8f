package prior

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the rules of the close-prior gate.
const family = diag.Family("prior")

// rule is an error rule of this family added in 0.1.0. The call inlines
// to a literal the linker lays out, so declaring a rule runs nothing at
// start. input names the file its examples are (merged into the clean
// close-prior project of fixtures/prior/project) or, for a set of files
// led by a command, the file the command checks.
func rule(code, name, title, text, input, bad, good, origin string) *diag.Rule {
	return &diag.Rule{Code: code, Name: name, Severity: diag.Error, Title: title, Text: text,
		Input: input, Bad: bad, Good: good, Since: "0.1.0", Origin: origin, Owner: string(family)}
}

// Files of the close-prior project the examples change.
const (
	survey     = "artifacts/literature/survey.json"
	matrix     = "artifacts/literature/close_prior_matrix.json"
	ledger     = "artifacts/literature/literature-ledger.json"
	gateResult = "artifacts/gate_result.json"
	report     = "artifacts/posterior_report_v1.md"
)

// gateCmd is the command line of the examples that need the whole gate.
const gateCmd = "$ nullius gate close-prior --survey " + survey + " --matrix " + matrix + " --report " + report

// Origins of the rules below.
const ref, nul = "reference", "nullius"

// The rules of the close-prior gate, each declared once with its
// documentation; the checks report these values. PRIOR0xx port the
// reference's rule groups (close-prior-and-writeback.md §2, group letters
// in the Text); PRIOR5xx close its weaknesses (§7).
var (
	CodeUnreadable = rule("PRIOR001", "prior-artifact-unreadable", "close-prior artifact is not a readable JSON object",
		"Survey, matrix, ledger and gate result must be UTF-8 JSON objects. A file that cannot be read or parsed is refused with its position; fix the syntax or regenerate the artifact.",
		gateResult,
		`{
  "artifact": "gate_result_v1",
  "idea_slug": "example-idea",
  "verdict": "passed",
}
`,
		`{
  "artifact": "gate_result_v1",
  "idea_slug": "example-idea",
  "verdict": "passed"
}
`, ref)
	CodeSchema = rule("PRIOR002", "prior-schema-violation", "close-prior artifact does not match its JSON Schema",
		"The artifact is checked against the embedded JSON Schema (schemas/*.json) before the semantic rules run. Fix the member at the reported pointer.",
		survey,
		`{"topic": 5}
`,
		`{"topic": "two-loop width matching"}
`, nul)
	CodeSurveyCoverage = rule("PRIOR010", "survey-coverage-invalid", "survey coverage block is missing or malformed",
		"S-1, S-2, S-3, S-5: the survey must be an object with a coverage object, a saturation of saturated, coverage_incomplete or unknown, and non-negative integer counters (booleans are not integers).",
		survey,
		`{"coverage": {"core_total": true}}
`,
		`{"coverage": {"core_total": 1}}
`, ref)
	CodeSatUnknown = rule("PRIOR011", "survey-saturation-unknown", "saturation=unknown cannot enter writeback",
		"S-4: an unmeasured saturation cannot back a posterior. Record the measured coverage_incomplete debt instead.",
		survey,
		`{"coverage": {"saturation": "unknown"}}
`,
		`{"coverage": {"saturation": "coverage_incomplete"}}
`, ref)
	CodeRounds = rule("PRIOR012", "saturation-round-malformed", "saturation_evidence round is malformed",
		"S-6: rounds are numbered 1, 2, ... in order, each screens a positive number of candidates, adds no more new core papers than it screened, and names distinct discovery methods from seed_search, backward_references, forward_citations, critique_specific_search.",
		survey,
		`{"coverage": {"saturation_evidence": [
  {"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 1,
   "discovery_methods": ["seed_search", "backward_references"]},
  {"round": 3, "expansion_candidates_screened": 6, "new_core_papers": 0,
   "discovery_methods": ["forward_citations", "critique_specific_search"]}
]}}
`,
		`{"coverage": {"saturation_evidence": [
  {"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 1,
   "discovery_methods": ["seed_search", "backward_references"]},
  {"round": 2, "expansion_candidates_screened": 6, "new_core_papers": 0,
   "discovery_methods": ["forward_citations", "critique_specific_search"]}
]}}
`, ref)
	CodeSatClosure = rule("PRIOR013", "saturation-not-closed", "saturated survey has not closed its expansion rounds",
		"S-7: a saturated survey needs measured rounds that together use all four discovery methods, whose last round screened candidates and added zero new core papers.",
		survey,
		`{"coverage": {"saturation_evidence": [
  {"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 1,
   "discovery_methods": ["seed_search", "backward_references", "forward_citations", "critique_specific_search"]}
]}}
`,
		`{"coverage": {"saturation_evidence": [
  {"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 1,
   "discovery_methods": ["seed_search", "backward_references", "forward_citations", "critique_specific_search"]},
  {"round": 2, "expansion_candidates_screened": 6, "new_core_papers": 0,
   "discovery_methods": ["forward_citations", "critique_specific_search"]}
]}}
`, ref)
	CodeReadEntry = rule("PRIOR020", "read-entry-incomplete", "close-prior entry lacks read status, link, locator or sections",
		"E-1..E-6: every survey core paper and matrix entry records a valid read_status, a source_link, a locator, and the sections read; core papers must be source-first read (metadata-only cannot anchor Gaia likelihood).",
		survey,
		`{"papers": [{"ref_key": "Ex2026", "read_status": "metadata_only"}]}
`,
		`{"papers": [{"ref_key": "Ex2026", "read_status": "section_read"}]}
`, ref)
	CodeIdentity = rule("PRIOR021", "citation-identity-triangulation", "citation identity triangulation is missing or inconsistent",
		"E-7..E-12: identity_triangulation has verdict consistent and at least two provider records with independent provider names whose titles, years, DOIs, arXiv ids and INSPIRE recids agree.",
		matrix,
		`{"entries": [{"reference": "Example2026", "identity_triangulation": {
  "verdict": "consistent",
  "providers": [
    {"provider": "arXiv", "identifier": "arXiv:2601.00001", "title": "Example close prior", "year": 2026},
    {"provider": "INSPIRE", "identifier": "recid 2853359", "title": "Example close prior", "year": 2025}
  ]}}]}
`,
		`{"entries": [{"reference": "Example2026", "identity_triangulation": {
  "verdict": "consistent",
  "providers": [
    {"provider": "arXiv", "identifier": "arXiv:2601.00001", "title": "Example close prior", "year": 2026},
    {"provider": "INSPIRE", "identifier": "recid 2853359", "title": "Example close prior", "year": 2026}
  ]}}]}
`, ref)
	CodeFidelity = rule("PRIOR022", "source-fidelity-audit", "source_fidelity_audit is missing or did not pass",
		"E-13..E-16: a deep-read summary records source_fidelity_audit with status pass, an auditor and the checked locators. nullius does not demand it of metadata_only/unavailable matrix entries (W-10).",
		matrix,
		`{"entries": [{"reference": "Example2026", "source_fidelity_audit": {"status": "partial"}}]}
`,
		`{"entries": [{"reference": "Example2026", "source_fidelity_audit": {"status": "pass"}}]}
`, ref)
	CodeReceipt = rule("PRIOR030", "coverage-receipt-malformed", "compact coverage receipt is malformed",
		"R-1..R-4, R-6..R-9: bibliography_reconciliation and method_family_audit receipts are objects with an artifact_ref and non-negative integer counters; core_sources_total equals coverage.core_total.",
		survey,
		`{"coverage": {"saturation": "coverage_incomplete", "core_total": 2}}
`,
		`{"coverage": {"saturation": "coverage_incomplete", "core_total": 1}}
`, ref)
	CodeReceiptOpen = rule("PRIOR031", "coverage-receipt-not-closed", "saturated survey receipt still carries debt",
		"R-5, R-10: a saturated survey requires bibliography_reconciliation.status=reconciled with every candidate dispositioned and none unresolved, and method_family_audit.status=audited with zero gaps and source-text method evidence for every audited core source.",
		survey,
		`$ nullius validate survey artifacts/literature/survey.json
-- artifacts/literature/literature-ledger.json --
{"final_status": "coverage_incomplete",
 "method_family_audit": {"status": "coverage_debt", "source_audits": [{"source_id": "provider:catalog:core-1",
   "bibliography_candidate_screening": [{"candidate_id": "doi:10.1000/example",
     "method_disposition": "coverage_debt", "family_ids": []}]}]}}
-- artifacts/literature/survey.json --
{"coverage": {
  "saturation": "saturated",
  "bibliography_reconciliation": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:<pin>"},
  "method_family_audit": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:<pin>",
    "status": "coverage_debt", "cited_method_descriptions_audited": 0, "unresolved_method_family_gaps": 1}}}
`,
		`$ nullius validate survey artifacts/literature/survey.json
-- artifacts/literature/literature-ledger.json --
{"final_status": "coverage_incomplete",
 "method_family_audit": {"status": "coverage_debt", "source_audits": [{"source_id": "provider:catalog:core-1",
   "bibliography_candidate_screening": [{"candidate_id": "doi:10.1000/example",
     "method_disposition": "coverage_debt", "family_ids": []}]}]}}
-- artifacts/literature/survey.json --
{"coverage": {
  "saturation": "coverage_incomplete",
  "bibliography_reconciliation": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:<pin>"},
  "method_family_audit": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:<pin>",
    "status": "coverage_debt", "cited_method_descriptions_audited": 0, "unresolved_method_family_gaps": 1}}}
`, ref)
	CodeLedgerPin = rule("PRIOR040", "ledger-pin-invalid", "receipts do not pin one resolvable detailed ledger",
		"L-0..L-3: both receipts pin the same combined ledger as project://<path>#sha256:<hex>; it must resolve inside the project root and match the exact bytes.",
		survey,
		`{"coverage": {
  "bibliography_reconciliation": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:0000000000000000000000000000000000000000000000000000000000000000"},
  "method_family_audit": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:0000000000000000000000000000000000000000000000000000000000000000"}
}}
`,
		`{"coverage": {
  "bibliography_reconciliation": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:<pin>"},
  "method_family_audit": {"artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:<pin>"}
}}
`, ref)
	CodeProviders = rule("PRIOR041", "ledger-provider-accounting", "ledger provider accounting is incomplete",
		"PA: providers record bounded query/page or cursor accounting: queries, counts, execution bounds and a request log covering every declared query to exhaustion.",
		ledger,
		`{"providers": {"catalog": {
  "queries": ["q1", "q2"]
}}}
`,
		`{"providers": {"catalog": {
  "queries": ["q1"]
}}}
`, ref)
	CodeCandidates = rule("PRIOR042", "ledger-candidate-pool", "ledger candidate pool or identity is invalid",
		"C, I: candidates have unique ids, a valid identity status and disposition, archived pinned identity provenance, non-overlapping identity keys, and the selected core set equals the core-disposition set.",
		ledger,
		`{"candidate_pool": {"total_candidates": 3}}
`,
		`{"candidate_pool": {"total_candidates": 2}}
`, ref)
	CodeBibliography = rule("PRIOR043", "ledger-bibliography", "ledger bibliography reconciliation is invalid",
		"B: each selected core source has a pinned raw bibliography manifest whose references match the ledger's bibliography discovery claims.",
		ledger,
		`{"candidate_pool": {"candidates": [{"id": "doi:10.1000/example", "discovered_from": [
  {"kind": "bibliography", "source_id": "provider:catalog:core-1", "locator": "References, entry 8"}
]}]}}
`,
		`{"candidate_pool": {"candidates": [{"id": "doi:10.1000/example", "discovered_from": [
  {"kind": "bibliography", "source_id": "provider:catalog:core-1", "locator": "References, entry 1"}
]}]}}
`, ref)
	CodeMethodAudit = rule("PRIOR044", "ledger-method-audit", "ledger method-family audit is invalid",
		"MA: a non-empty taxonomy, one audit per selected core with source-text method descriptions, and a screening for every reconciled bibliography candidate.",
		ledger,
		`{"method_family_audit": {"source_audits": [{"source_id": "provider:catalog:core-1",
  "paper_method_descriptions": [{"description": "We solve the integral method equations numerically.",
    "disposition": "classified", "evidence_basis": "title_year_query", "family_ids": ["integral-method"],
    "locator": "sec. 2", "method_features": ["integral method"]}]}]}}
`,
		`{"method_family_audit": {"source_audits": [{"source_id": "provider:catalog:core-1",
  "paper_method_descriptions": [{"description": "We solve the integral method equations numerically.",
    "disposition": "classified", "evidence_basis": "source_text", "family_ids": ["integral-method"],
    "locator": "sec. 2", "method_features": ["integral method"]}]}]}}
`, ref)
	CodeCitationGraph = rule("PRIOR045", "ledger-citation-graph", "ledger citation graph is incomplete",
		"G: one seed per selected core with references and citations checked. nullius lets a coverage_incomplete ledger record graph gaps as debt (W-5).",
		ledger,
		`{"citation_graph": {"seeds": [
  {"id": "provider:catalog:core-1", "citations_checked": false}
]}}
`,
		`{"citation_graph": {"seeds": [
  {"id": "provider:catalog:core-1", "citations_checked": true}
]}}
`, ref)
	CodeCoreBinding = rule("PRIOR046", "survey-core-binding", "survey core papers do not bind to the ledger",
		"SB: every survey core paper's identity keys match exactly one selected ledger core with the same title and year, and together they cover the selected set.",
		survey,
		`{"papers": [{"ref_key": "Ex2026", "identity_triangulation": {"providers": [
  {"provider": "catalog", "identifier": "core-2", "title": "Source-grounded example paper", "year": 2026},
  {"provider": "registry", "identifier": "record-2", "title": "Source-grounded example paper", "year": 2026}
]}, "source_links": ["https://catalog.example/records/core-2"]}]}
`,
		`{"papers": [{"ref_key": "Ex2026", "identity_triangulation": {"providers": [
  {"provider": "catalog", "identifier": "core-1", "title": "Source-grounded example paper", "year": 2026},
  {"provider": "registry", "identifier": "record-1", "title": "Source-grounded example paper", "year": 2026}
]}, "source_links": ["https://catalog.example/records/core-1"]}]}
`, ref)
	CodeReceiptMismatch = rule("PRIOR047", "receipt-ledger-mismatch", "receipt value does not match the recomputed ledger",
		"L-8, L-10, L-11: every receipt counter and status is recomputed from the pinned ledger; a typed number that differs is refused.",
		survey,
		`{"coverage": {"bibliography_reconciliation": {"candidates_total": 3, "candidates_dispositioned": 3}}}
`,
		`{"coverage": {"bibliography_reconciliation": {"candidates_total": 2, "candidates_dispositioned": 2}}}
`, ref)
	CodeLedgerStatus = rule("PRIOR048", "ledger-status-mismatch", "ledger final_status disagrees with recomputed closure",
		"L-5, L-14, L-15: final_status equals the recomputed closure, a stop_reason is recorded, and a saturated survey needs a saturated ledger. A saturated ledger that is incomplete only for reasons other findings already name (a query not exhausted, a citation-graph gap) is refused for those and not again here; debt that nothing else names (a core source or a method family left as coverage_debt) is refused here. Likewise a saturated survey whose receipts already carry the debt is PRIOR031 alone.",
		ledger,
		`{"final_status": "coverage_incomplete"}
`,
		`{"final_status": "saturated"}
`, ref)
	CodeMatrixShape = rule("PRIOR050", "matrix-shape", "close-prior matrix is missing or an entry lacks a field",
		"M-1..M-3, M-6..M-9: the matrix is a JSON object with at least one entry; each entry records same_scope, supports_subclaims, weakens_novelty_claims and stale_or_provisional.",
		matrix,
		`{"entries": [{"reference": "Example2026", "stale_or_provisional": null}]}
`,
		`{"entries": [{"reference": "Example2026", "stale_or_provisional": false}]}
`, ref)
	CodeMetadataOnly = rule("PRIOR051", "metadata-only-entry-used", "metadata-only entry supports claims or anchors likelihood",
		"M-4, M-5: a metadata_only or unavailable entry cannot anchor Gaia likelihood and cannot support or weaken subclaims.",
		matrix,
		`{"entries": [{"reference": "Example2026", "read_status": "metadata_only", "supports_subclaims": ["mechanism"]}],
 "gaia_anchors": []}
`,
		`{"entries": [{"reference": "Example2026", "read_status": "metadata_only", "supports_subclaims": []}],
 "gaia_anchors": []}
`, ref)
	CodeLateCaveat = rule("PRIOR052", "late-caveat-missing", "required late-section caveat terms are missing",
		"M-10: each term in required_late_caveat_terms appears in key_caveats or caveat_summary, and the entry read a late section.",
		matrix,
		`{"entries": [{"reference": "Example2026",
  "required_late_caveat_terms": ["source size"],
  "key_caveats": ["the cutoff is fixed by hand"]}]}
`,
		`{"entries": [{"reference": "Example2026",
  "required_late_caveat_terms": ["source size"],
  "key_caveats": ["the cutoff is fixed by hand", "results depend on the source size"]}]}
`, ref)
	CodeCritique = rule("PRIOR053", "critique-search-missing", "critique_search queries or reviewed hits are missing",
		"M-11, M-12: record critique_search.queries and critique_search.top_hits_reviewed.",
		matrix,
		`{"critique_search": {"top_hits_reviewed": []}}
`,
		`{"critique_search": {"top_hits_reviewed": ["Example2026"]}}
`, ref)
	CodeTension = rule("PRIOR054", "tension-resolution-invalid", "tension_resolution grade or reference pool is invalid",
		"M-13..M-16: grades are weakest, substantial or strong; above weakest needs supporting_refs and challenge_refs or competing_resolution_refs.",
		matrix,
		`{"tension_resolution": {"grade": "decisive"}}
`,
		`{"tension_resolution": {"grade": "substantial"}}
`, ref)
	CodeNegNovelty = rule("PRIOR055", "negative-novelty-reviewer-gate", "negative novelty claim lacks its reviewer gate",
		"M-17: every negative novelty claim requires reviewer_gate with the three checks literally true and non-empty same_scope_exclusions.",
		matrix,
		`{"negative_novelty_claims": [
  {"claim": "no prior work matches the two widths at two loops", "strength": "strong"}
]}
`,
		`{"negative_novelty_claims": [
  {"claim": "no prior work matches the two widths at two loops", "strength": "strong",
   "reviewer_gate": {"close_prior_matrix_checked": true, "critique_search_checked": true,
     "discussion_conclusion_checked": true, "same_scope_exclusions": ["Example2026 matches one loop only"]}}
]}
`, ref)
	CodeAnchor = rule("PRIOR056", "gaia-anchor-invalid", "Gaia anchor or subagent input is not grounded",
		"M-18, M-19: gaia_anchors must come from claim_grounding with proposition, quote, locator and a source_link of a source-read entry; subagent inputs used in Gaia need a claim_grounding_ref.",
		matrix,
		`{"gaia_anchors": [{"anchor_source": "subagent_summary", "locator": "sec. 4", "proposition": "the mechanism exists", "quote": "we observe", "source_link": "https://arxiv.org/abs/2601.00001"}]}
`,
		`{"gaia_anchors": [{"anchor_source": "claim_grounding", "locator": "sec. 4", "proposition": "the mechanism exists", "quote": "we observe", "source_link": "https://arxiv.org/abs/2601.00001"}]}
`, ref)
	CodeCoverageStatus = rule("PRIOR057", "coverage-status-not-writable", "coverage and posterior status cannot enter writeback",
		"M-20..M-26, X-1..X-4: the decision of the gate. current needs saturated coverage (or an explicit, allowed exploratory allocation); metadata_only, stale and mismatched survey/matrix statuses are refused.",
		matrix,
		`{"coverage_status": "metadata_only"}
`,
		`{"coverage_status": "saturated"}
`, ref)
	CodeReport = rule("PRIOR060", "posterior-report-matrix", "posterior report lacks the close-prior matrix section",
		"RP-1..RP-5: the report contains a close-prior matrix section with reference, read status, same-scope, supports, weakens and stale columns, clickable Markdown links, and each entry's source link.",
		report,
		gateCmd+"\n"+`-- artifacts/posterior_report_v1.md --
# Posterior report: example-idea

- Posterior value: `+"`"+`0.850`+"`"+`.

## Close-Prior Matrix

| Reference | Read status | Same-scope | Supports | Weakens | Stale |
|---|---|---|---|---|---|
| Example2026 | full_text_read | adjacent | mechanism | — | no |
`,
		gateCmd+"\n"+`-- artifacts/posterior_report_v1.md --
# Posterior report: example-idea

- Posterior value: `+"`"+`0.850`+"`"+`.

## Close-Prior Matrix

| Reference | Read status | Same-scope | Supports | Weakens | Stale |
|---|---|---|---|---|---|
| [Example2026](https://arxiv.org/abs/2601.00001) | full_text_read | adjacent | mechanism | — | no |
`, ref)
	CodeTensionIR = rule("PRIOR070", "tension-ir-mismatch", "tension grade disagrees with the compiled Gaia graph",
		"T-1..T-11: the matrix tension_resolution grade (and multiset) equal the raising updates compiled into the IR, each carrying a resolution_evidence clause.",
		matrix,
		gateCmd+" --package my-idea-gaia\n"+`-- artifacts/literature/close_prior_matrix.json --
{"tension_resolution": {"grade": "weakest"}}
`,
		gateCmd+" --package my-idea-gaia\n"+`-- artifacts/literature/close_prior_matrix.json --
{"tension_resolution": {"grade": "substantial"}}
`, ref)
	CodeGateResult = rule("PRIOR080", "gate-result-invalid", "gate_result_v1 admission verdict is malformed",
		"gate_result_v1 records artifact, idea_slug, verdict, route, anchors, rejection_reason and date; a passed verdict has no rejection reason and at least one anchor.",
		gateResult,
		`{"verdict": "passed", "rejection_reason": "too close to Example2026"}
`,
		`{"verdict": "rejected", "rejection_reason": "too close to Example2026"}
`, nul)
	CodeEmptySaturation = rule("PRIOR501", "vacuous-saturation", "saturated coverage with no core sources is vacuous",
		"W-6: an empty selected core set (or zero core papers) recomputes as saturated in the reference. nullius refuses it: a saturated survey or ledger must select at least one core source, and an empty ledger recomputes as coverage_incomplete, so declaring that is the fix.",
		ledger,
		`{"final_status": "saturated",
 "candidate_pool": {"selected_core_ids": [], "candidates": [], "total_candidates": 0},
 "bibliography_reconciliation": {"core_sources": []},
 "method_family_audit": {"source_audits": [], "taxonomy": []},
 "citation_graph": {"seeds": []}}
`,
		`{"final_status": "coverage_incomplete",
 "candidate_pool": {"selected_core_ids": [], "candidates": [], "total_candidates": 0},
 "bibliography_reconciliation": {"core_sources": []},
 "method_family_audit": {"source_audits": [], "taxonomy": []},
 "citation_graph": {"seeds": []}}
`, nul)
	CodeRefBinding = rule("PRIOR502", "coverage-ref-unbound", "survey_ref or close_prior_matrix_ref does not pin the validated file",
		"W-2: the engine stores survey_ref and close_prior_matrix_ref; nullius requires them to pin exactly the survey and matrix files the gate validated (writeback derives them itself).",
		matrix,
		gateCmd+"\n"+`-- artifacts/literature/close_prior_matrix.json --
{"survey_ref": "project://artifacts/literature/survey.json#sha256:3f0e5a7d2c91b84e6a0d9c2f71e4b5a8c3d6e9f0a1b2c3d4e5f60718293a4b5c"}
`,
		gateCmd+"\n"+`-- artifacts/literature/close_prior_matrix.json --
{"survey_ref": "project://artifacts/literature/survey.json#sha256:<pin>"}
`, nul)
	CodeOneSided = rule("PRIOR503", "one-sided-tension-pool", "tension challenge pool repeats the supporting references",
		"W-9: challenge_refs that only repeat supporting_refs are a one-sided pool; name at least one challenging or competing reference that is not also supporting.",
		matrix,
		`{"tension_resolution": {"supporting_refs": ["Example2026"], "challenge_refs": ["Example2026"]}}
`,
		`{"tension_resolution": {"supporting_refs": ["Example2026"], "challenge_refs": ["https://arxiv.org/abs/2601.00001#sec-5"]}}
`, nul)
	CodeRoundsVsCores = rule("PRIOR504", "rounds-exceed-core-total", "expansion rounds admit more core papers than core_total",
		"W-7: the sum of new_core_papers over all rounds cannot exceed coverage.core_total.",
		survey,
		`{"coverage": {"saturation_evidence": [
  {"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 2,
   "discovery_methods": ["seed_search", "backward_references"]},
  {"round": 2, "expansion_candidates_screened": 6, "new_core_papers": 0,
   "discovery_methods": ["forward_citations", "critique_specific_search"]}
]}}
`,
		`{"coverage": {"saturation_evidence": [
  {"round": 1, "expansion_candidates_screened": 8, "new_core_papers": 1,
   "discovery_methods": ["seed_search", "backward_references"]},
  {"round": 2, "expansion_candidates_screened": 6, "new_core_papers": 0,
   "discovery_methods": ["forward_citations", "critique_specific_search"]}
]}}
`, nul)
	CodeUnreadAnchor = rule("PRIOR505", "ir-anchor-cites-unread-paper", "compiled graph anchors a likelihood on a paper never read",
		"W-11: an `anchor:` in the compiled Gaia IR (step reasoning or observation rationale) that names the source link of a metadata_only or unavailable matrix entry cites a paper that was never read; read it (full_text_read or section_read) or anchor on something that was.",
		matrix,
		gateCmd+" --package my-idea-gaia\n"+`-- artifacts/literature/close_prior_matrix.json --
{"entries": [{"reference": "Width2025", "read_status": "metadata_only",
  "source_link": "https://arxiv.org/abs/2501.00002", "locator": "abstract",
  "same_scope": "adjacent", "supports_subclaims": [], "weakens_novelty_claims": [], "stale_or_provisional": false,
  "identity_triangulation": {"verdict": "consistent", "providers": [
    {"provider": "arXiv", "identifier": "arXiv:2501.00002", "title": "Two published widths", "year": 2025},
    {"provider": "INSPIRE", "identifier": "recid 2851234", "title": "Two published widths", "year": 2025}]}}]}
-- artifacts/posterior_report_v1.md --
# Posterior report: example-idea

- Admission verdict: passed (route: mechanism), see [gate result](gate_result.json).
- Posterior value: `+"`"+`0.850`+"`"+` (the exact value is in the extraction output).

## Close-Prior Matrix

| Reference | Read status | Same-scope | Supports | Weakens | Stale |
|---|---|---|---|---|---|
| [Example2026](https://arxiv.org/abs/2601.00001) | full_text_read | adjacent | mechanism | — | no |
| [Width2025](https://arxiv.org/abs/2501.00002) | metadata_only | adjacent | — | — | no |
-- my-idea-gaia/.gaia/ir.json --
{"strategies": [{"strategy_id": "lcs_check", "steps": [{"reasoning": "reader_reasoning: the check closes the gap, which a failed matching would rarely do. resolution_evidence: discriminating_test. anchor: https://arxiv.org/abs/2501.00002"}]}]}
`,
		gateCmd+" --package my-idea-gaia\n"+`-- artifacts/literature/close_prior_matrix.json --
{"entries": [{"reference": "Width2025", "read_status": "metadata_only",
  "source_link": "https://arxiv.org/abs/2501.00002", "locator": "abstract",
  "same_scope": "adjacent", "supports_subclaims": [], "weakens_novelty_claims": [], "stale_or_provisional": false,
  "identity_triangulation": {"verdict": "consistent", "providers": [
    {"provider": "arXiv", "identifier": "arXiv:2501.00002", "title": "Two published widths", "year": 2025},
    {"provider": "INSPIRE", "identifier": "recid 2851234", "title": "Two published widths", "year": 2025}]}}]}
-- artifacts/posterior_report_v1.md --
# Posterior report: example-idea

- Admission verdict: passed (route: mechanism), see [gate result](gate_result.json).
- Posterior value: `+"`"+`0.850`+"`"+` (the exact value is in the extraction output).

## Close-Prior Matrix

| Reference | Read status | Same-scope | Supports | Weakens | Stale |
|---|---|---|---|---|---|
| [Example2026](https://arxiv.org/abs/2601.00001) | full_text_read | adjacent | mechanism | — | no |
| [Width2025](https://arxiv.org/abs/2501.00002) | metadata_only | adjacent | — | — | no |
-- my-idea-gaia/.gaia/ir.json --
{"strategies": [{"strategy_id": "lcs_check", "steps": [{"reasoning": "reader_reasoning: the check closes the gap, which a failed matching would rarely do. resolution_evidence: discriminating_test. anchor: https://arxiv.org/abs/2601.00001"}]}]}
`, nul)
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		CodeUnreadable, CodeSchema, CodeSurveyCoverage, CodeSatUnknown, CodeRounds, CodeSatClosure,
		CodeReadEntry, CodeIdentity, CodeFidelity, CodeReceipt, CodeReceiptOpen, CodeLedgerPin,
		CodeProviders, CodeCandidates, CodeBibliography, CodeMethodAudit, CodeCitationGraph,
		CodeCoreBinding, CodeReceiptMismatch, CodeLedgerStatus, CodeMatrixShape, CodeMetadataOnly,
		CodeLateCaveat, CodeCritique, CodeTension, CodeNegNovelty, CodeAnchor, CodeCoverageStatus,
		CodeReport, CodeTensionIR, CodeGateResult, CodeEmptySaturation, CodeRefBinding, CodeOneSided,
		CodeRoundsVsCores, CodeUnreadAnchor,
	}
}

var _ = family.Declare(ruleList)
