// Package unresolved defines an Analyzer that flags calls spelled like a
// Gaia verb whose provenance cannot be resolved.
//
// # Analyzer unresolved
//
// unresolved: flag verb-like calls that may be unscanned Gaia statements
//
// The reference treated every `infer(...)`, `x.infer(...)` as a statement
// whatever it was bound to (W12). nullius resolves names instead; when it
// cannot prove a call is not a Gaia statement (no import at all, a receiver
// that is a call result or an unknown global), it raises this review flag
// rather than the statement rules' violations.
package unresolved
