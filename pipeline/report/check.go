package report

import (
	"errors"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
)

// CheckPosteriors reports every display the posterior normalizer would
// change (REPORT001) or refuses (REPORT002), located in path.
func CheckPosteriors(path, text string) []diag.Diagnostic {
	_, edits, err := NormalizePosteriors(text)
	var re *RangeError
	if errors.As(err, &re) {
		return []diag.Diagnostic{CodeOutOfRange.New(path, re.Line, re.Col, re.Line, re.Col+len(re.Value),
			"posterior report has invalid human posterior display %s: the posterior value must be in [0, 1]", re.Value)}
	}
	var ds diag.Findings
	for _, e := range edits {
		ds.Add(CodeUnrounded, path, func() diag.Diagnostic {
			return CodeUnrounded.New(path, e.Line, e.Col, e.Line, e.Col+len(e.Old),
				"posterior display value %s is not rounded to three decimals (want %s); run 'nullius report posteriors %s'", e.Old, e.New, path)
		})
	}
	return ds.List()
}

// CheckLinks reports every line the link normalizer would change
// (REPORT010) and every broken or escaping link (REPORT011/012).
func CheckLinks(path, text, root string) ([]diag.Diagnostic, error) {
	out, err := NormalizeLinks(text, path, root)
	if err != nil {
		return nil, err
	}
	var ds diag.Findings
	old, nu := strings.Split(text, "\n"), strings.Split(out, "\n")
	for i := range old {
		if i >= len(nu) || old[i] == nu[i] {
			continue
		}
		col := 1
		for col <= len(old[i]) && col <= len(nu[i]) && old[i][col-1] == nu[i][col-1] {
			col++
		}
		ds.Add(CodeLinkNotNorm, path, func() diag.Diagnostic {
			return CodeLinkNotNorm.New(path, i+1, col, i+1, col,
				"posterior report links are not normalized/clickable: line would become %q; run 'nullius report links --project-root %s %s'", clip(nu[i]), root, path)
		})
	}
	issues, err := LinkIssues(text, path, root)
	if err != nil {
		return nil, err
	}
	for _, is := range issues {
		ds.Add(is.Rule, path, func() diag.Diagnostic {
			return is.Rule.New(path, is.Line, is.Col, is.Line, is.Col+len(is.Target), "%s", is.Msg)
		})
	}
	return ds.List(), nil
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}
