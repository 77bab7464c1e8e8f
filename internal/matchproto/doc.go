// Package matchproto is the model of the pairwise-match protocol (spec
// pairwise-match.md): the ordered JSON codec that reads and writes artifacts
// byte-compatibly with Python's json (Object, Decode, Marshal), criteria
// canonicalization and the commitment hash, idea cards and their summaries,
// statement requests, statement analysis, verification and rebuild, the judge
// prompt and its digest, vote extraction and cleaning, the roster model, and
// the tally and tier mapping.
//
// It holds no validation rules (those live in validators/match, which reads
// this model) and does no I/O: the gated steps that read and write files and
// run judges live in pipeline/match.
package matchproto
