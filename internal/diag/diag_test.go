package diag

import (
	"regexp"
	"sync"
	"testing"
)

func TestSortDedup(t *testing.T) {
	ds := []Diagnostic{
		{Code: "GAIA032", Path: "b.py", Line: 1, Column: 1, Severity: Error},
		{Code: "GAIA011", Path: "a.py", Line: 9, Column: 2, Severity: Error},
		{Code: "GAIA011", Path: "a.py", Line: 3, Column: 7, Severity: Error},
		{Code: "GAIA011", Path: "a.py", Line: 3, Column: 7, Severity: Error},
	}
	got := SortDedup(ds)
	if len(got) != 3 || got[0].Line != 3 || got[1].Line != 9 || got[2].Path != "b.py" {
		t.Fatalf("SortDedup = %+v", got)
	}
}

func TestBlocking(t *testing.T) {
	if (Diagnostic{Severity: Warning}).Blocking() || (Diagnostic{Severity: Error, Suppressed: true}).Blocking() {
		t.Fatal("warnings and suppressed errors must not block")
	}
	if !HasBlocking([]Diagnostic{{Severity: Warning}, {Severity: Error}}) {
		t.Fatal("an unsuppressed error must block")
	}
}

func TestRegisterRejectsMalformed(t *testing.T) {
	for _, r := range []Rule{
		{Code: "gaia1", Name: "x", Severity: Error},
		{Code: "GAIA999", Name: "Not_Kebab", Severity: Error},
		{Code: "GAIA998", Name: "no-severity"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%+v) did not panic", r)
				}
			}()
			Register(r)
			Lookup(r.Code) // the catalogue is checked when first read
		}()
	}
}

// TestValidCodeAndName pins the hand-written checks to the patterns they
// replace.
func TestValidCodeAndName(t *testing.T) {
	codeRE := regexp.MustCompile(`^(GAIA[0-9]{3}|MATCH[0-9]{3}|ROSTER[0-9]{3}|PRIOR[0-9]{3}|REPORT[0-9]{3}|NULLIUS[0-9]{3})$`)
	nameRE := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, s := range []string{"GAIA001", "GAIA01", "GAIA0011", "gaia001", "MATCH999", "NULLIUS003", "ROSTER00a", "PRIOR", "REPORT123", "XGAIA001", "",
		"a", "a-b", "a--b", "-a", "a-", "ab1-2c", "A-b", "a_b", "infer-off-grade-pair"} {
		if validCode(s) != codeRE.MatchString(s) {
			t.Errorf("validCode(%q) = %v", s, validCode(s))
		}
		if validName(s) != nameRE.MatchString(s) {
			t.Errorf("validName(%q) = %v", s, validName(s))
		}
	}
}

var declareGoodOnce sync.Once

// TestDeclareRejectsMalformed: a declared rule is checked when the
// catalogue is first read, like a registered one, and must belong to the
// declaring family; a retired one must have no examples.
func TestDeclareRejectsMalformed(t *testing.T) {
	for _, r := range []*Rule{
		{Code: "NULLIUS971", Name: "other-owner", Severity: Error, Owner: "someone-else"},
		{Code: "NULLIUS972", Name: "retired-with-example", Severity: Error, Owner: "declare-test",
			Retired: "Moved.", Bad: "x"},
		{Code: "gaia1", Name: "malformed-code", Severity: Error, Owner: "declare-test"},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("declaring %+v did not panic", r)
				}
			}()
			Family("declare-test").Declare(func() []*Rule { return []*Rule{r} })
			Lookup(r.Code)
		}()
	}
	// The catalogue is the process's: declared once, so that -count=N runs
	// do not declare the rule twice.
	declareGoodOnce.Do(func() {
		good := &Rule{Code: "NULLIUS973", Name: "declared-rule", Severity: Warning, Owner: "declare-test"}
		Family("declare-test").Declare(func() []*Rule { return []*Rule{good} })
	})
	if got, ok := Lookup("declared-rule"); !ok || got.Code != "NULLIUS973" {
		t.Errorf("Lookup of a declared rule = %+v, %v", got, ok)
	}
}
