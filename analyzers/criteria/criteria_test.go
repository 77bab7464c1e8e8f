package criteria_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/criteria"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
)

// TestCriteria runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestCriteria(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", criteria.Analyzer) }
