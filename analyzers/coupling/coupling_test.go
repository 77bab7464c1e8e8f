package coupling_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/coupling"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
)

// TestCoupling runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestCoupling(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", coupling.Analyzer) }
