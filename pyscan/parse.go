package pyscan

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
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
func (p *Parser) Parse(path string, src []byte) (*Module, error) {
	if p.closed {
		return nil, errors.New("pyscan: Parse on a closed Parser")
	}
	s := string(src) // one copy: every Text and Str of the model slices it
	m := &Module{Path: path, Src: src}
	b := &builder{src: s, m: m}
	b.m.Root = &Scope{Kind: ModuleScope, Bindings: map[string][]*Binding{}}
	b.m.Scopes = []*Scope{b.m.Root}
	m.Root.Span = Span{Start: Pos{0, 1, 1}, End: posAt(src, len(src))}

	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		b.base = 3 // the BOM is accepted and skipped; positions keep counting it
	}
	body := src[b.base:]
	if msg, off := checkEncoding(body); msg != "" {
		at := posAt(src, off+int(b.base))
		m.Syntax = []SyntaxError{{Span: Span{Start: at, End: posAt(src, min(len(src), at.Offset+1))}, Msg: msg}}
		return m, nil
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
	b.nodes = nodes
	b.scan()
	b.checkInvisible(body)
	if len(nodes) > 0 {
		b.block(0, m.Root)
	}
	b.finish()
	return m, nil
}

// ParseSource parses one module with a throwaway Parser.
func ParseSource(path string, src []byte) (*Module, error) {
	p := NewParser()
	defer p.Close()
	return p.Parse(path, src)
}

// checkEncoding returns the message and offset of the first encoding
// problem CPython would reject before parsing: invalid UTF-8 or a NUL byte.
func checkEncoding(src []byte) (string, int) {
	if !utf8.Valid(src) {
		for off := 0; off < len(src); {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				return fmt.Sprintf("file is not valid UTF-8: invalid byte 0x%02x", src[off]), off
			}
			off += n
		}
	}
	if k := bytes.IndexByte(src, 0); k >= 0 {
		return "source contains a NUL byte", k
	}
	return "", 0
}

// posAt computes the position of byte offset off by counting lines; used
// only off the hot path.
func posAt(src []byte, off int) Pos {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(src[:off], '\n') + 1) + 1
	return Pos{Offset: off, Line: line, Col: col}
}

// scan makes one linear pass over the flat tree for comments and
// tree-sitter's ERROR and MISSING nodes.
func (b *builder) scan() {
	t := sym
	for i := 0; i < len(b.nodes); i++ {
		n := &b.nodes[i]
		switch {
		case n.isError():
			b.syntax(i, b.errorMsg(i))
			i = b.end(i) - 1 // one report per ERROR subtree
		case n.missing():
			name := t.name(n.sym)
			if n.named() {
				b.syntax(i, "missing "+name)
			} else {
				b.syntax(i, fmt.Sprintf("missing %q", name))
			}
		case n.sym == t.comment:
			b.m.Comments = append(b.m.Comments, Comment{Span: b.span(i), Text: b.text(i)})
		case n.sym == t.identifier && n.end-n.start <= 5 && reserved[b.text(i)]:
			b.syntax(i, "invalid syntax: "+strconv.Quote(b.text(i))+" is a keyword and cannot be used as a name")
		}
	}
}

// reserved are the keywords tree-sitter's grammar lets through as names.
var reserved = map[string]bool{"None": true, "True": true, "False": true, "async": true, "await": true}

// invisibles are the characters tree-sitter skips as whitespace but CPython
// rejects outside strings and comments.
var invisibles = []struct {
	seq  string
	name string
}{{"\ufeff", "U+FEFF"}, {"\u200b", "U+200B"}, {"\u2060", "U+2060"}}

// checkInvisible reports the invisible characters tree-sitter treated as
// whitespace. It is rare, so a plain scan over the nodes is enough.
func (b *builder) checkInvisible(body []byte) {
	for _, inv := range invisibles {
		for off := 0; ; {
			k := bytes.Index(body[off:], []byte(inv.seq))
			if k < 0 {
				break
			}
			at := uint32(off + k)
			off += k + len(inv.seq)
			if !b.inStringOrComment(at) {
				p := posAt(b.m.Src, int(at+b.base))
				q := posAt(b.m.Src, int(at+b.base)+len(inv.seq))
				b.m.Syntax = append(b.m.Syntax, SyntaxError{Span: Span{Start: p, End: q}, Msg: "invalid non-printable character " + inv.name})
			}
		}
	}
}

func (b *builder) inStringOrComment(off uint32) bool {
	for i := range b.nodes {
		n := &b.nodes[i]
		if (n.sym == sym.str || n.sym == sym.comment) && n.start <= off && off < n.end {
			return true
		}
	}
	return false
}

// errorMsg describes an ERROR node by the first token it swallowed.
func (b *builder) errorMsg(i int) string {
	txt := b.text(i)
	if len(txt) == 0 {
		return "invalid syntax"
	}
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.nodes[c].size == 1 && b.nodes[c].flags&flagExtra == 0 && b.nodes[c].end > b.nodes[c].start {
			if tok := b.text(c); tok != txt {
				return "invalid syntax near " + quoteShort(txt) + " (unexpected " + quoteShort(tok) + ")"
			}
			break
		}
	}
	return "invalid syntax near " + quoteShort(txt)
}

func (b *builder) syntax(i int, msg string) {
	b.m.Syntax = append(b.m.Syntax, SyntaxError{Span: b.span(i), Msg: msg})
}

// finish sorts the model into source order and finds `__all__`.
func (b *builder) finish() {
	m := b.m
	byStart := func(x, y Span) int { return x.Start.Offset - y.Start.Offset }
	slices.SortStableFunc(m.Syntax, func(x, y SyntaxError) int { return byStart(x.Span, y.Span) })
	slices.SortStableFunc(m.Calls, func(x, y *Call) int { return byStart(x.Span, y.Span) })
	slices.SortStableFunc(m.Names, func(x, y *NameRef) int { return byStart(x.Span, y.Span) })
	slices.SortStableFunc(m.Attrs, func(x, y *AttrRef) int { return byStart(x.Expr.Span, y.Expr.Span) })
	slices.SortStableFunc(m.Assigns, func(x, y *Assign) int { return byStart(x.Span, y.Span) })
	slices.SortStableFunc(m.Defs, func(x, y *Def) int { return byStart(x.Span, y.Span) })
	slices.SortStableFunc(m.Imports, func(x, y *Import) int { return byStart(x.Span, y.Span) })
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
			for _, el := range a.Value.Elems {
				if el == nil || el.Kind != ExprString {
					d.Literal = false
					continue
				}
				d.Names = append(d.Names, el.Str)
			}
		} else if a.Value != nil {
			for _, el := range a.Value.Elems {
				if el != nil && el.Kind == ExprString {
					d.Names = append(d.Names, el.Str)
				}
			}
		}
		m.All = d
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
