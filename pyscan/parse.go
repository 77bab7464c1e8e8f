package pyscan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Parser parses Python modules. A Parser is not safe for concurrent use: use
// one per goroutine, and Close it when done.
type Parser struct {
	fp     *flatParser
	closed bool
}

// NewParser returns a ready parser. The C parser is created on first use, so
// a Parser that never parses costs nothing.
func NewParser() *Parser { return &Parser{} }

// Close frees the parser's C resources. It is safe to call more than once.
func (p *Parser) Close() {
	if p.fp != nil {
		p.fp.close()
		p.fp = nil
	}
	p.closed = true
}

// Parse builds the model of one module. Syntax problems (including invalid
// UTF-8) are reported in Module.Syntax, not as an error; the error is for
// internal failures only.
//
// Parse takes ownership of src: the Module keeps it (Module.Src) and every
// string of the model (Text, Str, Name, ...) shares its bytes instead of a
// copy, so the caller must never write to src after the call, nor reuse its
// array for other data. Every caller passes a buffer it read or built for
// this parse (readlimit.ReadFile, an LSP document's text, which edits
// replace rather than change, fix.Apply's output).
func (p *Parser) Parse(path string, src []byte) (*Module, error) {
	if p.closed {
		return nil, errors.New("pyscan: Parse on a closed Parser")
	}
	if len(src) >= maxSource {
		return nil, errTooLarge
	}
	var b builder // on the stack: only the Module outlives the parse
	body := b.start(path, src)
	if b.m.Syntax != nil { // refused before parsing
		return b.m, nil
	}
	if p.fp == nil {
		fp, err := newFlatParser()
		if err != nil {
			return nil, err
		}
		p.fp = fp
	}
	nodes, err := p.fp.parse(body)
	if err != nil {
		return nil, fmt.Errorf("pyscan: %s: %w", path, err)
	}
	sc := p.fp.scanned()
	b.build(nodes, body, &sc)
	return b.m, nil
}

// moduleRoot is a Module with its module scope and room for its first
// scopes, for the lists of a small module and for the first values of
// every module's smaller slabs (see initSlabs), allocated at once: one
// allocation, not eighteen, for most modules of a small package.
type moduleRoot struct {
	m       Module
	root    Scope
	scopes  [4]*Scope
	names   [48]*NameRef
	calls   [16]*Call
	imports [8]*Import
	assigns [12]*Assign
	defs    [6]*Def
	attrs   [8]*AttrRef

	nameRoom        [28]NameRef
	bindingRoom     [20]Binding
	keywordRoom     [14]Keyword
	callRoom        [10]Call
	assignRoom      [6]Assign
	importRoom      [8]Import
	exprListRoom    [28]*Expr
	keywordListRoom [14]*Keyword
	bindingListRoom [20]*Binding
}

// start begins the model of src and returns the body to parse (src
// without its BOM). The module already has its Syntax set when src is
// refused before parsing (invalid UTF-8, a NUL byte, nesting prescan
// rejects).
func (b *builder) start(path string, src []byte) []byte {
	// No copy: every Text and Str of the model slices src itself, which
	// the caller gives up (see Parse). Saves one byte per input byte.
	s := unsafe.String(unsafe.SliceData(src), len(src))
	mr := &moduleRoot{}
	m := &mr.m
	m.Path, m.Src = path, src
	*b = builder{t: symbols.Get(), src: s, m: m, mr: mr}
	m.Root = &mr.root
	m.Root.Kind = ModuleScope // Bindings made below or by initSlabs, sized
	m.Scopes = append(mr.scopes[:0], m.Root)
	m.Root.Span.Start = Pos{0, 1, 1} // End: set by build (or below, when refused)

	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		b.base = 3 // the BOM is accepted and skipped; positions keep counting it
	}
	body := src[b.base:]
	msg, off, ascii := checkEncoding(body)
	b.ascii, b.cr = ascii, bytes.IndexByte(body, '\r') >= 0
	if msg != "" {
		at := posAt(src, off+int(b.base))
		m.Syntax = []SyntaxError{{Span: Span{Start: at, End: posAt(src, min(len(src), int(at.Offset)+1))}, Msg: msg}}
		m.Root.Bindings = map[string][]*Binding{}
		m.Root.Span.End = posAt(src, len(src))
		return body
	}
	if msg, off := prescan(body); msg != "" {
		at := posAt(src, off+int(b.base))
		m.Syntax = []SyntaxError{{Span: Span{Start: at, End: posAt(src, int(at.Offset)+1)}, Msg: msg}}
		m.Root.Bindings = map[string][]*Binding{}
		m.Root.Span.End = posAt(src, len(src))
	}
	return body
}

