// Package match holds the pure logic and the validators of the pairwise-match
// protocol (spec pairwise-match.md): criteria canonicalization and the
// commitment hash, card summaries and statement requests, statement
// verification and rebuild, the judge prompt and its digest, vote extraction
// and validation, the agents.json roster, the tally and tier mapping, and the
// field-by-field validation of pairwise_match_v1 and its companion artifacts.
//
// Nothing here reads or writes files or runs programs: the gated steps that do
// live in pipeline/match. Validators return Problems (a rule code, an RFC 6901
// pointer and a one-line message); File turns them into diag.Diagnostics.
package match
