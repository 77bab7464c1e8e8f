// Package notes defines an Analyzer that checks the notes (rationale or
// justification) of observe, infer and register_prior statements.
//
// # Analyzer notes
//
// notes: check statement notes are literal and end with an anchor
//
// Every observe and infer needs a literal `rationale`, every register_prior
// a literal `justification` (GAIA030, GAIA031), whose last line is an
// `anchor: <reference>` (GAIA032). Only when the anchor rule passes: an
// infer rationale must open with `reader_reasoning: <why>` (GAIA033), and an
// observe rationale must declare exactly one `evidence_family: <token>;`
// and `correlation_model: single;` (GAIA034) (gaia-discipline.md §1.3-1.4).
// Beyond the reference (W5): placeholder anchors such as TODO are refused
// (GAIA504) and a reader_reasoning under five words is flagged (GAIA505).
package notes