// endPos is posAt(src, len(src)) read from the flat tree when its root
// ends where the body does (tree-sitter counted the rows and columns
// already), instead of counting every line of the module again.
func (b *builder) endPos(nodes []node, body []byte) Pos {
	if len(nodes) == 0 || nodes[0].end != uint32(len(body)) {
		return posAt(b.m.Src, len(b.m.Src))
	}
	n := &nodes[0]
	col := n.endCol + 1
	if n.endRow == 0 {
		col += b.base // the skipped BOM is on the first line
	}
	return Pos{Offset: int32(len(b.m.Src)), Line: int32(n.endRow) + 1, Col: int32(col)}
}

// build makes the model from the flat tree of body, with what the
// flattening counted of it (sc).
func (b *builder) build(nodes []node, body []byte, sc *treeScan) {
	b.nodes = nodes
	b.m.Root.Span.End = b.endPos(nodes, body)
	b.scan(sc)
	b.checkInvisible(body)
	if len(nodes) > 0 {
		b.block(0, b.m.Root)
	}
	b.finish()
}

// ParseTree parses src with tree-sitter and flattens the tree (one cgo
// call) without building the model, and returns the node count. It is the
// floor lint's throughput is measured against (make bench's parse-only
// figure): everything Parse adds on top is nullius's own work.
func (p *Parser) ParseTree(src []byte) (int, error) {
	if p.closed {
		return 0, errors.New("pyscan: Parse on a closed Parser")
	}
	if p.fp == nil {
		fp, err := newFlatParser()
		if err != nil {
			return 0, err
		}
		p.fp = fp
	}
	nodes, err := p.fp.parse(src)
	return len(nodes), err
}

// ParseSource parses one module with a throwaway Parser.
func ParseSource(path string, src []byte) (*Module, error) {
	p := NewParser()
	defer p.Close()
	return p.Parse(path, src)
}

// checkEncoding returns the message and offset of the first encoding
// problem CPython would reject before parsing: invalid UTF-8 or a NUL byte.
// It also reports whether src is all ASCII (found on the way: utf8.Valid
// runs only past the ASCII prefix), which spares the builder the fold of
// every identifier and the search for invisible characters.
func checkEncoding(src []byte) (msg string, off int, ascii bool) {
	n := asciiPrefix(src)
	ascii = n == len(src)
	if !ascii && !utf8.Valid(src[n:]) {
		for at := n; at < len(src); {
			r, size := utf8.DecodeRune(src[at:])
			if r == utf8.RuneError && size <= 1 {
				msg = fmt.Sprintf("file is not valid UTF-8: invalid byte 0x%02x", src[at])
				if enc := codingDecl(src); enc != "" {
					msg += " (the file declares coding " + pyfmt.Str(enc) + "; nullius reads UTF-8 only: re-encode the file)"
				}
				return msg, at, ascii
			}
			at += size
		}
	}
	if k := bytes.IndexByte(src, 0); k >= 0 {
		return "source contains a NUL byte", k, ascii
	}
	return "", 0, ascii
}

