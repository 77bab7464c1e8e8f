package diag

import (
	"fmt"
	"maps"
	"slices"
)

// PerRule is how many findings of one rule a validator reports for one
// file. A validator that checks every element of an array makes findings
// in proportion to the elements, and a finding takes far more memory than
// the bytes that caused it (its message, its pointer, its line in every
// output): a file of a million broken elements would make millions of
// findings and take gigabytes (issue 13: memory proportional to input). A
// rule's findings past the first PerRule are counted instead, and one
// closing finding of that rule says how many were not shown.
const PerRule = 100

// Limit keeps the findings of one file within PerRule of each rule. T is
// what the caller keeps of the first finding it drops for each rule, to
// place the closing finding there.
type Limit[T any] struct {
	count map[*Rule]int
	drops []Drop[T]     // in the order rules first overflowed
	at    map[*Rule]int // index of each rule's Drop
}

// Drop says how many findings of Rule were not kept, and where the first
// one was.
type Drop[T any] struct {
	Rule  *Rule
	N     int
	First T
}

// Keep counts one finding of r and reports whether it is within the limit;
// when it is not, first (called only for the first dropped finding of r)
// says where it was.
func (l *Limit[T]) Keep(r *Rule, first func() T) bool {
	if l.count == nil {
		l.count, l.at = map[*Rule]int{}, map[*Rule]int{}
	}
	l.count[r]++
	switch n := l.count[r]; {
	case n <= PerRule:
		return true
	case n == PerRule+1:
		l.at[r] = len(l.drops)
		l.drops = append(l.drops, Drop[T]{Rule: r, N: 1, First: first()})
	default:
		l.drops[l.at[r]].N++
	}
	return false
}

// Dropped returns the rules whose findings went past the limit.
func (l *Limit[T]) Dropped() []Drop[T] { return l.drops }

// Message is the closing finding's message for n findings not shown.
func (d Drop[T]) Message() string {
	return fmt.Sprintf("%d more findings of this rule in this file are not shown (nullius reports at most %d of a rule per file); fix these and run it again", d.N, PerRule)
}

// Findings collects diagnostics within the limit: at most PerRule of each
// rule in each file.
type Findings struct {
	list   []Diagnostic
	limits map[string]*Limit[Diagnostic] // by path
	total  int
}

// Add keeps the diagnostic finding makes, a finding of rule r in the file
// at path, unless r is over the limit there (finding is then called only
// for the first one not kept).
func (f *Findings) Add(r *Rule, path string, finding func() Diagnostic) {
	f.total++
	if f.limits == nil {
		f.limits = map[string]*Limit[Diagnostic]{}
	}
	l := f.limits[path]
	if l == nil {
		l = &Limit[Diagnostic]{}
		f.limits[path] = l
	}
	if l.Keep(r, finding) {
		f.list = append(f.list, finding())
	}
}

// Put keeps diagnostics made by another check, already within its limit.
func (f *Findings) Put(ds ...Diagnostic) {
	f.total += len(ds)
	f.list = append(f.list, ds...)
}

// Has reports whether a finding of rule r in the file at path was
// reported, kept or not.
func (f *Findings) Has(r *Rule, path string) bool {
	if l := f.limits[path]; l != nil && l.count[r] > 0 {
		return true
	}
	return slices.ContainsFunc(f.list, func(d Diagnostic) bool { return d.Code == r.Code && d.Path == path })
}

// Count is the number of findings reported so far, kept or not.
func (f *Findings) Count() int { return f.total }

// List returns the findings kept and, for each rule of a file over the
// limit, one finding at the first one not kept that says how many were
// not. The findings are done with: more are not added after it.
func (f *Findings) List() []Diagnostic {
	for _, path := range slices.Sorted(maps.Keys(f.limits)) {
		for _, d := range f.limits[path].Dropped() {
			closing := d.First
			closing.Message = d.Message()
			f.list = append(f.list, closing)
		}
	}
	f.limits = nil
	return f.list
}
