// Package coupling defines an Analyzer that checks the belief-moving verbs
// the reference scan ignored: associate, derive, compute and the
// structural operators equal, contradict and exclusive.
//
// # Analyzer coupling
//
// coupling: check ungraded couplings, associate grades and operator arity
//
// These verbs move belief without a likelihood grade (weakness W2): a
// deterministic or structural coupling into worth bypasses the graded
// criteria (GAIA502), an associate must use grade values (GAIA503), and
// equal/contradict/exclusive take exactly two operands, which Gaia only
// reports as a TypeError at compile time (GAIA509, W18).
package coupling
