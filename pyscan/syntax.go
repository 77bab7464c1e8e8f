package pyscan

import (
	"bytes"
	"fmt"
	"strconv"
)

// Syntax errors. tree-sitter reports ERROR and MISSING nodes; the checks
// here and in the builder add what tree-sitter-python accepts but CPython's
// parser rejects (Python 2 statements, `except E, e`, `<>`, `1L`, `0777`,
// empty blocks, inconsistent indentation, `x := 1` as a statement,
// non-default after default parameters, bare `*`, `del *a`, unparenthesized
// generator arguments, keywords used as names, argument order, literal
// decoding errors, invisible characters outside strings and comments).
//
// Known gaps (tree-sitter accepts, CPython rejects, nullius does not catch;
// docs/deviations.md lists them and cpython_test.go pins them):
//   - `(*a) = 1` ("cannot use starred expression here").
//   - errors CPython raises only when compiling, which ast.parse (and so the
//     reference) accepts too: `return`/`yield` outside a function, `nonlocal`
//     at module level, duplicate parameter names. A repeated keyword
//     argument, also a compile-time error, is reported.
//   - non-UTF-8 PEP 263 encodings are refused, not decoded.

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
