// Package jsonloc parses JSON while remembering where every value sits, so
// validators can report a finding at the RFC 6901 pointer of the offending
// value and at the line:column that pointer maps to.
//
// The parser is strict (RFC 8259): invalid UTF-8, NaN/Infinity, trailing
// data, control characters in strings and bad escapes are located syntax
// errors. Python's json module is more lenient (NaN, a sniffed BOM); nullius
// rejects those on purpose and records it in docs/deviations.md.
//
// Memory is proportional to the input (issue 13): positions are kept in one
// flat array of 16-byte records in document order, not in maps keyed by
// pointer strings; a pointer is resolved by walking that array when a
// finding asks for it. Every container is allocated once at its exact
// size; member names and short scalars that repeat (the same keys in every
// object of an array, "pass", 2026) are made once and shared. What a
// document decodes to is charged before it is allocated, and a document
// that would take more than DensityFactor times its size is refused
// (see Parse).
package jsonloc

import (
	"fmt"
	"iter"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/nullius-dev/nullius/internal/lazy"
)

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 10000

// Doc is a parsed JSON document. Value holds the decoded value: map[string]any
// for objects (Object with Options.Ordered), []any for arrays, string,
// json.Number for numbers, bool, nil.
type Doc struct {
	Src   []byte
	Value any
	// Duplicates lists the pointers of object members whose key repeats an
	// earlier key of the same object (the last one wins in Value).
	Duplicates []string

	// nodes holds every value's position in document order (pre-order):
	// a container is followed by its members' subtrees.
	nodes []node
	cost  int64 // the decoded form's charged size (Cost)
	depth int   // the deepest value's nesting (Depth)

	mu       sync.Mutex
	lines    []int32                    // start offset of every line, built on first use
	children map[int32][]int32          // child node indices of large containers, built on lookup
	keys     map[int32]map[string]int32 // member name -> last child node of large objects, built on lookup
}

// node is the position of one value.
type node struct {
	start, end int32 // byte range of the value
	key        int32 // offset of the member name's opening quote; -1 outside objects
	next       int32 // index of the first node after this value's subtree
}

// SyntaxError is a located JSON parse failure.
type SyntaxError struct {
	Offset, Line, Col int
	Msg               string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d column %d: %s", e.Line, e.Col, e.Msg)
}

// Options adjust parsing.
type Options struct {
	AllowBOM bool // accept (and skip) a leading UTF-8 byte-order mark
	// Ordered decodes objects as Object (members in file order, repeated
	// keys kept) instead of map[string]any.
	Ordered bool
	// StrictSurrogates refuses a \uD800-\uDFFF escape that is not half of
	// a surrogate pair, instead of decoding it as U+FFFD the way
	// encoding/json does: a string that hashes (a criterion) must hold
	// exactly what its author wrote.
	StrictSurrogates bool
}

// Member is one name/value pair of an Object, in file order.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its members in file (or insertion)
// order, repeated keys included (Options.Ordered).
type Object []Member

// Get returns the value of key; with repeated keys the last one wins, as in
// Python's json module.
func (o Object) Get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// Has reports whether key is present.
func (o Object) Has(key string) bool { _, ok := o.Get(key); return ok }

// Keys returns the distinct keys in first-seen order.
func (o Object) Keys() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range o {
		if !seen[m.Key] {
			seen[m.Key] = true
			out = append(out, m.Key)
		}
	}
	return out
}

// Set replaces key's value in place, or appends it.
func (o Object) Set(key string, v any) Object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{key, v})
}

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

// Plain converts an ordered value (Options.Ordered) into the plain model
// (map[string]any objects, the last of repeated keys winning), for a
// consumer that needs maps, such as a JSON Schema validator. Scalars and
// strings are shared, not copied.
func Plain(v any) any {
	switch t := v.(type) {
	case Object:
		m := make(map[string]any, len(t))
		for _, mem := range t {
			m[mem.Key] = Plain(mem.Value)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Plain(e)
		}
		return out
	}
	return v
}

