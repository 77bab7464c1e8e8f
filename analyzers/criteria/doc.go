// Package criteria defines an Analyzer that checks raising updates into
// the downstream_reach and tension_resolution criteria.
//
// # Analyzer criteria
//
// criteria: check the clauses raising reach and tension updates must carry
//
// A strong raise of downstream_reach must name at least three distinct
// phenomenon domains in a `domains:` clause before its anchor (GAIA013;
// nullius ends the clause at its sentence and requires distinct entries,
// W4/W16). Any raise of tension_resolution must classify its
// `resolution_evidence:` as mechanism, discriminating_test or
// demonstrated_partial_resolution (GAIA014). The target is identified as
// the reference does (M6): the variable of that name, or one assigned a
// claim with that literal title (gaia-discipline.md §1.2-1.3).
package criteria
