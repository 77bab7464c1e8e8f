package memo

import (
	"errors"
	"strconv"
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

// A computation that panics panics its caller; whoever waited for it, and
// whoever asks afterwards, gets errPanicked instead of a zero value
// passing for a result.
func TestPanicIsAnErrorForOthers(t *testing.T) {
	var m Map[int]
	started := make(chan struct{})
	waited := make(chan error)
	go func() {
		<-started
		_, err := m.Get("k", func() (int, error) { return 1, nil })
		waited <- err
	}()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the computing caller did not panic")
			}
		}()
		m.Get("k", func() (int, error) {
			close(started) // the waiter asks while this runs or after it panicked: either way it must see errPanicked
			panic("boom")
		})
	}()
	if err := <-waited; err != errPanicked {
		t.Errorf("waiter: %v", err)
	}
	if _, err := m.Get("k", func() (int, error) { return 1, nil }); err != errPanicked {
		t.Errorf("later caller: %v", err)
	}
	if _, err, ok := m.Peek("k"); !ok || err != errPanicked {
		t.Errorf("Peek: %v %v", err, ok)
	}
}

// BenchmarkGet asks for 1,000 keys twice each, as a lint run asks for
// its directories: one allocation per key (the entry) besides the map's
// own growth, and none for a key already computed.
func BenchmarkGet(b *testing.B) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = "/corpus/ideas/idea-" + strconv.Itoa(i) + "-gaia"
	}
	b.ReportAllocs()
	for b.Loop() {
		var m Map[int]
		for range 2 {
			for _, k := range keys {
				if _, err := m.Get(k, func() (int, error) { return len(k), nil }); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
