// Package plaintoml walks a TOML document of the plain shape most
// pyproject.toml files have: table headers and one-word keys whose values
// are strings, booleans and arrays of them, each table and key defined
// once. Its callers read the few fields they need from the walk instead of
// go-toml's decoder, which builds a reflection plan and pools on first use
// (tens of microseconds of a one-package lint) and, in strict mode, an
// error with its context for every key it does not know. A document of any
// other shape is refused, and the caller decodes it with go-toml: a number
// or date (whose conversion can fail), an inline table, an array of tables
// or a dotted key (whose rules the decoder applies), a table or key defined
// twice, a parse error.
package plaintoml

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Walk calls table with the path of each table header and value with the
// path of the current table, the key and its value (a string, a boolean
// or an array of them; Data holds a string's decoded bytes), in document
// order. It reports whether the document is plain and no call returned
// false. The paths and bytes passed are only valid during the call.
func Walk(src []byte, table func(path [][]byte) bool, value func(table [][]byte, key []byte, v *unstable.Node) bool) bool {
	w := walkers.Get().(*walker)
	defer w.done()
	return w.walk(src, table, value)
}

// walker is Walk's state, kept between calls (walkers) so a run's
// thousand pyproject.toml files share one parser's node buffer and one
// map instead of allocating their own.
type walker struct {
	p unstable.Parser
	// seen holds what each path (its parts joined by "\x00") has been
	// given so far: seenTable, seenHeader, seenValue.
	seen map[string]uint8
	// table is the path of the current table, joined and in parts (the
	// parts' bytes are the parser's: slices of the document, or of a
	// quoted key's decoded copy, so they stay valid for the whole walk);
	// path and parts are scratch for a path being built.
	table, path       []byte
	tableParts, parts [][]byte
}

const (
	seenTable  = 1 << iota // a table: named by a header or implied by a longer one
	seenHeader             // named by a [table] header
	seenValue              // given a value by a key
)

var walkers = sync.Pool{New: func() any { return &walker{seen: map[string]uint8{}} }}

// done returns w to the pool; a map grown by an outsized document is
// dropped (clear costs its size on every later call).
func (w *walker) done() {
	w.p.Reset(nil)
	if len(w.seen) > 64 {
		w.seen = map[string]uint8{}
	}
	clear(w.seen)
	walkers.Put(w)
}

func (w *walker) walk(src []byte, table func([][]byte) bool, value func([][]byte, []byte, *unstable.Node) bool) bool {
	w.p.Reset(src)
	w.table, w.tableParts = w.table[:0], w.tableParts[:0]
	for w.p.NextExpression() {
		e := w.p.Expression()
		switch e.Kind {
		case unstable.Table:
			// Every prefix of the header's path is a table, and none may
			// have a value; the path itself must not be a header already.
			w.path, w.parts = w.path[:0], w.parts[:0]
			for it := e.Key(); it.Next(); {
				part := it.Node().Data
				if len(w.parts) > 0 {
					w.path = append(w.path, 0)
				}
				w.path = append(w.path, part...)
				w.parts = append(w.parts, part)
				if w.seen[string(w.path)]&seenValue != 0 {
					return false
				}
				if !it.IsLast() {
					w.mark(w.path, seenTable)
				}
			}
			if w.seen[string(w.path)]&seenHeader != 0 {
				return false
			}
			w.mark(w.path, seenTable|seenHeader)
			w.table = append(w.table[:0], w.path...)
			w.tableParts = append(w.tableParts[:0], w.parts...)
			if !table(w.tableParts) {
				return false
			}
		case unstable.KeyValue:
			it := e.Key()
			if !it.Next() {
				return false
			}
			key := it.Node().Data
			if it.Next() {
				return false // a dotted key
			}
			w.path = append(w.path[:0], w.table...)
			if len(w.tableParts) > 0 {
				w.path = append(w.path, 0)
			}
			w.path = append(w.path, key...)
			if w.seen[string(w.path)]&(seenTable|seenValue) != 0 {
				return false
			}
			w.mark(w.path, seenValue)
			v := e.Value()
			if !plainValue(v) || !value(w.tableParts, key, v) {
				return false
			}
		default:
			return false
		}
	}
	return w.p.Error() == nil
}

// mark adds flags to what path has been given, storing only what is new
// (a store converts the key to a string, a lookup does not).
func (w *walker) mark(path []byte, flag uint8) {
	if f := w.seen[string(path)]; f|flag != f {
		w.seen[string(path)] = f | flag
	}
}

// plainValue reports a string, a boolean, or an array of plain values.
func plainValue(v *unstable.Node) bool {
	switch v.Kind {
	case unstable.String, unstable.Bool:
		return true
	case unstable.Array:
		for it := v.Children(); it.Next(); {
			if !plainValue(it.Node()) {
				return false
			}
		}
		return true
	}
	return false
}

// Strings returns the strings of an array value; ok is false when v is not
// an array of strings. An empty array is an empty, non-nil slice, as the
// decoder gives it.
func Strings(v *unstable.Node) (out []string, ok bool) {
	if v.Kind != unstable.Array {
		return nil, false
	}
	out = []string{}
	for it := v.Children(); it.Next(); {
		if it.Node().Kind != unstable.String {
			return nil, false
		}
		out = append(out, string(it.Node().Data))
	}
	return out, true
}

// Respelled reports whether part is not word but lower-cases to it
// (strings.ToLower, by which go-toml's decoder matches a key to a struct
// field): a key the decoder would read into the field word names, which a
// caller reading only the exact spelling must leave to the decoder. An
// ASCII part, the usual one, is compared without converting it.
func Respelled(part []byte, word string) bool {
	if string(part) == word {
		return false
	}
	for _, c := range part {
		if c >= utf8.RuneSelf {
			return strings.ToLower(string(part)) == word
		}
	}
	if len(part) != len(word) {
		return false
	}
	for i, c := range part {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[i] {
			return false
		}
	}
	return true
}
