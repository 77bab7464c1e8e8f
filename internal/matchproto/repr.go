package matchproto

import "iter"

// PyItems yields the members in order, so pyfmt renders an Object as
// Python prints the dict json.loads makes of it.
func (o Object) PyItems() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, m := range o {
			if !yield(m.Key, m.Value) {
				return
			}
		}
	}
}
