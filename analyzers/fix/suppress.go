package fix

import (
	"errors"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/internal/suppress"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// Suppression returns the edit that silences the finding d with an inline
// directive "# nullius: ignore[CODE] " whose reason is left for the user
// to write, and the offset in the edited text where the reason goes (the
// cursor of an editor's "suppress with a reason" action). Findings about
// the suppressions themselves, and files that do not parse, get none.
func Suppression(src []byte, d diag.Diagnostic) (diag.Edit, int, error) {
	if strings.HasPrefix(d.Code, "NULLIUS") || d.Line < 1 {
		return diag.Edit{}, 0, errors.New(d.Code + " cannot be suppressed inline")
	}
	m, err := pyscan.ParseSource(d.Path, src)
	if err != nil {
		return diag.Edit{}, 0, err
	}
	if len(m.Syntax) > 0 {
		return diag.Edit{}, 0, errors.New("the file does not parse")
	}
	e, cursor := suppress.Insertion(m, d.Line, d.Code)
	return e, cursor, nil
}
