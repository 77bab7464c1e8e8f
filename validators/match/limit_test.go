package match

import (
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// An artifact of many broken panel entries makes at most diag.PerRule
// findings of each rule and one closing finding that counts the rest,
// not findings in proportion to its elements (issue 13).
func TestFindingsPerRuleLimit(t *testing.T) {
	const seats = 3 * diag.PerRule
	src := `{"panel": [` + strings.Repeat(`{"seat": "x"}, `, seats-1) + `{"seat": "x"}], "a": 1, "a": 2, ` +
		strings.Repeat(`"a": 3, `, 2*diag.PerRule) + `"b": 0}`
	ds, err := File("match.json", []byte(src), "match")
	if err != nil {
		t.Fatal(err)
	}
	byCode := map[string][]diag.Diagnostic{}
	for _, d := range ds {
		byCode[d.Code] = append(byCode[d.Code], d)
	}
	for _, code := range []string{CodePanelEntry.Code, CodeDuplicateKey.Code} {
		got := byCode[code]
		if len(got) != diag.PerRule+1 {
			t.Fatalf("%s: %d findings, want %d and a closing one", code, len(got), diag.PerRule)
		}
		if closing := got[len(got)-1]; !strings.Contains(closing.Message, "more findings of this rule in this file are not shown") {
			t.Errorf("%s: last finding %q", code, closing.Message)
		}
	}
	if closing := byCode[CodeDuplicateKey.Code][diag.PerRule]; !strings.HasPrefix(closing.Message, "101 more findings") || closing.Pointer != "/a" {
		t.Errorf("closing duplicate finding %+v", closing)
	}
}
