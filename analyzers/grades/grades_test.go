package grades_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/grades"
	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
)

// TestGrades runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestGrades(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", grades.Analyzer) }
