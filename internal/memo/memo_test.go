package memo

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

func TestComputedOnceUnderConcurrency(t *testing.T) {
	var m Map[int]
	var calls atomic.Int32
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := m.Get("k", func() (int, error) { calls.Add(1); return 7, nil })
			if v != 7 || err != nil {
				t.Errorf("Get = %d, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("computed %d times, want once", calls.Load())
	}
}

func TestErrorsAreKeptAndPeek(t *testing.T) {
	var m Map[string]
	if _, _, ok := m.Peek("a"); ok {
		t.Fatal("Peek of a key nobody asked for")
	}
	boom := errors.New("boom")
	if _, err := m.Get("a", func() (string, error) { return "", boom }); err != boom {
		t.Fatalf("err = %v", err)
	}
	if _, err := m.Get("a", func() (string, error) { return "x", nil }); err != boom {
		t.Errorf("the error was computed again: %v", err)
	}
	if _, err, ok := m.Peek("a"); !ok || err != boom {
		t.Errorf("Peek = %v, %v", err, ok)
	}
}