// lineStarts returns the start offset of every line, built once.
func (d *Doc) lineStarts() []int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lines == nil {
		d.lines = append(make([]int32, 0, 64), 0)
		for i, c := range d.Src {
			if c == '\n' {
				d.lines = append(d.lines, int32(i+1))
			}
		}
	}
	return d.lines
}

// Position converts a byte offset into a 1-based line and 1-based byte column.
func (d *Doc) Position(offset int) (line, col int) {
	offset = max(0, min(offset, len(d.Src)))
	lines := d.lineStarts()
	i := sort.Search(len(lines), func(i int) bool { return int(lines[i]) > offset }) - 1
	return i + 1, offset - int(lines[i]) + 1
}

func (d *Doc) errAt(off int, msg string) *SyntaxError {
	l, c := d.Position(off)
	return &SyntaxError{Offset: off, Line: l, Col: c, Msg: msg}
}

// Offset returns the start offset of the value at pointer, and whether the
// pointer resolves.
func (d *Doc) Offset(pointer string) (int, bool) {
	i, exact := d.resolve(pointer)
	if !exact {
		return 0, false
	}
	return int(d.nodes[i].start), true
}

// Range returns the byte range [start, end) of the value at pointer, for
// callers that splice one value of a file and keep every other byte.
func (d *Doc) Range(pointer string) (start, end int, ok bool) {
	i, exact := d.resolve(pointer)
	if !exact {
		return 0, 0, false
	}
	return int(d.nodes[i].start), int(d.nodes[i].end), true
}

// Locate returns the 1-based line and byte column of the value at pointer,
// or of its nearest existing ancestor when the pointer does not resolve
// (a missing member is reported at the object that lacks it).
func (d *Doc) Locate(pointer string) (line, col int) {
	i, _ := d.resolve(pointer)
	if i < 0 {
		return 1, 1
	}
	return d.Position(int(d.nodes[i].start))
}

// LocateKey returns the position of the member key at pointer (useful for
// "unknown key" findings), falling back to Locate.
func (d *Doc) LocateKey(pointer string) (line, col int) {
	i, exact := d.resolve(pointer)
	if exact && d.nodes[i].key >= 0 {
		return d.Position(int(d.nodes[i].key))
	}
	return d.Locate(pointer)
}

// resolve walks pointer down the node array. It returns the node the
// pointer names (exact) or its deepest existing ancestor; -1 for a
// document without nodes.
func (d *Doc) resolve(pointer string) (int32, bool) {
	if len(d.nodes) == 0 {
		return -1, false
	}
	if pointer == "" {
		return 0, true
	}
	if pointer[0] != '/' {
		return 0, false
	}
	cur := int32(0)
	for rest := pointer[1:]; ; {
		tok := rest
		i := strings.IndexByte(rest, '/')
		if i >= 0 {
			tok, rest = rest[:i], rest[i+1:]
		}
		child, ok := d.child(cur, tok)
		if !ok {
			return cur, false
		}
		cur = child
		if i < 0 {
			return cur, true
		}
	}
}

// smallContainer is the member count up to which a lookup walks the
// members instead of building an index of them.
const smallContainer = 16

// child finds the member of container n named by the escaped reference
// token tok: an array index, or an object member name (the last of
// repeated names, as in Value).
func (d *Doc) child(n int32, tok string) (int32, bool) {
	nd := d.nodes[n]
	switch d.Src[nd.start] {
	case '[':
		idx, err := strconv.Atoi(tok)
		if err != nil || idx < 0 || strconv.Itoa(idx) != tok {
			return 0, false
		}
		kids := d.childList(n)
		if idx >= len(kids) {
			return 0, false
		}
		return kids[idx], true
	case '{':
		name, ok := Unescape(tok)
		if !ok {
			return 0, false
		}
		if idx := d.keyIndex(n); idx != nil {
			c, ok := idx[name]
			return c, ok
		}
		found, ok := int32(0), false
		for c := n + 1; c < nd.next; c = d.nodes[c].next {
			if d.keyAt(d.nodes[c].key) == name {
				found, ok = c, true
			}
		}
		return found, ok
	}
	return 0, false
}

