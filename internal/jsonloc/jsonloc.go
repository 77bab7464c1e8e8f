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
// finding asks for it. Member names that repeat (the same keys in every
// object of an array) are stored once.
package jsonloc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 10000

// The decoded form of a document may take at most DensityFactor times its
// size plus DensitySlack bytes. Decoded values cost far more than their
// text when they are tiny (`{"a":1}` is 7 bytes of JSON and about 400 of
// Go map; a million of them is a 7 MB file that decodes to 400 MB), so a
// document made of them is refused while it is parsed, before the memory
// is spent. Real artifacts decode to 3 to 5 times their size (up to 7
// when written without whitespace); the factor leaves them room.
const (
	DensityFactor = 10
	DensitySlack  = 8 << 20
)

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

var bom = []byte{0xEF, 0xBB, 0xBF}

// maxInterned bounds the table of member names stored once.
const maxInterned = 1 << 14

// Parse decodes src strictly: invalid UTF-8, NaN/Infinity, trailing data and
// an unexpected BOM are *SyntaxError values.
func Parse(src []byte, opts Options) (*Doc, error) {
	d := &Doc{Src: src}
	if len(src) > math.MaxInt32 {
		return nil, d.errAt(0, "document larger than 2 GiB")
	}
	if !utf8.Valid(src) {
		off := firstInvalid(src)
		return nil, d.errAt(off, fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[off]))
	}
	p := &parser{d: d, src: src, opts: opts, intern: map[string]string{},
		budget: DensityFactor*int64(len(src)) + DensitySlack}
	// Every value but the last of a container is followed by a comma,
	// and every container opens with a bracket: their count bounds the
	// values (commas and brackets inside strings only over-count), so the
	// array is allocated once at about its final size.
	// A real document has a value every 20 bytes or more, so the guess
	// is kept under one value per 8 bytes: a document of tiny values grows
	// the array as it goes (and meets the density budget), instead of
	// reserving the worst case up front.
	d.nodes = make([]node, 0, min(bytes.Count(src, []byte{','})+bytes.Count(src, []byte{'['})+bytes.Count(src, []byte{'{'})+1, len(src)/8+1))
	if err := p.charge(int64(cap(d.nodes)) * costNode); err != nil {
		return nil, err
	}
	if len(src) >= 3 && string(src[:3]) == string(bom) {
		if !opts.AllowBOM {
			return nil, d.errAt(0, "unexpected UTF-8 byte-order mark at the start of the file")
		}
		p.pos = 3
	}
	p.ws()
	if p.pos >= len(src) {
		return nil, d.errAt(p.pos, "empty document: expected a JSON value")
	}
	v, err := p.value(-1, 0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos < len(src) {
		return nil, d.errAt(p.pos, fmt.Sprintf("unexpected %s after the top-level value", p.describe()))
	}
	d.Value = v
	return d, nil
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
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
	s, _ := p.rawString()
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
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
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

type parser struct {
	d      *Doc
	src    []byte
	pos    int
	opts   Options
	intern map[string]string
	path   []pathStep // the members and elements being parsed, for duplicate pointers

	members []Member // members of the objects being parsed (see object)
	elems   []any    // elements of the arrays being parsed

	cost, budget int64 // estimated bytes of the decoded document, and the most it may take
}

// Estimated costs, in bytes, of decoded values on a 64-bit Go: the
// position record, a boxed string or number, a slice, a map (one group of
// eight slots and its header up to eight members, about twice the members'
// room beyond), an ordered object.
const (
	costNode      = 16
	costBoxed     = 16
	costSlice     = 24
	costElem      = 16
	costSmallMap  = 336
	costMapMember = 64
	costMember    = 32
)

// charge adds n bytes to the document's estimated decoded size and fails
// when it is over the budget.
func (p *parser) charge(n int64) error {
	if p.cost += n; p.cost > p.budget {
		return p.fail(fmt.Sprintf("document too dense: its decoded values would take more than %d MB, over %d times its %d bytes (real artifacts take 3 to 7 times); nullius refuses it rather than run out of memory",
			p.budget>>20, DensityFactor, len(p.src)))
	}
	return nil
}

// pathStep is one level of the value being parsed.
type pathStep struct {
	key   string // member name, in objects
	index int    // element index, in arrays; -1 in objects
}

// pointer renders the current path, for a duplicate member's record.
func (p *parser) pointer() string {
	var b strings.Builder
	for _, s := range p.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(Escape(s.key))
		}
	}
	return b.String()
}

func (p *parser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) describe() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return pyfmt.Str(string(r))
}

func (p *parser) fail(msg string) error { return p.d.errAt(p.pos, msg) }

