// Package priors defines an Analyzer that checks where priors come from.
//
// # Analyzer priors
//
// priors: check prior values are literal, in Gaia's bounds, anchored and not on worth
//
// register_prior must give a literal probability inside Gaia's Cromwell
// bounds [0.001, 0.999] (GAIA020; the reference allowed [0, 1], W18). An
// inline `claim(..., prior=...)` or `parameter(..., prior=...)` records an
// unanchored prior (GAIA501, W2), and the top-level claim worth gets no
// prior at all (GAIA506, W8).
package priors
