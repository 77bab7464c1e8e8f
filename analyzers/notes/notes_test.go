package notes_test

import (
	"testing"

	"github.com/nullius-dev/nullius/analyzers/internal/ruletest"
	"github.com/nullius-dev/nullius/analyzers/notes"
)

// TestNotes runs the analyzer alone over every fixture package; only the
// expectations of its own codes take part.
func TestNotes(t *testing.T) { ruletest.Run(t, "../../fixtures/lint", notes.Analyzer) }