// value parses one value and records its node; keyOff is the offset of its
// member name (-1 outside objects).
func (p *parser) value(keyOff int, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of input: expected a value (truncated file?)")
	}
	n, before := len(p.d.nodes), cap(p.d.nodes)
	p.d.nodes = append(p.d.nodes, node{start: int32(p.pos), key: int32(keyOff)})
	if err := p.charge(int64(cap(p.d.nodes)-before) * costNode); err != nil {
		return nil, err
	}
	v, err := p.value1(depth)
	if err != nil {
		return nil, err
	}
	p.d.nodes[n].end = int32(p.pos)
	p.d.nodes[n].next = int32(len(p.d.nodes))
	return v, nil
}

func (p *parser) value1(depth int) (any, error) {
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	case p.lit("null"):
		return nil, nil
	case p.has("NaN"), p.has("Infinity"), p.has("-Infinity"):
		return nil, p.fail("NaN and Infinity are not valid JSON numbers")
	default:
		return nil, p.fail(fmt.Sprintf("unexpected %s: expected a value", p.describe()))
	}
}

func (p *parser) has(s string) bool {
	return strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(s))]), s)
}

func (p *parser) lit(s string) bool {
	if p.has(s) {
		p.pos += len(s)
		return true
	}
	return false
}

// repeated reports whether key is already a member of the object whose
// members so far are list; seen indexes the names of a large object.
func repeated(list []Member, seen *map[string]bool, key string) bool {
	if *seen != nil {
		if (*seen)[key] {
			return true
		}
		(*seen)[key] = true
		return false
	}
	for _, x := range list {
		if x.Key == key {
			return true
		}
	}
	if len(list) >= smallContainer {
		*seen = make(map[string]bool, 2*len(list))
		for _, x := range list {
			(*seen)[x.Key] = true
		}
		(*seen)[key] = true
	}
	return false
}

// The members and elements of the containers being parsed sit on shared
// stacks (p.members, p.elems) until their container closes; the value is
// then built at its exact size, so no per-container slice grows by
// doubling and lingers half empty.

func (p *parser) object(depth int) (any, error) {
	p.pos++ // {
	base := len(p.members)
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		if err := p.chargeObject(0); err != nil {
			return nil, err
		}
		p.pos++
		return p.build(base), nil
	}
	p.path = append(p.path, pathStep{index: -1})
	defer func() { p.path = p.path[:len(p.path)-1] }()
	var seen map[string]bool
	for {
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			if p.pos >= len(p.src) {
				return nil, p.fail("unexpected end of input inside an object (truncated file?)")
			}
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected a quoted member name", p.describe()))
		}
		keyOff := p.pos
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		p.path[len(p.path)-1].key = key
		if repeated(p.members[base:], &seen, key) {
			p.d.Duplicates = append(p.d.Duplicates, p.pointer())
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected ':' after member name %q", p.describe(), key))
		}
		p.pos++
		p.ws()
		v, err := p.value(keyOff, depth+1)
		if err != nil {
			return nil, err
		}
		before := cap(p.members)
		p.members = append(p.members, Member{key, v})
		if err := p.charge(int64(cap(p.members)-before) * costMember); err != nil { // the stack's growth
			return nil, err
		}
		p.ws()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of input inside an object (truncated file?)")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			if err := p.chargeObject(len(p.members) - base); err != nil {
				return nil, err
			}
			p.pos++
			return p.build(base), nil
		default:
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected ',' or '}'", p.describe()))
		}
	}
}

// chargeObject charges an object of n members: its map (the plain
// model, which a validator of the ordered model may also build, see Plain)
// and, with Options.Ordered, its member slice. (Each member was charged
// the growth of the members' stack it caused: the stack's high-water mark
// stays allocated for the whole parse.)
func (p *parser) chargeObject(n int) error {
	c := int64(costSmallMap)
	if n > 8 {
		c = int64(n) * costMapMember
	}
	if p.opts.Ordered {
		c += costSlice + int64(n)*costMember
	}
	return p.charge(c)
}

// build makes the object whose members are p.members[base:] in the model
// the options ask for, and pops them.
func (p *parser) build(base int) any {
	list := p.members[base:]
	defer func() {
		clear(list)
		p.members = p.members[:base]
	}()
	if p.opts.Ordered {
		return append(make(Object, 0, len(list)), list...)
	}
	m := make(map[string]any, len(list))
	for _, x := range list {
		m[x.Key] = x.Value
	}
	return m
}

