package analyzers

import (
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/coupling"
	"github.com/nullius-dev/nullius/analyzers/criteria"
	"github.com/nullius-dev/nullius/analyzers/grades"
	"github.com/nullius-dev/nullius/analyzers/indirection"
	"github.com/nullius-dev/nullius/analyzers/notes"
	"github.com/nullius-dev/nullius/analyzers/priors"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/analyzers/scaffoldtext"
	"github.com/nullius-dev/nullius/analyzers/syntax"
	"github.com/nullius-dev/nullius/analyzers/unresolved"
)

// All returns every rule analyzer of the source scan, in the order of the
// reference's per-call evaluation (§1.4). Their prerequisites (pyparse,
// gaiaref) run once, before them. A fresh slice each call: the list is
// the registry, not mutable state.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		syntax.Analyzer,
		indirection.Analyzer,
		grades.Analyzer,
		criteria.Analyzer,
		priors.Analyzer,
		notes.Analyzer,
		coupling.Analyzer,
		unresolved.Analyzer,
		scaffoldtext.Analyzer,
		readerflow.Analyzer,
	}
}

// wholePackage are the analyzers that judge a package as a whole (a
// criterion's path to worth may run through any module), skipped when only
// some files of a package are linted, as the IR checks are.
func wholePackage(a *analysis.Analyzer) bool { return a == readerflow.Analyzer }

// forFiles returns the analyzers for a package, or for some of its files.
func forFiles(partial bool) []*analysis.Analyzer {
	as := All()
	if partial {
		as = slices.DeleteFunc(as, wholePackage)
	}
	return as
}
