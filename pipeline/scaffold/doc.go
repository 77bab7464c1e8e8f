// Package scaffold creates the skeleton of a new Gaia idea package
// (gaia-discipline.md §3.7): pyproject.toml pinned to gaia-lang==0.5.0a4 and
// Python 3.12, .python-version, and src/<module>/__init__.py declaring worth
// and the five criterion claims with stock sentences to replace. It needs no
// gaia. With a gaia driver it can instead follow the reference's flow (`gaia
// build init`, then Harden), checking the pinned version first.
//
// The package appears whole or not at all: everything is built in a
// temporary directory beside the destination and renamed into place, and an
// existing destination is never overwritten.
package scaffold