func (p *parser) array(depth int) (any, error) {
	p.pos++ // [
	base := len(p.elems)
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return []any{}, nil
	}
	p.path = append(p.path, pathStep{})
	defer func() { p.path = p.path[:len(p.path)-1] }()
	for i := 0; ; i++ {
		p.path[len(p.path)-1].index = i
		p.ws()
		v, err := p.value(-1, depth+1)
		if err != nil {
			return nil, err
		}
		before := cap(p.elems)
		p.elems = append(p.elems, v)
		if err := p.charge(int64(cap(p.elems)-before) * costElem); err != nil { // the stack's growth
			return nil, err
		}
		p.ws()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of input inside an array (truncated file?)")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			if err := p.charge(costSlice + int64(len(p.elems)-base)*costElem); err != nil {
				return nil, err
			}
			p.pos++
			list := p.elems[base:]
			arr := append(make([]any, 0, len(list)), list...)
			clear(list)
			p.elems = p.elems[:base]
			return arr, nil
		default:
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected ',' or ']'", p.describe()))
		}
	}
}

// key decodes a member name, storing each distinct name once.
func (p *parser) key() (string, error) {
	start := p.pos
	s, err := p.rawString()
	if err != nil {
		return "", err
	}
	raw := p.src[start+1 : p.pos-1]
	if k, ok := p.intern[string(raw)]; ok {
		return k, nil
	}
	if len(p.intern) < maxInterned {
		p.intern[string(raw)] = s
	}
	if err := p.charge(int64(len(s)+7) &^ 7); err != nil {
		return "", err
	}
	return s, nil
}

func (p *parser) str() (any, error) {
	s, err := p.rawString()
	if err != nil {
		return nil, err
	}
	if err := p.charge(costBoxed + int64(len(s)+7)&^7); err != nil {
		return nil, err
	}
	return s, nil
}

// rawString decodes the string token at p.pos (its opening quote).
func (p *parser) rawString() (string, error) {
	p.pos++ // opening quote
	var b []byte
	start := p.pos
	for {
		if p.pos >= len(p.src) {
			return "", p.fail("unterminated string (truncated file?)")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			var s string
			if b == nil {
				s = string(p.src[start:p.pos])
			} else {
				s = string(append(b, p.src[start:p.pos]...))
			}
			p.pos++
			return s, nil
		case c < 0x20:
			return "", p.fail(fmt.Sprintf("control character %#02x in string; escape it", c))
		case c == '\\':
			b = append(b, p.src[start:p.pos]...)
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			b = utf8.AppendRune(b, r)
			start = p.pos
		default:
			p.pos++
		}
	}
}

// escape decodes one escape sequence at p.pos (the backslash).
func (p *parser) escape() (rune, error) {
	if p.pos+1 >= len(p.src) {
		return 0, p.fail("unterminated escape sequence")
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		at := p.pos - 2
		r, err := p.hex4()
		if err != nil {
			return 0, err
		}
		if utf16.IsSurrogate(r) && p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
			save := p.pos
			p.pos += 2
			r2, err := p.hex4()
			if err == nil {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return dec, nil
				}
			}
			p.pos = save
		}
		if utf16.IsSurrogate(r) {
			if p.opts.StrictSurrogates {
				return 0, p.d.errAt(at, fmt.Sprintf("lone surrogate \\u%04x; a string must hold whole characters", r))
			}
			return utf8.RuneError, nil // lone surrogate, as encoding/json does
		}
		return r, nil
	}
	p.pos -= 2
	return 0, p.fail(fmt.Sprintf("invalid escape sequence \\%c", c))
}

func (p *parser) hex4() (rune, error) {
	if p.pos+4 > len(p.src) {
		return 0, p.fail("truncated \\u escape")
	}
	v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.fail(fmt.Sprintf("invalid \\u escape %q", p.src[p.pos:p.pos+4]))
	}
	p.pos += 4
	return rune(v), nil
}

func (p *parser) number() (any, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.src[p.pos] == '-' {
		p.pos++
		if p.has("Infinity") {
			p.pos = start
			return nil, p.fail("NaN and Infinity are not valid JSON numbers")
		}
	}
	intStart := p.pos
	if n := digits(); n == 0 {
		return nil, p.fail("invalid number: expected a digit")
	} else if n > 1 && p.src[intStart] == '0' {
		p.pos = intStart
		return nil, p.fail("invalid number: leading zeros are not allowed")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail("invalid number: expected a digit after '.'")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("invalid number: expected a digit in the exponent")
		}
	}
	if err := p.charge(costBoxed + int64(p.pos-start+7)&^7); err != nil {
		return nil, err
	}
	return json.Number(p.src[start:p.pos]), nil
}
