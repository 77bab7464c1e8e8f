package prior

import (
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// A matrix of many broken entries makes at most diag.PerRule findings of
// each rule and one closing finding per rule that counts the rest
// (issue 13).
func TestFindingsPerRuleLimit(t *testing.T) {
	src := `{"entries": [` + strings.Repeat(`{}, `, 3*diag.PerRule) + `{}]}`
	f, ds := ParseFile("close_prior_matrix.json", []byte(src))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	byCode := map[string]int{}
	closings := 0
	for _, d := range CheckMatrix(f) {
		byCode[d.Code]++
		if strings.Contains(d.Message, "more findings of this rule in this file are not shown") {
			closings++
		}
	}
	if closings == 0 {
		t.Fatal("no closing finding")
	}
	for code, n := range byCode {
		if n > diag.PerRule+1 {
			t.Errorf("%s: %d findings", code, n)
		}
	}
}
