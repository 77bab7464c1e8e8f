package jsonloc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The decoded form of a document (its positions and values, and with
// Options.Ordered the plain view a schema validator makes of it, see
// Plain) may take at most DensityFactor times its size plus DensitySlack
// bytes. Decoded values cost far more than their text when they are tiny
// (`0,` is 2 bytes of JSON and 32 of Go: a position and a slot of its
// array; `{"a":1}` is 7 bytes and about 400), so a document made of them
// is refused while it is parsed, before the memory is spent: a command
// then holds the document's bytes and at most this much of values, which
// keeps its peak within 10 times the input (issue 13). Real artifacts
// decode to 2 to 4 times their size (up to 5 when written without
// whitespace); the factor leaves them room.
const (
	DensityFactor = 6
	DensitySlack  = 8 << 20
)

// Budget is the most the decoded form of a document of size bytes may take.
func Budget(size int) int64 { return DensityFactor*int64(size) + DensitySlack }

// Cost returns the bytes the parse charged for the document's decoded
// form: an upper bound of what it allocated, and at most Budget(len(Src)).
func (d *Doc) Cost() int64 { return d.cost }

// Depth returns the nesting of the document's deepest value, scalars
// included: 0 for a top-level scalar or empty container, 1 for [1], at most
// MaxDepth. A caller that must agree with encoding/json, which refuses
// more than 10000 nested containers, can tell from it when the two may
// disagree.
func (d *Doc) Depth() int { return d.depth }

// Bytes charged per allocation, on a 64-bit Go (measured with Go 1.26: a
// map of up to eight members takes one 336-byte group and its header, a
// larger one up to 88 bytes a member, at its worst load).
const (
	costNode      = 16 // a position record
	costBoxed     = 16 // the header of a string boxed in an interface
	costSliceHead = 24 // the header of a slice boxed in an interface
	costElem      = 16 // an element of []any
	costMember    = 32 // a Member of an Object
	costMapHead   = 48
	costSmallMap  = 336
	costMapMember = 88
	costShared    = 64 // a slot of a sharing table, besides its key's bytes
	costStep      = 32 // a level of the path being built
)

// allocSize bounds what Go's allocator takes for an object of n bytes: up
// to 16 bytes it rounds to 8, up to 32 KiB to a size class at most a
// seventh larger, beyond that to 8 KiB pages.
func allocSize(n int64) int64 {
	switch {
	case n <= 0:
		return 0
	case n <= 16:
		return (n + 7) &^ 7
	case n <= 32<<10:
		return n + n/7 + 16
	}
	return n + 8<<10
}

// mapCost bounds the bytes of a map[string]any (or a set of strings) made
// for n members.
func mapCost(n int) int64 {
	if n == 0 {
		return costMapHead
	}
	if n <= 8 {
		return costSmallMap
	}
	return costMapHead + int64(n)*costMapMember
}

// guard keeps the running estimate of the decoded form against the budget.
type guard struct {
	d            *Doc
	cost, budget int64
}

// charge adds n bytes to the estimate, refusing the document at offset off
// when the estimate passes the budget.
func (g *guard) charge(n int64, off int) error {
	if g.cost += n; g.cost > g.budget {
		return g.refuse(off)
	}
	return nil
}

func (g *guard) refuse(off int) error {
	return g.d.errAt(off, fmt.Sprintf("document too dense: its decoded values would take more than %d MB, over %d times its %d bytes (real artifacts take 2 to 5 times); nullius refuses it rather than run out of memory",
		g.budget>>20, DensityFactor, len(g.d.Src)))
}

// maxInterned bounds each table of repeated text stored once (member
// names, and short scalars).
const maxInterned = 1 << 14

// maxSharedScalar is the longest scalar token (quotes included) made once
// and shared by every value that repeats it: short strings ("host",
// "pass"), small numbers (2026, 0) and enumerations repeat in real
// artifacts, and a document of them costs a slot each, not a boxed copy.
const maxSharedScalar = 24

// Shared empty containers: an empty array or ordered object takes no
// memory of its own (appending to one makes a new slice; an empty map is
// not shared, since a map is changed in place).
var (
	emptyArray  any = []any{}
	emptyObject any = Object{}
)

// builder makes the decoded values from the positions (the third pass).
type builder struct {
	d       *Doc
	src     []byte
	nodes   []node
	opts    Options
	g       *guard
	keys    map[string]string // member names by their raw text
	scalars map[string]any    // short scalars by their raw text
	path    []pathStep        // the value being built, for duplicates' pointers
}

// pathStep is one level of the value being built.
type pathStep struct {
	key   string // member name, in objects
	index int    // element index, in arrays; -1 in objects
}

func (b *builder) value(n int32) (any, error) {
	switch b.src[b.nodes[n].start] {
	case '{':
		return b.object(n)
	case '[':
		return b.array(n)
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	}
	return b.scalar(b.nodes[n])
}

// members counts the members of container n.
func (b *builder) members(n int32) int {
	k := 0
	for c := n + 1; c < b.nodes[n].next; c = b.nodes[c].next {
		k++
	}
	return k
}

// scalar makes a string or number, shared when it is short.
func (b *builder) scalar(nd node) (any, error) {
	raw := b.src[nd.start:nd.end]
	share := len(raw) <= maxSharedScalar
	if share {
		if v, ok := b.scalars[string(raw)]; ok {
			return v, nil
		}
	}
	var v any
	if raw[0] == '"' {
		// The decoded text is never longer than the token's inside.
		if err := b.g.charge(costBoxed+allocSize(int64(len(raw)-2)), int(nd.start)); err != nil {
			return nil, err
		}
		p := &parser{d: b.d, src: b.src, pos: int(nd.start), opts: b.opts}
		s, _ := p.str(true)
		v = s
	} else {
		if err := b.g.charge(costBoxed+allocSize(int64(len(raw))), int(nd.start)); err != nil {
			return nil, err
		}
		v = json.Number(raw)
	}
	if share && len(b.scalars) < maxInterned {
		if err := b.g.charge(costShared+allocSize(int64(len(raw))), int(nd.start)); err != nil {
			return nil, err
		}
		b.scalars[string(raw)] = v
	}
	return v, nil
}

// key returns the member name whose opening quote is at off, each distinct
// name made once.
func (b *builder) key(off int32) (string, error) {
	p := &parser{d: b.d, src: b.src, pos: int(off), opts: b.opts}
	p.str(false)
	raw := b.src[off+1 : p.pos-1]
	if k, ok := b.keys[string(raw)]; ok {
		return k, nil
	}
	if err := b.g.charge(allocSize(int64(len(raw))), int(off)); err != nil {
		return "", err
	}
	p.pos = int(off)
	k, _ := p.str(true)
	if len(b.keys) < maxInterned {
		if err := b.g.charge(costShared+allocSize(int64(len(raw))), int(off)); err != nil {
			return "", err
		}
		b.keys[string(raw)] = k
	}
	return k, nil
}

func (b *builder) array(n int32) (any, error) {
	k := b.members(n)
	if k == 0 {
		if b.opts.Ordered { // Plain's copy
			return emptyArray, b.g.charge(costSliceHead, int(b.nodes[n].start))
		}
		return emptyArray, nil
	}
	c := costSliceHead + allocSize(int64(k)*costElem)
	if b.opts.Ordered {
		c *= 2 // Plain's copy
	}
	if err := b.g.charge(c, int(b.nodes[n].start)); err != nil {
		return nil, err
	}
	arr := make([]any, k)
	b.path = append(b.path, pathStep{})
	defer func() { b.path = b.path[:len(b.path)-1] }()
	i := 0
	for c := n + 1; c < b.nodes[n].next; c = b.nodes[c].next {
		b.path[len(b.path)-1].index = i
		v, err := b.value(c)
		if err != nil {
			return nil, err
		}
		arr[i] = v
		i++
	}
	return arr, nil
}

func (b *builder) object(n int32) (any, error) {
	k := b.members(n)
	c := mapCost(k) // the plain model, or with Options.Ordered the plain view
	if b.opts.Ordered && k > 0 {
		c += costSliceHead + allocSize(int64(k)*costMember)
		if k > smallContainer { // the set of names that finds repeated ones
			c += mapCost(k)
		}
	}
	if err := b.g.charge(c, int(b.nodes[n].start)); err != nil {
		return nil, err
	}
	if b.opts.Ordered && k == 0 {
		return emptyObject, nil
	}
	b.path = append(b.path, pathStep{index: -1})
	defer func() { b.path = b.path[:len(b.path)-1] }()
	if b.opts.Ordered {
		obj := make(Object, 0, k)
		var seen map[string]struct{}
		if k > smallContainer {
			seen = make(map[string]struct{}, k)
		}
		for c := n + 1; c < b.nodes[n].next; c = b.nodes[c].next {
			key, err := b.key(b.nodes[c].key)
			if err != nil {
				return nil, err
			}
			dup := false
			if seen != nil {
				_, dup = seen[key]
				seen[key] = struct{}{}
			} else {
				for _, m := range obj {
					if m.Key == key {
						dup = true
						break
					}
				}
			}
			v, err := b.member(c, key, dup)
			if err != nil {
				return nil, err
			}
			obj = append(obj, Member{key, v})
		}
		return obj, nil
	}
	m := make(map[string]any, k)
	for c := n + 1; c < b.nodes[n].next; c = b.nodes[c].next {
		key, err := b.key(b.nodes[c].key)
		if err != nil {
			return nil, err
		}
		_, dup := m[key]
		v, err := b.member(c, key, dup)
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
	return m, nil
}

// member builds the value of member key (node c), first recording its
// pointer when the name repeats an earlier one of its object.
func (b *builder) member(c int32, key string, dup bool) (any, error) {
	b.path[len(b.path)-1].key = key
	if dup {
		if err := b.duplicate(int(b.nodes[c].key)); err != nil {
			return nil, err
		}
	}
	return b.value(c)
}

// duplicate records the pointer of the member being built. A pointer is
// as long as the path to it, so it is charged before it is made.
func (b *builder) duplicate(off int) error {
	size := 0
	for _, s := range b.path {
		size++
		if s.index >= 0 {
			size += digits(s.index)
		} else {
			size += len(s.key) + strings.Count(s.key, "~") + strings.Count(s.key, "/")
		}
	}
	c := allocSize(int64(size))
	if len(b.d.Duplicates) == cap(b.d.Duplicates) {
		c += allocSize(int64(2*cap(b.d.Duplicates)+4) * costBoxed)
	}
	if err := b.g.charge(c, off); err != nil {
		return err
	}
	var ptr strings.Builder
	ptr.Grow(size)
	for _, s := range b.path {
		ptr.WriteByte('/')
		if s.index >= 0 {
			ptr.WriteString(strconv.Itoa(s.index))
		} else {
			ptr.WriteString(Escape(s.key))
		}
	}
	b.d.Duplicates = append(b.d.Duplicates, ptr.String())
	return nil
}

// digits is the length of the decimal form of n >= 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
