// Package benchinput generates large, deterministic JSON inputs of the
// shapes nullius validates (a pairwise_match_v1 artifact, a
// literature_survey_v1 file, a campaign's nodes_latest.json), for the
// memory benchmarks of issue 13: peak memory while validating must stay
// within 10x the input's size plus a constant. Inputs are generated, never
// checked in; the same size always yields the same bytes.
package benchinput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nullius-dev/nullius/internal/shortid"
)

// Kinds lists the generators by the name `geninput -kind` takes.
var Kinds = map[string]func(size int) []byte{
	"match":  Match,
	"survey": Survey,
	"nodes":  Nodes,
	"matrix": Matrix,
	"ledger": Ledger,
}

// text is filler prose for argument and title strings, so values have the
// length real ones have.
const text = "the pilot bounds the verification cost of the adaptive enrichment scheme within the stated budget"

// shortID is the i-th id of the protocol's short-id alphabet (8 characters).
func shortID(i int) string {
	var b [8]byte
	for k := 7; k >= 0; k-- {
		b[k] = shortid.Alphabet[i%32]
		i /= 32
	}
	return string(b[:])
}

// Match is a valid pairwise_match_v1 artifact of about size bytes: a
// single-family panel of three seats whose anchored arguments fill it.
func Match(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{
  "match_id": "5d0b3e21",
  "campaign_id": "3b8e1f70",
  "idea_a_node_id": "1f6c9d5e",
  "idea_b_node_id": "2a7d0e6f",
  "criteria_commitment": {"committed_at": "2026-11-30T05:35:26+00:00", "criteria": ["tension resolution", "verification cost"], "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"},
  "panel": [
`)
	perSeat := max(1, (size-1200)/3/225)
	votes := []string{"a", "a", "tie"}
	for seat := 1; seat <= 3; seat++ {
		fmt.Fprintf(&b, `    {"reviewer_family": "host", "seat": %d, "model": "host/host-subagent", "vote": %q, "anchored_arguments": [`, seat, votes[seat-1])
		for i := range perSeat {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n      {\"argument\": \"%s %d\", \"anchor_type\": \"computation\", \"anchor_ref\": \"artifact://campaign/toy/computations/pilot-%d.json\"}", text, i, i)
		}
		b.WriteString("], \"unanchored_arguments_discarded\": 0}")
		if seat < 3 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(`  ],
  "panel_independence": {"mode": "single_family", "families_present": ["host"], "families_absent": []},
  "independent_runners": false,
  "outcome": {"winner": "a", "vote_margin": 0.6666666666666666, "decided_at": "2026-11-30T05:35:27+00:00"},
  "observation_write": {"written": false}
}
`)
	return b.Bytes()
}

// Survey is a literature_survey_v1 of about size bytes: many deep-read
// papers, each with its identity triangulation and fidelity audit.
func Survey(size int) []byte {
	const paper = `    {
      "identity_triangulation": {
        "providers": [
          {"identifier": "core-%[1]d", "provider": "catalog", "title": "%[2]s %[1]d", "year": 2026},
          {"identifier": "record-%[1]d", "provider": "registry", "title": "%[2]s %[1]d", "year": 2026}
        ],
        "verdict": "consistent"
      },
      "read_locators": ["source.tex lines 10-70"],
      "read_sections": ["introduction", "formalism_method", "results_discussion", "conclusion_outlook"],
      "read_status": "full_text_read",
      "ref_key": "Ex2026p%[1]d",
      "role": "core",
      "source_fidelity_audit": {"auditor": "rev", "checked_locators": ["source.tex lines 10-70"], "status": "pass"},
      "source_links": ["https://catalog.example/records/core-%[1]d"]
    }`
	n := max(1, size/(len(paper)+2*len(text)))
	var b bytes.Buffer
	fmt.Fprintf(&b, `{
  "coverage": {
    "bibliography_reconciliation": {
      "artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:923639a47d854c678d3ebaab7582857250bb24d2c98ec6300c2d24d9d3c6255c",
      "candidates_dispositioned": %[1]d, "candidates_total": %[1]d, "core_sources_reconciled": %[1]d, "core_sources_total": %[1]d,
      "coverage_debt_candidates": 0, "status": "reconciled", "unresolved_candidates": 0
    },
    "core_deep_read": %[1]d,
    "core_total": %[1]d,
    "deep_read": %[1]d,
    "method_family_audit": {
      "artifact_ref": "project://artifacts/literature/literature-ledger.json#sha256:923639a47d854c678d3ebaab7582857250bb24d2c98ec6300c2d24d9d3c6255c",
      "cited_method_descriptions_audited": %[1]d, "core_sources_audited": %[1]d, "core_sources_total": %[1]d,
      "source_method_descriptions_audited": %[1]d, "status": "audited", "taxonomy_families": 1, "unresolved_method_family_gaps": 0
    },
    "saturation": "saturated",
    "saturation_evidence": [
      {"discovery_methods": ["seed_search", "backward_references"], "expansion_candidates_screened": 8, "new_core_papers": 1, "round": 1},
      {"discovery_methods": ["forward_citations", "critique_specific_search"], "expansion_candidates_screened": 6, "new_core_papers": 0, "round": 2}
    ],
    "total_papers": %[1]d
  },
  "papers": [
`, n)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, paper, i+1, text)
	}
	b.WriteString("\n  ],\n  \"topic\": \"example\",\n  \"version\": \"1\"\n}\n")
	return b.Bytes()
}

// Nodes is a campaign's nodes_latest.json of about size bytes: the
// engine's map of node id to node, warm, cold and ineligible nodes mixed.
func Nodes(size int) []byte {
	const node = `  %q: {
    "node_id": %q,
    "campaign_id": "3b8e1f70",
    "idea_id": %q,
    "title": "%s",
    "revision": 1,
    "lifecycle_state": %q,
    "lifecycle_reason": null,
    "activation_condition": null,
    "posterior": %s,
    "literature_coverage": null
  }`
	states := []string{"admitted", "admitted", "admitted", "candidate"}
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := 0; b.Len() < size || i == 0; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		id := shortID(i)
		post := "null"
		if i%5 != 4 {
			post = fmt.Sprintf(`{"value": 0.%03d, "evidence_count": %d, "updated_at": "2026-11-29T10:00:00+00:00", "status": "current"}`, (i*37)%1000, 1+i%7)
		}
		fmt.Fprintf(&b, node, id, id, id, strings.Repeat(text+" ", 2), states[i%len(states)], post)
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

// Matrix is a close-prior matrix (close_prior_matrix.json) of about size
// bytes: many close-prior entries, each with its identity triangulation,
// audit and short lists, and a Gaia anchor per entry.
func Matrix(size int) []byte {
	const entry = `    {
      "identity_triangulation": {
        "providers": [
          {"identifier": "arXiv:2601.%05[1]d", "provider": "arXiv", "title": "Close prior %[1]d on %[2]s", "year": 2026},
          {"identifier": "recid %[1]d", "provider": "INSPIRE", "title": "Close prior %[1]d on %[2]s", "year": "2026"}
        ],
        "verdict": "consistent"
      },
      "locator": "sec. 4, eq. %[1]d",
      "read_status": "full_text_read",
      "reference": "Prior2026p%[1]d",
      "same_scope": "adjacent",
      "sections_read": ["introduction", "formalism_method", "results_discussion", "conclusion_outlook"],
      "source_fidelity_audit": {"auditor": "rev", "checked_locators": ["sec. 4"], "status": "pass"},
      "source_link": "https://arxiv.org/abs/2601.%05[1]d",
      "stale_or_provisional": false,
      "supports_subclaims": ["mechanism"],
      "weakens_novelty_claims": []
    }`
	const anchor = `    {"anchor_source": "claim_grounding", "locator": "sec. 4", "proposition": "the mechanism %[1]d exists", "quote": "we observe %[2]s", "source_link": "https://arxiv.org/abs/2601.%05[1]d"}`
	n := max(1, size/(len(entry)+len(anchor)+3*len(text)))
	var b bytes.Buffer
	b.WriteString("{\n  \"allocation_eligible\": true,\n  \"coverage_status\": \"saturated\",\n")
	b.WriteString("  \"critique_search\": {\"queries\": [\"example criticism\"], \"top_hits_reviewed\": [\"Prior2026p0\"]},\n  \"entries\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, entry, i, text)
	}
	b.WriteString("\n  ],\n  \"gaia_anchors\": [\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, anchor, i, text)
	}
	b.WriteString("\n  ],\n  \"posterior_status\": \"current\",\n")
	b.WriteString("  \"tension_resolution\": {\"challenge_refs\": [\"https://arxiv.org/abs/2601.00001#sec-5\"], \"grade\": \"substantial\", \"supporting_refs\": [\"Prior2026p0\"]}\n}\n")
	return b.Bytes()
}

// Ledger is a detailed literature-saturation ledger of about size bytes:
// a candidate pool of many papers (canonical identity, provenance, where
// each was found) and a method-family screening of each.
func Ledger(size int) []byte {
	const candidate = `      {
        "canonical_identity": {
          "aliases": [],
          "canonical_id": "doi:10.1000/example.%[1]d",
          "provenance": {
            "kind": "authoritative_retrieval",
            "provider": "crossref",
            "record_ref": "project://artifacts/literature/records/example-%[1]d.json#sha256:040fbd0d1f2f36307e450d7b7837c78901f7e08a05374c7398c9e1e74985d8b9",
            "record_sha256": "sha256:040fbd0d1f2f36307e450d7b7837c78901f7e08a05374c7398c9e1e74985d8b9"
          },
          "title": "Cited example %[1]d",
          "year": 2020
        },
        "discovered_from": [
          {"kind": "bibliography", "locator": "References, entry %[1]d", "source_id": "provider:catalog:core-1"}
        ],
        "disposition": "supporting",
        "id": "doi:10.1000/example.%[1]d",
        "identity_status": "resolved",
        "rationale": "cited method"
      }`
	const screening = `          {
            "candidate_id": "doi:10.1000/example.%[1]d",
            "description": "The cited integral method kernel %[1]d.",
            "disposition": "method_bearing",
            "evidence_basis": "source_text",
            "family_ids": ["integral-method"],
            "locator": "sec. 3",
            "method_disposition": "classified",
            "method_features": ["integral method"],
            "rationale": "introduces the method"
          }`
	n := max(1, size/(len(candidate)+len(screening)+60))
	var b bytes.Buffer
	b.WriteString(`{
  "bibliography_reconciliation": {"core_sources": [{"candidate_ids": ["doi:10.1000/example.0"], "coverage_debt": [], "id": "provider:catalog:core-1",
    "references_artifact_ref": "project://artifacts/literature/core-1-bibliography.json#sha256:56f5d177bd59fda788fe8c3a8e9b787c2d16c650138de2f5b6345aeda97b9e57",
    "references_extracted": 1, "status": "reconciled"}]},
  "candidate_pool": {
    "artifact": "artifacts/literature/literature-ledger.json",
    "candidates": [
`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, candidate, i)
	}
	fmt.Fprintf(&b, `
    ],
    "selected_core_ids": ["provider:catalog:core-1"],
    "selection_rationale": "core papers address the same observable",
    "total_candidates": %d
  },
  "citation_graph": {"seeds": [{"citations_checked": true, "coverage_status": "saturated", "gaps": [], "id": "provider:catalog:core-1", "references_checked": true}]},
  "final_status": "saturated",
  "method_family_audit": {
    "source_audits": [
      {
        "bibliography_candidate_screening": [
`, n)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, screening, i)
	}
	b.WriteString(`
        ],
        "paper_method_descriptions": [{"description": "We solve the integral method equations numerically.", "disposition": "classified", "evidence_basis": "source_text", "family_ids": ["integral-method"], "locator": "sec. 2", "method_features": ["integral method"]}],
        "source_id": "provider:catalog:core-1"
      }
    ],
    "status": "audited",
    "taxonomy": [{"description": "integral equations", "id": "integral-method", "label": "Integral method"}]
  },
  "providers": {"catalog": {"execution_bounds": {"max_records": 10, "max_requests": 1}, "queries": ["q1"],
    "request_log": [{"continuation": "exhausted", "page_or_cursor": "page:1", "query": "q1", "returned_count": 2}],
    "returned_count": 2, "status": "queried", "stop_reason": "exhausted", "total_count": 2}},
  "stop_reason": "every provider exhausted and the last round added no core"
}
`)
	return b.Bytes()
}

// Minify returns src without insignificant whitespace: the densest form a
// real artifact takes.
func Minify(src []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, src); err != nil {
		panic("benchinput: generated invalid JSON: " + err.Error())
	}
	return b.Bytes()
}

// Crafted lists generators of hostile documents, made of the tiniest
// values JSON allows, whose decoded form would take tens of times their
// size, or of elements that each make several findings: peak memory must
// stay within 10x the input plus a constant for them too, whether nullius
// accepts or refuses them (issue 13).
var Crafted = map[string]func(size int) []byte{
	"zeros":          repeat("[", "0,", "]"),
	"numbers":        repeat("[", "123456,", "]"),
	"short-strings":  repeat("[", `"a",`, "]"),
	"strings":        repeat("[", `"abcdefghijklmnop",`, "]"),
	"tiny-objects":   repeat("[", `{"a":1},`, "]"),
	"empty-objects":  repeat("[", `{},`, "]"),
	"empty-arrays":   repeat("[", `[],`, "]"),
	"nested-arrays":  repeat("[", strings.Repeat("[", 9998)+strings.Repeat("]", 9998)+",", "]"),
	"nested-objects": repeat("[", strings.Repeat(`{"a":`, 9998)+"0"+strings.Repeat("}", 9998)+",", "]"),
	"members":        repeat("{", `"k":0,`, "}"),
	"many-members":   members,
	"duplicate-keys": repeat(strings.Repeat(`{"a":[`, 1000)+"{", `"k":0,`, "}"+strings.Repeat("]}", 1000)),
	"match-zeros":    repeat(`{"match_id":"5d0b3e21","panel":[`, "0,", "]}"),
	"survey-objects": repeat(`{"papers":[`, `{"x":"y"},`, "]}"),
	// Elements just long enough to pass the density guard, each broken in
	// several ways: findings in proportion to the elements.
	"broken-seats":   repeat(`{"panel":[`, `{"seat":"`+strings.Repeat("x", 84)+`"},`, "]}"),
	"broken-entries": repeat(`{"entries":[`, `{"x":"`+strings.Repeat("x", 84)+`"},`, "]}"),
}

// repeat returns a generator of open + unit... + close of about size bytes
// (the last unit without its trailing comma).
func repeat(open, unit, close string) func(size int) []byte {
	return func(size int) []byte {
		n := max(1, (size-len(open)-len(close))/len(unit))
		var b bytes.Buffer
		b.Grow(len(open) + n*len(unit) + len(close))
		b.WriteString(open)
		for range n - 1 {
			b.WriteString(unit)
		}
		b.WriteString(strings.TrimSuffix(unit, ","))
		b.WriteString(close)
		return b.Bytes()
	}
}

// members is one object of about size bytes with distinct short member
// names: a map of millions of members.
func members(size int) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i := 0; b.Len() < size-16 || i == 0; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"%x":%d`, i, i%10)
	}
	b.WriteString("}")
	return b.Bytes()
}

// Sizes are the input sizes, in MiB, of the memory benchmarks (issue 13:
// 1, 10 and 50 MB).
var Sizes = []int{1, 10, 50}
