package priors_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
	"github.com/nullius-dev/nullius/analyzers/priors"
)

// TestPriors runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestPriors(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", priors.Analyzer) }
