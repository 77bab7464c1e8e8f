package priors_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/priors"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
)

// TestPriors runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestPriors(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", priors.Analyzer) }
