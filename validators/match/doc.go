// Package match validates the artifacts of the pairwise-match protocol
// (spec pairwise-match.md): the criteria commitment, a judge's vote payload
// and vote record, the agents.json roster, panel_run_report.json and
// pairwise_match_v1, each against its JSON Schema and the field-by-field
// rules no schema can state.
//
// The protocol model these validators read (the ordered JSON codec, criteria
// canonicalization and the commitment hash, cards, statements, prompts, vote
// extraction, the tally and tier mapping) lives in internal/matchproto, so
// this package holds validation only. Validators return Problems (a rule
// code, an RFC 6901 pointer and a one-line message); File turns them into
// diag.Diagnostics.
package match
