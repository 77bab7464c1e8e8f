// Package memo holds Map, a concurrency-safe map that computes the value
// of each key once: the lint engine's directory listings, configuration
// reads and per-directory configuration lookups, asked for from many
// workers at once.
package memo

import (
	"errors"
	"sync"
)

// Map computes each key's value (and error) at most once. Callers asking
// for a key being computed wait for it. The zero Map is ready to use.
type Map[V any] struct {
	mu sync.Mutex
	m  map[string]*entry[V]
}

type entry[V any] struct {
	done chan struct{} // closed when v and err are set
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
		e = &entry[V]{done: make(chan struct{})}
		m.m[key] = e
	}
	m.mu.Unlock()
	if ok {
		<-e.done
		return e.v, e.err
	}
	defer close(e.done)
	e.err = errPanicked
	e.v, e.err = compute()
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
	<-e.done
	return e.v, e.err, true
}
