// Package extract is the gated road from a Gaia package to a posterior:
// `nullius extract` (gaia-discipline.md §3). It lints the package, checks the
// pinned gaia, runs `gaia build compile`, the compiled-IR checks, `gaia build
// check` and `gaia run infer`, and prints the reference's output object
// {value, evidence_count, gaia_package_ref} plus connected_evidence_count
// (W9). Every run that compiles leaves `.gaia/discipline.json`, the findings
// bound to the exact ir.json bytes, so a later gate can tell an
// exploration-only result even when the `exploration-only:` prefix is gone
// (W7).
//
// Findings and failures are kept apart: Run returns a *Failure naming the
// GAIA2xx rule (and the findings) that made it refuse, or a plain error for
// I/O trouble. The package does not print diagnostics in output formats;
// the CLI does.
package extract
