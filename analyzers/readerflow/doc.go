// Package readerflow defines an Analyzer that builds the reader-flow graph
// of a Gaia package from its source and flags criteria that cannot move
// worth.
//
// # Analyzer readerflow
//
// readerflow: report criteria with no reader-flow path to worth
//
// Each infer(evidence, hypothesis=h, ...) is an edge from the evidence to
// the hypothesis, the direction a reader follows (gaia-discipline.md §2.6).
// A criterion (tension_resolution, downstream_reach, mechanism_insight,
// testability_timing, verification_cost) with no path of such edges into
// worth cannot move the posterior (GAIA507, W10). The compiled-IR check
// finds the same only after `gaia build compile`; this one reads the
// source, so a fresh package gets the warning from `nullius lint`.
//
// Claims are the module-level variables bound to claim(...), labelled as
// Gaia labels them (the first module variable bound to the claim), and
// names are followed through simple aliases and the package's relative
// imports. The rule agrees with the IR rule wherever both run, and stays
// silent where the source cannot prove a criterion disconnected: an infer
// inside a function (it may run any number of times), an evidence or
// hypothesis that is not a plain claim variable, or a cycle (GAIA141 on
// the compiled graph). When both rules run, the IR finding at the same
// line is dropped as a duplicate.
package readerflow
