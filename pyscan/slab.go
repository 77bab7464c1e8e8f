package pyscan

// slab hands out pointers to values of T carved from chunks, so the many
// small nodes of one module's model (expressions, name references,
// bindings, keywords, calls) cost a few allocations instead of one each:
// fewer objects for the allocator and the garbage collector, and no
// per-object header. Every node of a module lives as long as the Module,
// so sharing a chunk never keeps anything alive longer than it would be.
//
// A builder makes its slabs per module, the first chunk sized from counts
// of the module's tree (see builder.initSlabs) and allocated on first use
// (a module without assignments allocates no Assign), later ones a quarter
// of it, so little of a chunk goes unused. The smaller slabs start in
// room allocated with the Module (see slabIn and moduleRoot).
type slab[T any] struct {
	free []T
	size int // size of the next chunk
	next int // size of the chunks after the first
	made int // values handed out by new
}

// newSlab returns a slab whose first chunk will hold n values.
func newSlab[T any](n int) slab[T] {
	n = max(n, 4)
	return slab[T]{size: n, next: n/4 + 4}
}

// slabIn returns a slab for about n values whose first chunk is room
// (allocated already), and the next one what room lacks of n.
func slabIn[T any](room []T, n int) slab[T] {
	s := newSlab[T](n)
	s.free, s.size = room, max(n-len(room), s.next)
	return s
}

func (s *slab[T]) grow() {
	s.free = make([]T, max(s.size, 4))
	s.size = s.next
}

// new returns a pointer to a zero T.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.grow()
	}
	p := &s.free[0]
	s.free = s.free[1:]
	s.made++
	return p
}

// take returns an empty slice with room for exactly n values (nil for
// n == 0): the argument lists, elements and binding lists of a module are
// carved from shared chunks too. Appending past n copies the slice out of
// the chunk, so a wrong count costs an allocation, never a neighbour.
func (s *slab[T]) take(n int) []T {
	switch {
	case n <= 0:
		return nil
	case n > len(s.free) && n > s.size/2:
		return make([]T, 0, n) // a long list gets its own array
	case n > len(s.free):
		s.grow()
	}
	r := s.free[:0:n]
	s.free = s.free[n:]
	return r
}
