package indirection_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/indirection"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
)

// TestIndirection runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestIndirection(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", indirection.Analyzer) }
