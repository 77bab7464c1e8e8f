// Package prior validates the artifacts that close a prior (spec
// close-prior-and-writeback.md): the literature survey, the close-prior
// matrix, the detailed literature ledger with its pinned side files
// (archived identity records, raw bibliography manifests), gate_result_v1,
// and the agreement of the matrix's tension grade and anchors with the
// compiled Gaia IR. Each check reports diag.Diagnostics with the PRIOR rule
// code, the JSON pointer and its line:column.
//
// Gate runs every check over one project's survey, matrix, report and ledger
// and decides the close-prior verdict (saturated, coverage_incomplete or
// refused); pipeline/gate calls it for `nullius gate close-prior` and for
// writeback, so both refuse on the same findings. The pinned-reference
// helpers (ParseRef, ResolvePinned, RefFor: project://<path>#sha256:<hex>)
// bind each receipt to the exact bytes that were validated, and the identity
// normalizers (DOI, title, author, year, canonical key) are the reference's,
// so a candidate is the same paper here as in the Python tools.
//
// Nothing here writes files or runs programs; pinned files are read through
// the bounded reader.
package prior
