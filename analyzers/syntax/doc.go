// Package syntax defines an Analyzer that reports Python files nullius
// cannot read or parse.
//
// # Analyzer syntax
//
// syntax: report modules that cannot be read or do not parse
//
// A file that does not parse as Python, is not UTF-8, cannot be read or is
// larger than 8 MiB gets one GAIA000 diagnostic, and no other rule runs on
// it (gaia-discipline.md §1.3 GAIA000). The reference crashed on a decode
// error; nullius reports it at the first bad byte.
package syntax
