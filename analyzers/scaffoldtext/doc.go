// Package scaffoldtext defines an Analyzer that finds claims still holding
// a stock sentence of the package scaffold.
//
// # Analyzer scaffoldtext
//
// scaffoldtext: report claims whose content is still a scaffold stock sentence
//
// `nullius scaffold` (and the reference's gaia_package_scaffold.py) gives
// worth and the five criterion claims generic placeholder sentences. The
// reference refuses them only after compile (GAIA122, exact match only,
// W10); this rule says it at the source, before any gaia stage, so a fresh
// scaffold lints to exactly the list of sentences the author must replace.
// It reports every claim(...) whose literal content equals one of the seven
// stock sentences of gaia-discipline.md §2.4 after normalization: case
// folded, whitespace collapsed, curly apostrophes straightened, final
// punctuation stripped.
package scaffoldtext
