package pyscan

// slab hands out pointers to values of T carved from chunks, so the many
// small nodes of one module's model (expressions, name references,
// bindings, keywords, calls) cost a few allocations instead of one each:
// fewer objects for the allocator and the garbage collector, and no
// per-object header. Every node of a module lives as long as the Module,
// so sharing a chunk never keeps anything alive longer than it would be.
//
// A builder makes its slabs per module, the first chunk sized from counts
// of the module's tree (see builder.initSlabs), later ones a quarter of
// it, so little of a chunk goes unused.
type slab[T any] struct {
	free []T
	next int // size of the chunks after the first
}

// newSlab returns a slab whose first chunk holds n values.
func newSlab[T any](n int) slab[T] {
	n = max(n, 4)
	return slab[T]{free: make([]T, n), next: n/4 + 4}
}

// new returns a pointer to a zero T.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.free = make([]T, max(s.next, 4))
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}