// childList returns the child node indices of container n; lists of large
// containers are kept for the next lookup.
func (d *Doc) childList(n int32) []int32 {
	d.mu.Lock()
	kids, ok := d.children[n]
	d.mu.Unlock()
	if ok {
		return kids
	}
	nd := d.nodes[n]
	for c := n + 1; c < nd.next; c = d.nodes[c].next {
		kids = append(kids, c)
	}
	if len(kids) > smallContainer {
		d.mu.Lock()
		if d.children == nil {
			d.children = map[int32][]int32{}
		}
		d.children[n] = kids
		d.mu.Unlock()
	}
	return kids
}

// keyIndex returns member name -> last child of a large object n (nil for
// a small one, which lookups walk).
func (d *Doc) keyIndex(n int32) map[string]int32 {
	d.mu.Lock()
	idx, ok := d.keys[n]
	d.mu.Unlock()
	if ok {
		return idx
	}
	nd := d.nodes[n]
	count := 0
	for c := n + 1; c < nd.next && count <= smallContainer; c = d.nodes[c].next {
		count++
	}
	if count <= smallContainer {
		return nil
	}
	idx = map[string]int32{}
	for c := n + 1; c < nd.next; c = d.nodes[c].next {
		idx[d.keyAt(d.nodes[c].key)] = c
	}
	d.mu.Lock()
	if d.keys == nil {
		d.keys = map[int32]map[string]int32{}
	}
	d.keys[n] = idx
	d.mu.Unlock()
	return idx
}

// keyAt decodes the member name whose opening quote is at off (the parse
// already accepted it).
func (d *Doc) keyAt(off int32) string {
	p := &parser{d: d, src: d.Src, pos: int(off)}
	s, _ := p.str(true)
	return s
}

// Pointer builds an RFC 6901 pointer from string keys and int indices.
func Pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case string:
			b.WriteString(Escape(v))
		case int:
			b.WriteString(strconv.Itoa(v))
		default:
			b.WriteString(Escape(fmt.Sprint(v)))
		}
	}
	return b.String()
}

var (
	escaper   = lazy.NewReplacer("~", "~0", "/", "~1")
	unescaper = lazy.NewReplacer("~1", "/", "~0", "~")
)

// Escape escapes one reference token (~ becomes ~0, / becomes ~1).
func Escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return escaper.Replace(tok)
}

// Unescape decodes one reference token; ok is false for a "~" not
// followed by 0 or 1.
func Unescape(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] == '~' && (i+1 == len(tok) || (tok[i+1] != '0' && tok[i+1] != '1')) {
			return "", false
		}
	}
	return unescaper.Replace(tok), true
}

// DuplicateError is the refusal of a document with a repeated key, located
// at the first repeated key and naming it (path is the file as the user
// gave it), or nil when no key repeats. Readers of a file whose meaning a
// silently dropped member could change (a node store, a match) refuse it.
func (d *Doc) DuplicateError(path string) error {
	if len(d.Duplicates) == 0 {
		return nil
	}
	ptr := d.Duplicates[0]
	line, col := d.LocateKey(ptr)
	return fmt.Errorf("%s:%d:%d: key %q appears twice in one object; the last one would silently win", path, line, col, LastToken(ptr))
}

// LastToken is the last reference token of a JSON pointer, unescaped: the
// member name a duplicate's pointer ends in.
func LastToken(ptr string) string {
	tok, _ := Unescape(ptr[strings.LastIndexByte(ptr, '/')+1:])
	return tok
}
