package syntax_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
	"github.com/nullius-dev/nullius/analyzers/syntax"
)

// TestSyntax runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestSyntax(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", syntax.Analyzer) }
