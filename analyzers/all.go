package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/coupling"
	"github.com/nullius-dev/nullius/analyzers/criteria"
	"github.com/nullius-dev/nullius/analyzers/grades"
	"github.com/nullius-dev/nullius/analyzers/indirection"
	"github.com/nullius-dev/nullius/analyzers/notes"
	"github.com/nullius-dev/nullius/analyzers/priors"
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
	}
}
