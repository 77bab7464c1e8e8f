package lazyre

import (
	"regexp"
	"sync"
	"testing"
)

func TestCompilesOnFirstUseOnce(t *testing.T) {
	r := New(`^a(b+)$`)
	var wg sync.WaitGroup
	res := make([]*regexp.Regexp, 8)
	for i := range res {
		wg.Go(func() {
			if !r.MatchString("abb") || r.FindStringSubmatch("abbb")[1] != "bbb" {
				t.Error("wrong match")
			}
			res[i] = r.RE()
		})
	}
	wg.Wait()
	for _, re := range res {
		if re != res[0] {
			t.Fatal("compiled more than once")
		}
	}
	if r.String() != `^a(b+)$` || r.NumSubexp() != 1 {
		t.Error("String/NumSubexp")
	}
}

// An invalid pattern costs nothing until used (New does not compile), then
// panics in every call, not only the first.
func TestInvalidPatternPanicsOnUse(t *testing.T) {
	r := New(`(`)
	for i := range 2 {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("call %d: no panic for an invalid pattern", i)
				}
			}()
			r.MatchString("x")
		}()
	}
}
