package lazyre

import (
	"sync"
	"testing"
)

func TestCompilesOnFirstUseOnce(t *testing.T) {
	r := New(`^a(b+)$`)
	if r.re != nil {
		t.Fatal("compiled before use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("abb") || r.FindStringSubmatch("abbb")[1] != "bbb" {
				t.Error("wrong match")
			}
		}()
	}
	wg.Wait()
	if r.String() != `^a(b+)$` || r.NumSubexp() != 1 {
		t.Error("String/NumSubexp")
	}
}

func TestInvalidPatternPanicsOnUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("no panic for an invalid pattern")
		}
	}()
	r.MatchString("x")
}
