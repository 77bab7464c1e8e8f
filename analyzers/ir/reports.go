package ir

import (
	"github.com/nullius-dev/nullius/analyzers/coupling"
	gradesrules "github.com/nullius-dev/nullius/analyzers/grades"
	"github.com/nullius-dev/nullius/analyzers/priors"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/internal/diag"
)

// Reports reports whether the IR checks can report code: the rules of this
// family and the source rules whose IR side they check (backstop.go,
// contract.go). When they are skipped (lint --no-ir, a partial lint, an
// editor linting as you type), a suppression naming such a code cannot be
// judged unused.
func Reports(code string) bool {
	switch code {
	case priors.GAIA501.Code, coupling.GAIA502.Code, priors.GAIA506.Code, readerflow.GAIA507.Code, gradesrules.GAIA508.Code:
		return true
	}
	r, ok := diag.Lookup(code)
	return ok && r.Owner == string(family)
}
