package unresolved_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
	"github.com/nullius-dev/nullius/analyzers/unresolved"
)

// TestUnresolved runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestUnresolved(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", unresolved.Analyzer) }
