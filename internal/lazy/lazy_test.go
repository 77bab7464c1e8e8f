package lazy

import (
	"sync"
	"testing"
)

var builds int

func buildAnswer() int { builds++; return 42 }

var answer = New(buildAnswer)

func TestValueBuiltOnce(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := answer.Get(); got != 42 {
				t.Errorf("Get = %d", got)
			}
		})
	}
	wg.Wait()
	if builds != 1 {
		t.Errorf("built %d times", builds)
	}
}

func buildPanics() int { panic("boom") }

// TestValuePanicsAgain: like sync.OnceValue, every Get after a build that
// panicked panics with the same value.
func TestValuePanicsAgain(t *testing.T) {
	v := New(buildPanics)
	for i := range 2 {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("call %d: recovered %v, want boom", i, p)
				}
			}()
			v.Get()
		}()
	}
}

var escaper = NewReplacer("~", "~0", "/", "~1")

func TestReplacer(t *testing.T) {
	if got := escaper.Replace("a/b~c"); got != "a~1b~0c" {
		t.Errorf("Replace = %q", got)
	}
	odd := NewReplacer("x")
	for i := range 2 {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("call %d: an odd argument list did not panic", i)
				}
			}()
			odd.Replace("x")
		}()
	}
}

var squares int

func square(n int) int { squares++; return n * n }

var nine = NewOf(square, 3)

func TestOfBuiltOnceFromItsArgument(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := nine.Get(); got != 9 {
				t.Errorf("Get = %d", got)
			}
		})
	}
	wg.Wait()
	if squares != 1 || nine.Arg() != 3 {
		t.Errorf("built %d times; Arg = %d", squares, nine.Arg())
	}
}
