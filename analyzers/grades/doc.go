// Package grades defines an Analyzer that checks the likelihoods of every
// Gaia infer statement.
//
// # Analyzer grades
//
// grades: check that infer likelihoods are literal Jeffreys grades
//
// Every infer must state p_e_given_h and p_e_given_not_h as literal numbers
// forming one of three grades (weak 0.75/0.25, substantial 0.90/0.09,
// strong 0.90/0.03) or a reversal (gaia-discipline.md §1.2 M7, §1.3). A
// raising strong update must name its hypothesis as a plain variable
// (GAIA012); any other non-plain hypothesis is a review flag (GAIA901). A
// conditional infer (given=) is refused up front (GAIA508, W13) instead of
// failing later on the compiled IR.
package grades