// asciiPrefix returns the length of the ASCII prefix of src, 32 bytes at
// a time (as fast as utf8.Valid's own ASCII path: the three-index slice
// lets the compiler drop the bounds checks of the four loads).
func asciiPrefix(src []byte) int {
	i := 0
	for ; len(src)-i >= 32; i += 32 {
		s := src[i : i+32 : i+32]
		if (binary.LittleEndian.Uint64(s[0:])|binary.LittleEndian.Uint64(s[8:])|
			binary.LittleEndian.Uint64(s[16:])|binary.LittleEndian.Uint64(s[24:]))&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(src) && src[i] < utf8.RuneSelf; i++ {
	}
	return i
}

// codingDecl returns the PEP 263 encoding declared on the first two lines
// (`# -*- coding: latin-1 -*-`), or "".
func codingDecl(src []byte) string {
	for i, line := range bytes.SplitN(src, []byte("\n"), 3) {
		if i == 2 {
			break
		}
		t := bytes.TrimLeft(line, " \t\f")
		if len(t) == 0 || t[0] != '#' {
			continue
		}
		k := bytes.Index(t, []byte("coding"))
		if k < 0 || k+6 >= len(t) || (t[k+6] != ':' && t[k+6] != '=') {
			continue
		}
		rest := bytes.TrimLeft(t[k+7:], " \t")
		end := 0
		for end < len(rest) && (rest[end] == '-' || rest[end] == '_' || rest[end] == '.' ||
			rest[end] >= '0' && rest[end] <= '9' || rest[end] >= 'a' && rest[end] <= 'z' || rest[end] >= 'A' && rest[end] <= 'Z') {
			end++
		}
		return string(rest[:end])
	}
	return ""
}

// posAt computes the position of byte offset off by counting lines; used
// only off the hot path.
func posAt(src []byte, off int) Pos {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return Pos{Offset: int32(off), Line: int32(line), Col: int32(col)}
}

// presized returns a list with room for the string elements of elems, or
// nil when there are none (AllDecl.Names stays nil then, as before).
func presized(elems []*Expr) []string {
	n := 0
	for _, el := range elems {
		if el != nil && el.Kind == ExprString {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return make([]string, 0, n)
}

// finish sorts the model into source order and finds `__all__`.
func (b *builder) finish() {
	m := b.m
	sortByStart(m.Syntax, func(x SyntaxError) int32 { return x.Span.Start.Offset })
	sortByStart(m.Calls, func(x *Call) int32 { return x.Span.Start.Offset })
	sortByStart(m.Names, func(x *NameRef) int32 { return x.Span.Start.Offset })
	sortByStart(m.Attrs, func(x *AttrRef) int32 { return x.Expr.Span.Start.Offset })
	sortByStart(m.Assigns, func(x *Assign) int32 { return x.Span.Start.Offset })
	sortByStart(m.Defs, func(x *Def) int32 { return x.Span.Start.Offset })
	sortByStart(m.Imports, func(x *Import) int32 { return x.Span.Start.Offset })
	for _, bs := range m.Root.Bindings["__all__"] {
		a := bs.Assign
		if bs.Kind != BindAssign || a == nil || a.Scope != m.Root || !bareTarget(a, "__all__") {
			continue
		}
		if m.All != nil && m.All.Span.Start.Offset > a.Span.Start.Offset {
			continue
		}
		d := &AllDecl{Span: a.Span, Value: a.Value}
		if a.Value != nil && !a.Augmented && !a.Walrus &&
			(a.Value.Kind == ExprList || a.Value.Kind == ExprTuple) {
			d.Literal = true
			d.Names = presized(a.Value.Elems())
			for _, el := range a.Value.Elems() {
				if el == nil || el.Kind != ExprString {
					d.Literal = false
					continue
				}
				d.Names = append(d.Names, el.Str)
			}
		} else if a.Value != nil {
			d.Names = presized(a.Value.Elems())
			for _, el := range a.Value.Elems() {
				if el != nil && el.Kind == ExprString {
					d.Names = append(d.Names, el.Str)
				}
			}
		}
		m.All = d
	}
}

// sortByStart sorts xs stably by start offset. The walk makes the lists
// nearly in source order (an assignment's targets come after the names of
// its value, a decorator's call after the def's names...): an insertion
// sort moves the few strays back in one pass over the list, where the
// stable sort's insertion sorts and merges cost several. A list so far out
// of order that the moves exceed a few per element is handed to
// slices.SortStableFunc as it stands (the moves kept equal starts in
// order, so the result is the same).
func sortByStart[T any](xs []T, start func(T) int32) {
	budget := 4*len(xs) + 64
	last := int32(-1) // the greatest start so far (offsets are >= 0): each in-order start is read once
	for i := 0; i < len(xs); i++ {
		s := start(xs[i])
		if s >= last {
			last = s
			continue
		}
		j := i - 1
		for j > 0 && start(xs[j-1]) > s {
			j--
		}
		if budget -= i - j; budget < 0 {
			slices.SortStableFunc(xs, func(x, y T) int { return int(start(x) - start(y)) })
			return
		}
		x := xs[i]
		copy(xs[j+1:i+1], xs[j:i])
		xs[j] = x
	}
}

// bareTarget reports whether name is one of a's targets as a bare name (not
// an element of a tuple target).
func bareTarget(a *Assign, name string) bool {
	for _, t := range a.Targets {
		if t != nil && t.Kind == ExprName && t.Name == name {
			return true
		}
	}
	return false
}
