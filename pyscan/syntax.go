package pyscan

import (
	"bytes"
	"sort"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Syntax errors. tree-sitter reports ERROR and MISSING nodes; the checks
// here and in the builder add what tree-sitter-python accepts but CPython's
// parser rejects (Python 2 statements, `except E, e`, `<>`, `1L`, `0777`,
// empty blocks, inconsistent indentation, `x := 1` as a statement,
// non-default after default parameters, bare `*`, `del *a`, unparenthesized
// generator arguments, keywords used as names, argument order, literal
// decoding errors, invisible characters outside strings and comments).
// prescan.go refuses pathological nesting before tree-sitter runs.
//
// Known gaps (docs/deviations.md lists them and cpython_test.go pins them).
// Rejected although valid (tree-sitter's indentation scanner):
//   - a continuation line inside brackets indented less than the block the
//     bracket opened in (`(bar.` then a dedented `baz)`).
//
// Accepted although CPython rejects them, not caught by nullius:
//   - `(*a) = 1` ("cannot use starred expression here").
//   - errors CPython raises only when compiling, which ast.parse (and so the
//     reference) accepts too: `return`/`yield` outside a function, `nonlocal`
//     at module level, duplicate parameter names. A repeated keyword
//     argument, also a compile-time error, is reported.
//   - non-UTF-8 PEP 263 encodings are refused, not decoded.
//   - escapes inside the format spec of an f-string replacement field
//     (`f'{a:\N}'`) are not checked.

// scan collects the comments and reports tree-sitter's ERROR and MISSING
// nodes, then sizes the slabs from the counts of expression nodes and
// identifiers. The flattening counted them and listed the comments (sc):
// only a flagged tree (an ERROR or MISSING node, a keyword spelled as a
// name, or no memory for the comment list) takes the pass over every node.
func (b *builder) scan(sc *treeScan) {
	if sc.flagged {
		b.initSlabs(b.scanNodes())
		return
	}
	if len(sc.comments) > 0 {
		b.m.Comments = make([]Comment, len(sc.comments))
		for k, i := range sc.comments {
			b.m.Comments[k] = Comment{Span: b.span(int(i)), Text: b.text(int(i))}
		}
	} else if strings.IndexByte(b.src[b.base:], '#') >= 0 {
		b.m.Comments = []Comment{} // as scanNodes leaves it: a '#' only inside strings
	}
	b.initSlabs(sc.exprNodes, sc.idents)
}

// scanNodes makes one linear pass over the flat tree for comments and
// tree-sitter's ERROR and MISSING nodes, and returns the counts of
// expression nodes and identifiers.
func (b *builder) scanNodes() (exprNodes, idents int) {
	t := b.t
	// A comment starts with a '#' and ends its line: the smaller of the two
	// counts (vectorised) bounds the comments, so the list never grows by
	// copying, and a string full of '#' on one line costs nothing.
	if body := b.src[b.base:]; strings.IndexByte(body, '#') >= 0 {
		b.m.Comments = make([]Comment, 0, min(strings.Count(body, "#"), strings.Count(body, "\n")+1))
	}
	for i := 0; i < len(b.nodes); i++ {
		n := &b.nodes[i]
		if t.isExpr(n.sym) {
			exprNodes++
			if n.sym == t.identifier {
				idents++
			}
		}
		switch {
		case n.isError():
			b.syntax(i, b.errorMsg(i))
			i = b.end(i) - 1 // one report per ERROR subtree
		case n.missing():
			name := t.name(n.sym)
			if n.named() {
				b.syntax(i, "missing "+name)
			} else {
				b.syntax(i, "missing "+pyfmt.Str(name))
			}
		case n.sym == t.comment:
			b.m.Comments = append(b.m.Comments, Comment{Span: b.span(i), Text: b.text(i)})
		case n.sym == t.identifier && n.end-n.start <= 5 && reserved(b.text(i)):
			b.syntax(i, "invalid syntax: "+pyfmt.Str(b.text(i))+" is a keyword and cannot be used as a name")
		}
	}
	return exprNodes, idents
}

// reserved reports the keywords tree-sitter's grammar lets through as
// names. A switch, not a map: it runs on every short identifier, and
// compares lengths before hashing anything.
func reserved(name string) bool {
	switch name {
	case "None", "True", "False", "async", "await":
		return true
	}
	return false
}

// invisibles are the characters tree-sitter skips as whitespace but CPython
// rejects outside strings and comments.
var invisibles = []struct {
	seq  string
	name string
}{{"\ufeff", "U+FEFF"}, {"\u200b", "U+200B"}, {"\u2060", "U+2060"}}

// checkInvisible reports the invisible characters tree-sitter treated as
// whitespace. It is rare, so a plain scan over the nodes is enough.
func (b *builder) checkInvisible(body []byte) {
	if b.ascii {
		return // every invisible character is beyond ASCII
	}
	first, firstLen, name := -1, 0, ""
	var spans [][2]uint32
	for _, inv := range invisibles {
		for off := 0; ; {
			k := bytes.Index(body[off:], []byte(inv.seq))
			if k < 0 || (first >= 0 && off+k > first) {
				break // CPython stops at the first one too
			}
			at := off + k
			off = at + len(inv.seq)
			if spans == nil {
				spans = b.literalSpans()
			}
			if !inSpans(spans, uint32(at)) {
				first, firstLen, name = at, len(inv.seq), inv.name
				break
			}
		}
	}
	if first >= 0 {
		at := first + int(b.base)
		b.m.Syntax = append(b.m.Syntax, SyntaxError{
			Span: Span{Start: posAt(b.m.Src, at), End: posAt(b.m.Src, at+firstLen)},
			Msg:  "invalid non-printable character " + name,
		})
	}
}

// literalSpans returns the byte ranges of the outermost strings and
// comments, sorted and disjoint (pre-order makes nested f-string parts
// follow the string that holds them).
func (b *builder) literalSpans() [][2]uint32 {
	spans := [][2]uint32{}
	for i := range b.nodes {
		n := &b.nodes[i]
		if n.sym != b.t.str && n.sym != b.t.comment {
			continue
		}
		if len(spans) > 0 && n.start < spans[len(spans)-1][1] {
			continue
		}
		spans = append(spans, [2]uint32{n.start, n.end})
	}
	return spans
}

func inSpans(spans [][2]uint32, off uint32) bool {
	k := sort.Search(len(spans), func(k int) bool { return spans[k][1] > off })
	return k < len(spans) && spans[k][0] <= off
}

// errorMsg describes an ERROR node the way CPython would where it can
// tell: an unterminated string, an unclosed or unmatched bracket, a missing
// colon after a compound statement header; otherwise the text it covers.
func (b *builder) errorMsg(i int) string {
	txt := b.text(i)
	if len(txt) == 0 {
		return "invalid syntax"
	}
	var open []int
	var unmatched, starts, strs int
	for c, e := i+1, b.end(i); c < e; c++ { // every descendant, in order
		n := &b.nodes[c]
		switch n.sym {
		case b.t.strStart:
			starts++
		case b.t.str:
			strs++
		}
		if n.size != 1 || n.named() || n.end == n.start {
			continue
		}
		switch b.text(c) {
		case "(", "[", "{":
			open = append(open, c)
		case ")", "]", "}":
			if len(open) > 0 {
				open = open[:len(open)-1]
			} else if unmatched == 0 {
				unmatched = c
			}
		}
	}
	switch {
	case starts > strs:
		return "unterminated string literal"
	case len(open) > 0:
		return "invalid syntax: " + pyfmt.Str(b.text(open[0])) + " was never closed"
	case unmatched > 0:
		return "invalid syntax: unmatched " + pyfmt.Str(b.text(unmatched))
	}
	first, _, _ := strings.Cut(txt, "\n")
	first = strings.TrimSpace(first)
	if kw, _, _ := strings.Cut(first, " "); compoundKeywords.Get()[strings.TrimRight(kw, ":")] && !strings.HasSuffix(first, ":") {
		return "expected ':' after " + quoteShort(first)
	}
	return "invalid syntax near " + quoteShort(txt)
}

// compoundKeywords open statements whose header ends with a colon.
// It is built on first use, not at every process start (issue 15).
var compoundKeywords = lazy.New(buildCompoundKeywords)

// buildCompoundKeywords builds compoundKeywords on first use.
func buildCompoundKeywords() map[string]bool {
	return map[string]bool{
		"def": true, "class": true, "if": true, "elif": true, "else": true, "for": true,
		"while": true, "with": true, "try": true, "except": true, "finally": true, "async": true,
	}
}

func (b *builder) syntax(i int, msg string) {
	b.m.Syntax = append(b.m.Syntax, SyntaxError{Span: b.span(i), Msg: msg})
}
