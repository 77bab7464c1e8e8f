// Package benchinput generates large, deterministic JSON inputs of the
// shapes nullius validates (a pairwise_match_v1 artifact, a
// literature_survey_v1 file, a campaign's nodes_latest.json), for the
// memory benchmarks of issue 13: peak memory while validating must stay
// within 10x the input's size plus a constant. Inputs are generated, never
// checked in; the same size always yields the same bytes.
package benchinput

import (
	"bytes"
	"fmt"
	"strings"
)

// Kinds lists the generators by the name `geninput -kind` takes.
var Kinds = map[string]func(size int) []byte{
	"match":  Match,
	"survey": Survey,
	"nodes":  Nodes,
}

// text is filler prose for argument and title strings, so values have the
// length real ones have.
const text = "the pilot bounds the verification cost of the adaptive enrichment scheme within the stated budget"

// shortID is the i-th id of the protocol's short-id alphabet (8 characters).
func shortID(i int) string {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	var b [8]byte
	for k := 7; k >= 0; k-- {
		b[k] = alphabet[i%32]
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

// Sizes are the input sizes, in MiB, of the memory benchmarks (issue 13:
// 1, 10 and 50 MB).
var Sizes = []int{1, 10, 50}
