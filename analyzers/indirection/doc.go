// Package indirection defines an Analyzer that reports Gaia statement
// verbs used as values instead of being called.
//
// # Analyzer indirection
//
// indirection: report observe/infer/register_prior referenced without a call
//
// A statement is only auditable where it is written. Assigning a verb to a
// variable (`i = infer`), putting it in a container, decorating with it or
// reading its attributes hides the statement from the scan
// (gaia-discipline.md §1.3 GAIA001). Unlike the reference, a name counts
// only when it resolves to a verb imported from a gaia module, so a
// parameter or loop variable with the same spelling is not reported (W12).
package indirection
