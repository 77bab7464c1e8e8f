// Package memo holds Map, a concurrency-safe map that computes the value
// of each key once: the lint engine's directory listings, configuration
// reads and per-directory configuration lookups, asked for from many
// workers at once.
package memo

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Map computes each key's value (and error) at most once. Callers asking
// for a key being computed wait for it. The zero Map is ready to use.
type Map[V any] struct {
	mu sync.Mutex
	m  map[string]*entry[V]
}

// entry is one key's value. The goroutine computing it holds mu until v
// and err are set, so a waiter blocks on mu; done lets the callers that
// come after (most of them) skip even that. One allocation per key.
type entry[V any] struct {
	mu   sync.Mutex
	done atomic.Bool
	v    V
	err  error
}

// errPanicked is what waiters see when the computation panicked.
var errPanicked = errors.New("memo: the computation of this value panicked")

// Get returns key's value, computing it with compute on the first call.
func (m *Map[V]) Get(key string, compute func() (V, error)) (V, error) {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]*entry[V]{}
	}
	e, ok := m.m[key]
	if !ok {
		e = &entry[V]{}
		e.mu.Lock() // before anyone can find it
		m.m[key] = e
	}
	m.mu.Unlock()
	if ok {
		return e.wait()
	}
	defer e.finish()
	e.err = errPanicked
	e.v, e.err = compute()
	return e.v, e.err
}

// finish publishes the value (or errPanicked, when compute panicked) and
// releases the waiters.
func (e *entry[V]) finish() {
	e.done.Store(true)
	e.mu.Unlock()
}

// wait returns the value once it is computed.
func (e *entry[V]) wait() (V, error) {
	if !e.done.Load() {
		// The empty critical section is the wait: the computing goroutine
		// holds mu until the value is set.
		e.mu.Lock()
		//lint:ignore SA2001 waiting for the holder is the point
		e.mu.Unlock()
	}
	return e.v, e.err
}

// Peek returns key's value if some caller has asked for it (waiting for
// it if it is being computed); ok is false when nobody has.
func (m *Map[V]) Peek(key string) (v V, err error, ok bool) {
	m.mu.Lock()
	e := m.m[key]
	m.mu.Unlock()
	if e == nil {
		return v, nil, false
	}
	v, err = e.wait()
	return v, err, true
}
