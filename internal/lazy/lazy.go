// Package lazy holds values built on first use that cost nothing at
// process start.
//
// A package-level sync.OnceValue, strings.NewReplacer or map literal runs
// in the package's init: it allocates and touches its code in every nullius
// process, `nullius version` included (issue 15). A lazy.Value or
// lazy.Replacer declared at package level with constant arguments is
// instead laid out by the linker as static data, so the package needs no
// init code for it:
//
//	var keywords = lazy.New(buildKeywords) // a named function, not a literal
//	var escaper = lazy.NewReplacer("~", "~0", "/", "~1")
//
// The builder must be a named function: a function literal makes the
// compiler initialise the variable with code at start again
// (TestNothingAtInit in cmd/nullius finds a package that does).
// internal/lazyre does the same for regular expressions.
package lazy

import (
	"strings"
	"sync"
)

// Value is a value built by a function on the first Get, from any
// goroutine.
type Value[T any] struct {
	once  sync.Once
	build func() T
	v     T
	valid bool // build returned
	p     any  // what build panicked with
}

// New returns a Value that build makes on first use.
func New[T any](build func() T) *Value[T] { return &Value[T]{build: build} }

// Get returns the value, building it on the first call. As with
// sync.OnceValue, a build that panics panics again, with the same value,
// in every later call.
func (l *Value[T]) Get() T {
	l.once.Do(l.init)
	if !l.valid {
		panic(l.p)
	}
	return l.v
}

func (l *Value[T]) init() {
	defer func() {
		if !l.valid {
			l.p = recover()
			panic(l.p) // the first call's panic keeps its stack
		}
	}()
	l.v = l.build()
	l.valid = true
}

// Of is a value built from an argument on the first Get, from any
// goroutine: build(arg), with Value's panic behaviour. NewOf with a named
// function and a constant argument is static data too, so a package that
// wraps Of (Replacer below, internal/lazyre's Regexp) needs no init code.
type Of[A, T any] struct {
	arg   A
	build func(A) T
	v     Value[T]
}

// NewOf returns an Of that build makes from arg on first use.
func NewOf[A, T any](build func(A) T, arg A) *Of[A, T] { return &Of[A, T]{arg: arg, build: build} }

// Arg returns the argument the value is built from.
func (o *Of[A, T]) Arg() A { return o.arg }

// Get returns build(arg), building it on the first call.
func (o *Of[A, T]) Get() T {
	o.v.once.Do(o.init) // o.v's build is set inside its once (no init code)
	return o.v.Get()
}

func (o *Of[A, T]) init() {
	o.v.build = o.call
	o.v.init()
}

func (o *Of[A, T]) call() T { return o.build(o.arg) }

// Replacer is a strings.Replacer made on first use.
type Replacer struct {
	r *Of[[]string, *strings.Replacer]
}

// NewReplacer returns a Replacer of the old, new string pairs, as
// strings.NewReplacer; it panics on first use if oldnew has an odd length.
func NewReplacer(oldnew ...string) *Replacer {
	return &Replacer{NewOf(newReplacer, oldnew)}
}

// Replace returns a copy of s with all replacements performed, as
// (*strings.Replacer).Replace.
func (r *Replacer) Replace(s string) string { return r.r.Get().Replace(s) }

func newReplacer(oldnew []string) *strings.Replacer { return strings.NewReplacer(oldnew...) }
