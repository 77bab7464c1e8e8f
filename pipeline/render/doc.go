// Package render draws a compiled Gaia argument graph after inference as one
// self-contained HTML page (`argument-graph.html`) that a researcher reads:
// a card per claim showing its full statement and posterior, and an arrow
// per infer strategy from the evidence to the claim it updates (the reader
// evidence-flow direction of gaia-discipline.md §2.6), solid when it raises
// belief and dashed when it lowers it, with a weak/substantial/strong chip
// read from the likelihood ratio.
//
// The page works opened from disk: no CDN, no network, a strict
// Content-Security-Policy whose script and style hashes are computed here
// over the exact bytes emitted. Every string that comes from the graph is
// escaped (html/template for the static cards, a JSON data block whose `<`,
// `>`, `&`, U+2028 and U+2029 are escaped for the detail views, which the
// inline script builds with textContent only). Only http(s) anchors and
// in-project Markdown files that exist become links.
//
// Rendering never gates anything (§3.5): Load fails only when the graph
// cannot be read at all; anything it cannot draw becomes a note on the page.
// The package does not lint or validate; that is analyzers/ir's job.
package render
