// Package ir checks the compiled-IR contract of an idea-posterior Gaia
// package: the `.gaia/ir.json` that `gaia build compile` writes and the
// `.gaia/beliefs.json` that `gaia run infer` writes (gaia-discipline.md §0.2,
// §0.3, §2, §3.2 step 11, §3.6).
//
// The contract, in the order the checks run:
//
//   - Loading (GAIA100–105): strict JSON with positions (a UTF-8 BOM is
//     accepted, NaN/Infinity are not), a top-level object with a canonical
//     `ir_hash`, a `knowledges` list of objects with unique non-empty ids;
//     repeated keys and wrongly typed fields are located findings, never a
//     panic and never a silent skip.
//   - GAIA110: exactly one exported knowledge, the claim labelled `worth`.
//   - GAIA120–122: the six reasoning claims exist once each, with
//     idea-specific (non-scaffold) content.
//   - GAIA130, GAIA140–147: every infer carries `reader_reasoning:`; infer
//     shape; the reader evidence-flow graph (evidence → hypothesis, infers
//     only) is acyclic; each observation declares one evidence family, has an
//     anchor, and reaches worth at most once; a family reaches worth at most
//     once.
//   - The backstop (GAIA150–154, W6): the static discipline re-checked where
//     identities and numbers are exact — grades, trailing anchors, the
//     downstream_reach domains clause, the tension_resolution class, prior
//     records. Whatever slipped past the source scan (helpers, aliases,
//     exec, hand edits) is refused here. None of it is downgradable.
//   - New rules: GAIA501 (inline priors), GAIA502 (ungraded couplings into
//     worth), GAIA506 (a prior on worth), GAIA507 (a criterion that cannot
//     reach worth, warning), GAIA508 (conditional infers), GAIA212 (beliefs
//     from another compile), GAIA213 (IR older than the sources, warning).
//
// Unlike the reference, which stops at the first failure, every check runs
// and reports; a check that needs a well-formed input (the graph needs a
// root and no cycle) is skipped when an earlier finding already explains why.
//
// The package also provides the extraction primitives the pipeline uses:
// ExtractWorthBelief, CountObservations (the reference evidence_count),
// ConnectedEvidenceCount (W9) and CompiledIRPin (sha256 of the exact bytes).
//
// Findings are located in ir.json (line:col from internal/jsonloc, plus the
// RFC 6901 pointer), or in the Python source when a SourceMap can map the
// knowledge label or action label back to the statement that produced it.
package ir
