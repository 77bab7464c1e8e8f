package driver_test

import (
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers"
)

// TestResultsKeepNoPass: RunParsed hands its runner, and the one Pass of
// its analyzers, to the next package when it returns, so no analyzer's
// result may hold an analysis.Pass or a func (which could close over one).
func TestResultsKeepNoPass(t *testing.T) {
	found, seen := keptPasses(analyzers.All())
	for _, c := range found {
		t.Error(c)
	}
	if seen < 10 {
		t.Fatalf("walked %d analyzers: not nullius's set", seen)
	}
}

// And the check sees a Pass where one is kept.
func TestResultsKeepNoPassFindsOne(t *testing.T) {
	bad := &analysis.Analyzer{Name: "keeper", ResultType: reflect.TypeFor[map[string][]struct {
		N    int
		Pass *analysis.Pass
	}]()}
	fn := &analysis.Analyzer{Name: "fn", ResultType: reflect.TypeFor[struct{ F func() }]()}
	if got, _ := keptPasses([]*analysis.Analyzer{bad, fn}); len(got) != 2 {
		t.Fatalf("found %q, want the Pass of keeper and the func of fn", got)
	}
}

// keptPasses walks the result types of as and everything they require,
// and names each Pass or func a result could hold; seen counts the
// analyzers walked.
func keptPasses(as []*analysis.Analyzer) (out []string, seen int) {
	pass := reflect.TypeFor[analysis.Pass]()
	types := map[reflect.Type]bool{}
	var check func(rt reflect.Type, a *analysis.Analyzer, path string)
	check = func(rt reflect.Type, a *analysis.Analyzer, path string) {
		if types[rt] {
			return
		}
		types[rt] = true
		switch rt.Kind() {
		case reflect.Func:
			out = append(out, a.Name+"'s result holds a func at "+path+": it could keep the run's Pass")
		case reflect.Struct:
			if rt == pass {
				out = append(out, a.Name+"'s result holds an analysis.Pass at "+path)
				return
			}
			for i := range rt.NumField() {
				check(rt.Field(i).Type, a, path+"."+rt.Field(i).Name)
			}
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			check(rt.Elem(), a, path+"[]")
		case reflect.Map:
			check(rt.Key(), a, path+"{key}")
			check(rt.Elem(), a, path+"{value}")
		}
	}
	seenA := map[*analysis.Analyzer]bool{}
	var walk func([]*analysis.Analyzer)
	walk = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if seenA[a] {
				continue
			}
			seenA[a] = true
			if a.ResultType != nil {
				check(a.ResultType, a, a.ResultType.String())
			}
			walk(a.Requires)
		}
	}
	walk(as)
	return out, len(seenA)
}
