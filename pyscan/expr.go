package pyscan

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// newExpr returns a new Expr for node i, or the void Expr while b.drop is
// set: its fields are written and never read.
func (b *builder) newExpr(i int, k ExprKind) *Expr {
	if b.drop {
		return b.voidExpr()
	}
	if len(b.exprs.free) == 0 && b.exprs.made > 0 {
		b.exprs.size = nextChunk(b.exprs.made, i, len(b.nodes))
	}
	e := b.exprs.new() // zeroed: set only what is not zero
	e.Kind, e.Span, e.Text = k, b.span(i), b.text(i)
	return e
}

// voidExpr returns the Expr every dropped expression shares (one a
// module, made on first use).
func (b *builder) voidExpr() *Expr {
	if b.void == nil {
		b.void = b.exprs.new()
	}
	return b.void
}

// kidList returns room for the n sub-expressions of the Expr being made:
// a slice of the module's list chunk (see slab.take), or, while b.drop is
// set, a scratch list every dropped expression shares.
func (b *builder) kidList(n int) []*Expr {
	if !b.drop {
		return b.exprLists.take(n)
	}
	if n > len(b.voids) {
		b.voids = make([]*Expr, max(n, 2*len(b.voids), 32))
	}
	return b.voids[:0] // all of it: a nested walkKids appends more
}

// setKids makes list the sub-expressions of e, the Expr being made (nothing
// while b.drop is set: e is void).
func (b *builder) setKids(e *Expr, list []*Expr) {
	if b.drop || list == nil {
		return
	}
	h := b.kidHeads.new()
	*h = list
	e.kids = h
}

// eval models the expression at i (nothing for i < 0) for what it records
// (names, attributes, calls, assignments, bindings and syntax errors)
// where nothing will reference its Expr: an expression statement, a
// condition, an iterable, an annotation, a default. About a quarter of a
// module's expressions are such values or inside them; they are modelled
// into the void Expr, not carved from the slabs, unless the model keeps
// them for another reason (a name, an attribute, a call's callee and
// arguments, a walrus's value).
func (b *builder) eval(i int, s *Scope) {
	d := b.dropping()
	b.exprc(i, s, Load, false)
	b.drop = d
}

// bindTarget is target for a target nothing references once its names
// are bound (a for loop's, a with item's, a del statement's).
func (b *builder) bindTarget(i int, s *Scope, ctx Ctx, kind BindingKind) {
	d := b.dropping()
	b.target(i, s, ctx, kind, nil)
	b.drop = d
}

// dropping sets drop for what follows, which nothing in the model will
// reference (never under the tests' noDrop), and returns its previous
// value, which the caller restores.
func (b *builder) dropping() (was bool) {
	was, b.drop = b.drop, !b.noDrop
	return was
}

// nextChunk sizes the next chunk of expressions of a module of n nodes
// that has made `made` of them by node i. Modules make from 0.3 to 0.9
// expressions per expression node: the chunk holds what the module's rate
// so far predicts for the nodes left, and a little, but never more than
// the nodes left (i is not always the furthest node reached: a walrus is
// made after its value, so made/i can be anything).
func nextChunk(made, i, n int) int {
	left := max(n-i, 0)
	return min(made*left/max(i, 1)*17/16, left) + 4
}

// sub models the child of parent with field f. A child missing after
// tree-sitter's error recovery becomes an empty ExprOther at the parent's
// end, so the model never holds nil where a value is required.
func (b *builder) sub(parent int, f uint16, s *Scope, ctx Ctx) *Expr {
	if c := b.field(parent, f); c >= 0 {
		return b.expr(c, s, ctx)
	}
	return b.placeholder(parent)
}

func (b *builder) placeholder(parent int) *Expr {
	if b.drop {
		return b.voidExpr()
	}
	n := &b.nodes[parent]
	end := b.pos(n.end, n.endRow, n.endCol)
	e := b.exprs.new()
	e.Span = Span{Start: end, End: end}
	return e
}

// countField counts the children of i with field f.
func (b *builder) countField(i int, f uint16) int {
	n := 0
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.nodes[c].field == f && !b.skip(c) {
			n++
		}
	}
	return n
}

// nameRef records a name occurrence and returns its ExprName.
func (b *builder) nameRef(i int, s *Scope, ctx Ctx, callee bool) *Expr {
	d := b.drop
	b.drop = false // the NameRef holds it
	e := b.newExpr(i, ExprName)
	b.drop = d
	e.Name = e.Text
	if !b.ascii {
		e.Name = nfkcIdent(e.Text)
	}
	nr := b.names.new()
	nr.Expr, nr.Ctx, nr.Scope, nr.Callee = e, ctx, s, callee
	b.m.Names = append(b.m.Names, nr)
	return e
}

// expr models the expression at i (nil for i < 0) in context ctx and
// records the names, attributes and calls inside it.
func (b *builder) expr(i int, s *Scope, ctx Ctx) *Expr { return b.exprc(i, s, ctx, false) }

func (b *builder) exprc(i int, s *Scope, ctx Ctx, callee bool) *Expr {
	if i < 0 {
		return nil
	}
	if b.nodes[i].isError() || !b.enter(i) {
		return b.newExpr(i, ExprOther)
	}
	r := b.exprcIn(i, s, ctx, callee)
	b.leave()
	return r
}

// exprcIn is exprc after enter (a wrapper, not a defer: deferred calls
// in these recursive functions were a measurable share of the build).
func (b *builder) exprcIn(i int, s *Scope, ctx Ctx, callee bool) *Expr {
	t := b.t
	n := &b.nodes[i]
	if b.fix.active && i == b.fix.base {
		return b.fixBase(s, ctx, callee)
	}
	if k := n.sym; (k == t.call || k == t.attribute || k == t.subscript) && b.src[b.base+n.start] == '*' {
		if x := b.hoistStar(i, s, ctx, callee); x != nil {
			return x
		}
	}
	switch k := n.sym; k {
	case t.identifier, t.keywordIdentifier:
		return b.nameRef(i, s, ctx, callee)
	case t.attribute:
		d := b.drop
		b.drop = false // the AttrRef holds it and its receiver
		e := b.newExpr(i, ExprAttr)
		e.Recv = b.sub(i, t.fObject, s, Load)
		b.drop = d
		if a := b.field(i, t.fAttribute); a >= 0 {
			e.Name = b.ident(a)
		}
		ar := b.attrs.new()
		ar.Expr, ar.Ctx, ar.Scope, ar.Callee = e, ctx, s, callee
		b.m.Attrs = append(b.m.Attrs, ar)
		return e
	case t.call:
		return b.callExpr(i, s, false)
	case t.subscript:
		e := b.newExpr(i, ExprSubscript)
		e.Recv = b.sub(i, t.fValue, s, Load)
		n := 0
		for c, end := i+1, b.end(i); c < end; c = b.next(c) {
			if !b.skip(c) && b.nodes[c].field != t.fValue {
				n++
			}
		}
		kids := b.kidList(n)
		for c, end := i+1, b.end(i); c < end; c = b.next(c) {
			if !b.skip(c) && b.nodes[c].field != t.fValue {
				kids = append(kids, b.expr(c, s, Load))
			}
		}
		b.setKids(e, kids)
		return e
	case t.str, t.concatStr:
		return b.stringExpr(i, s)
	case t.integer, t.float:
		return b.numberExpr(i)
	case t.true, t.false:
		e := b.newExpr(i, ExprBool)
		e.Bool = k == t.true
		return e
	case t.none:
		return b.newExpr(i, ExprNone)
	case t.ellipsis:
		return b.newExpr(i, ExprEllipsis)
	case t.parenExpr:
		c := b.firstNamed(i)
		if c < 0 || b.sym(c) == t.yield || b.sym(c) == t.listSplat {
			e := b.newExpr(i, ExprOther)
			b.walkKids(i, s, e)
			return e
		}
		return b.exprc(c, s, ctx, callee) // a bare parenthesised expression is unwrapped
	case t.tuple, t.exprList, t.patternList, t.tuplePattern:
		return b.collection(i, s, ctx, ExprTuple)
	case t.list, t.listPattern:
		return b.collection(i, s, ctx, ExprList)
	case t.set:
		return b.collection(i, s, ctx, ExprSet)
	case t.dictionary:
		// kids holds the keys, then the values (see Keys and Elems).
		e := b.newExpr(i, ExprDict)
		pairs := b.kids(i, make([]int, 0, 8))
		n := len(pairs)
		kids := b.kidList(2 * n)[:2*n]
		for k, c := range pairs {
			if b.sym(c) == t.pair {
				kids[k] = b.sub(c, t.fKey, s, Load)
				kids[n+k] = b.sub(c, t.fValue, s, Load)
			} else { // **splat
				kids[n+k] = b.expr(b.firstNamed(c), s, Load)
			}
		}
		b.setKids(e, kids)
		return e
	case t.unaryOp:
		e := b.newExpr(i, ExprUnary)
		e.op = opcode(b.opText(i, t.fOperator))
		b.setKids(e, append(b.kidList(1), b.sub(i, t.fArgument, s, Load)))
		return e
	case t.notOp:
		e := b.newExpr(i, ExprUnary)
		e.op = opcode("not")
		b.setKids(e, append(b.kidList(1), b.sub(i, t.fArgument, s, Load)))
		return e
	case t.binaryOp, t.boolOp:
		e := b.newExpr(i, ExprBinary)
		e.op = opcode(b.opText(i, t.fOperator))
		kids := append(b.kidList(2), b.sub(i, t.fLeft, s, Load))
		b.setKids(e, append(kids, b.sub(i, t.fRight, s, Load)))
		return e
	case t.compareOp:
		// A chain a < b < c keeps every operand; Op is the first operator.
		e := b.newExpr(i, ExprBinary)
		n := 0
		for c, end := i+1, b.end(i); c < end; c = b.next(c) {
			if b.nodes[c].field != t.fOperators && !b.skip(c) {
				n++
			}
		}
		kids := b.kidList(n)
		for c, end := i+1, b.end(i); c < end; c = b.next(c) {
			switch {
			case b.nodes[c].field == t.fOperators:
				if e.op == 0 {
					e.op = opcode(b.text(c))
				}
				if b.text(c) == "<>" {
					b.syntax(c, `invalid syntax: '<>' is Python 2; use '!='`)
				}
			case !b.skip(c):
				kids = append(kids, b.expr(c, s, Load))
			}
		}
		b.setKids(e, kids)
		return e
	case t.conditional:
		// Operand holds body, condition, orelse (source order).
		e := b.newExpr(i, ExprConditional)
		nodes := b.kids(i, make([]int, 0, 8))
		kids := b.kidList(len(nodes))
		for _, c := range nodes {
			kids = append(kids, b.expr(c, s, Load))
		}
		b.setKids(e, kids)
		return e
	case t.lambda:
		e := b.newExpr(i, ExprLambda)
		ls := b.newScope(LambdaScope, s, i)
		if ps := b.field(i, t.fParameters); ps >= 0 {
			b.params(ps, s, ls)
		}
		b.setKids(e, append(b.kidList(1), b.sub(i, t.fBody, ls, Load)))
		return e
	case t.namedExpr:
		return b.walrus(i, s)
	case t.listComp, t.setComp, t.dictComp, t.genExpr:
		return b.comprehension(i, s)
	case t.listSplat, t.dictSplat, t.listSplatPattern:
		e := b.newExpr(i, ExprOther)
		e.op = opcode("*")
		if k == t.dictSplat {
			e.op = opcode("**")
		}
		b.setKids(e, append(b.kidList(1), b.expr(b.firstNamed(i), s, ctx)))
		return e
	case t.keywordArgument: // only reached through odd error recovery
		e := b.newExpr(i, ExprOther)
		b.setKids(e, append(b.kidList(1), b.sub(i, t.fValue, s, Load)))
		return e
	}
	e := b.newExpr(i, ExprOther)
	b.walkKids(i, s, e)
	return e
}

// walkKids evaluates the children of an expression nothing else models
// (await, yield, slices, types...) so the names and calls inside are seen,
// and makes them the sub-expressions of e.
func (b *builder) walkKids(i int, s *Scope, e *Expr) {
	b.setKids(e, b.walkList(i, s, nil))
}

// walkList appends the expressions among the descendants of i that are
// not inside another expression to list (nil: room is taken for the
// direct children, carved from the module's list chunk; those of nested
// nodes, rarer, append).
func (b *builder) walkList(i int, s *Scope, list []*Expr) []*Expr {
	if !b.enter(i) {
		return list
	}
	list = b.walkListIn(i, s, list)
	b.leave()
	return list
}

// walkListIn is walkList after enter (a wrapper, not a defer: deferred
// calls in these recursive functions were a measurable share of the build).
func (b *builder) walkListIn(i int, s *Scope, list []*Expr) []*Expr {
	if list == nil {
		n := 0
		for c, end := i+1, b.end(i); c < end; c = b.next(c) {
			if k := b.sym(c); !b.skip(c) && (b.t.isExpr(k) || k == b.t.typeNode) {
				n++
			}
		}
		list = b.kidList(n)
	}
	for c, end := i+1, b.end(i); c < end; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		if k := b.sym(c); b.t.isExpr(k) || k == b.t.typeNode {
			list = append(list, b.expr(c, s, Load))
		} else {
			list = b.walkList(c, s, list)
		}
	}
	return list
}

func (b *builder) collection(i int, s *Scope, ctx Ctx, kind ExprKind) *Expr {
	e := b.newExpr(i, kind)
	nodes := b.kids(i, make([]int, 0, 8))
	kids := b.kidList(len(nodes))
	for _, c := range nodes {
		kids = append(kids, b.expr(c, s, ctx))
	}
	b.setKids(e, kids)
	return e
}

// walrus models `(name := value)`: the target binds in the nearest scope
// that is not a comprehension (PEP 572).
func (b *builder) walrus(i int, s *Scope) *Expr {
	t := b.t
	a := b.assigns.new()
	a.Span, a.Scope, a.Walrus, a.Op = b.span(i), s, true, ":="
	b.m.Assigns = append(b.m.Assigns, a)
	d := b.drop
	b.drop = false // the Assign holds its value and target
	a.Value = b.sub(i, t.fValue, s, Load)
	ts := s
	for ts.Kind == ComprehensionScope && ts.Parent != nil {
		ts = ts.Parent
	}
	if nm := b.field(i, t.fName); nm >= 0 {
		e := b.nameRef(nm, s, Store, false)
		bd := b.bind(ts, BindAssign, e.Name, e.Span)
		bd.Assign = a
		a.Targets = append(b.exprLists.take(1), e)
	}
	b.drop = d
	e := b.newExpr(i, ExprOther)
	e.op = opcode(":=")
	b.setKids(e, append(b.kidList(1), a.Value))
	return e
}

// comprehension opens a comprehension scope. The first iterable is evaluated
// in the enclosing scope, everything else inside.
func (b *builder) comprehension(i int, s *Scope) *Expr {
	t := b.t
	e := b.newExpr(i, ExprOther)
	cs := b.newScope(ComprehensionScope, s, i)
	first := true
	var body []int
	for c, end := i+1, b.end(i); c < end; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		switch b.sym(c) {
		case t.forInClause:
			if n := b.countField(c, t.fRight); n > 1 {
				b.syntax(c, "invalid syntax: the iterable of a comprehension must be parenthesized when it is a tuple (or the generator expression must be parenthesized)")
			}
			ev := cs
			if first {
				ev = s
				first = false
			}
			for r, rend := c+1, b.end(c); r < rend; r = b.next(r) {
				if !b.skip(r) && b.nodes[r].field == t.fRight {
					b.eval(r, ev)
				}
			}
			b.bindTarget(b.field(c, t.fLeft), cs, Store, BindLoop)
		case t.ifClause:
			for _, x := range b.kids(c, make([]int, 0, 8)) {
				b.eval(x, cs)
			}
		default:
			body = append(body, c)
		}
	}
	for _, c := range body {
		if b.sym(c) == t.pair {
			b.eval(b.field(c, t.fKey), cs)
			b.eval(b.field(c, t.fValue), cs)
		} else {
			b.eval(c, cs)
		}
	}
	return e
}

// callExpr models a call; dec marks a decorator call (`@f(...)`).
func (b *builder) callExpr(i int, s *Scope, dec bool) *Expr {
	c := b.calls.new()
	c.Span, c.Scope, c.Decorator = b.span(i), s, dec
	b.m.Calls = append(b.m.Calls, c)
	e := b.newExpr(i, ExprCall)
	e.Call = c
	d := b.drop
	b.drop = false // the Call holds its callee and arguments
	b.callParts(i, s, c)
	b.drop = d
	return e
}

// callParts models the callee and the arguments of call i into c.
func (b *builder) callParts(i int, s *Scope, c *Call) {
	t := b.t
	if f := b.field(i, t.fFunction); f >= 0 {
		c.Func = b.exprc(f, s, Load, true)
	} else {
		c.Func = b.placeholder(i)
	}
	args := b.field(i, t.fArguments)
	if args < 0 {
		return
	}
	if b.sym(args) == t.genExpr { // f(x for x in y)
		c.Args = append(b.exprLists.take(1), b.expr(args, s, Load))
		return
	}
	b.arguments(args, s, c)
}

// arguments models an argument list (of a call or a class statement) into
// c and reports the orderings CPython rejects.
func (b *builder) arguments(args int, s *Scope, c *Call) {
	t := b.t
	seenKw, seenKwSplat := false, false
	var names map[string]bool // keyword names, once there are many of them
	// The arguments are gathered on the stack (most calls have few) and
	// carved from the list chunks once counted: one pass over the list.
	var argRoom [8]*Expr
	var kwRoom [8]*Keyword
	pos, kws := argRoom[:0], kwRoom[:0]
	for a, end := args+1, b.end(args); a < end; a = b.next(a) {
		if b.skip(a) {
			continue
		}
		switch b.sym(a) {
		case t.keywordArgument:
			nm := b.field(a, t.fName)
			kw := b.keywords.new()
			if nm >= 0 {
				kw.Name, kw.NameSpan = b.ident(nm), b.span(nm)
				if len(kws) == 16 { // keep the check linear on huge calls
					names = make(map[string]bool, 32)
					for _, k := range kws {
						names[k.Name] = true
					}
				}
				if names != nil && names[kw.Name] || names == nil && keywordNamed(kws, kw.Name) != nil {
					b.syntax(a, "keyword argument repeated: "+kw.Name)
				}
				if names != nil {
					names[kw.Name] = true
				}
			}
			kw.Value = b.sub(a, t.fValue, s, Load)
			kws = append(kws, kw)
			seenKw = true
		case t.listSplat:
			c.StarArgs = true
			if seenKwSplat {
				b.syntax(a, "iterable argument unpacking follows keyword argument unpacking")
			}
			b.eval(b.firstNamed(a), s)
		case t.dictSplat:
			c.KwSplat = true
			seenKwSplat = true
			b.eval(b.firstNamed(a), s)
		default:
			x := b.expr(a, s, Load)
			if x.Kind == ExprOther && x.Op() == "*" { // `*f(x)` repaired by hoistStar
				c.StarArgs = true
				if seenKwSplat {
					b.syntax(a, "iterable argument unpacking follows keyword argument unpacking")
				}
				continue
			}
			switch {
			case seenKwSplat:
				b.syntax(a, "positional argument follows keyword argument unpacking")
			case seenKw:
				b.syntax(a, "positional argument follows keyword argument")
			}
			pos = append(pos, x)
		}
	}
	if len(pos) > 0 { // nil when none (or every one was a hoisted `*f(x)`)
		c.Args = append(b.exprLists.take(len(pos)), pos...)
	}
	if len(kws) > 0 {
		c.Keywords = append(b.keywordLists.take(len(kws)), kws...)
	}
}

// stringExpr decodes a string token or an implicit concatenation of tokens
// and walks the replacement fields of f-strings.
func (b *builder) stringExpr(i int, s *Scope) *Expr {
	t := b.t
	e := b.newExpr(i, ExprString)
	var parts []int
	if b.sym(i) == t.concatStr {
		parts = b.kids(i, make([]int, 0, 8))
	} else {
		parts = []int{i}
	}
	// fstr, not e.Kind, says an f-string was seen: e may be the void
	// expression of a dropped string, which the interpolations' own
	// expressions overwrite.
	hasBytes, hasStr, fields, fstr := false, false, false, false
	var joined []byte
	join := len(parts) > 1 && !b.drop // a dropped string's value is never read
	if join {
		// Decoding never lengthens a literal, so the parts' source text
		// bounds the value: room carved from the module's string chunk,
		// which the parts are decoded into.
		joined = b.strBytes.take(int(b.nodes[i].end - b.nodes[i].start))
	}
	for _, p := range parts {
		if b.sym(p) != t.str {
			continue
		}
		var tok strToken
		var msg string
		switch {
		case b.hasChild(p, t.interpolation):
			tok, msg = b.fstringParts(p)
		case join:
			tok, joined, msg = appendStringToken(joined, b.text(p), b.cr)
		default:
			tok, msg = decodeStringToken(b.text(p), b.cr)
		}
		if msg != "" {
			b.syntax(p, msg)
		}
		if tok.bytes {
			hasBytes = true
		} else {
			hasStr = true
		}
		if tok.fstr {
			e.Kind, fstr = ExprFString, true
			for c, end := p+1, b.end(p); c < end; c = b.next(c) {
				if b.sym(c) == t.interpolation {
					fields = true
					b.interpolation(c, s)
				}
			}
		}
		if len(parts) == 1 {
			e.Str = tok.value
		}
	}
	if join {
		e.Str = unsafe.String(unsafe.SliceData(joined), len(joined)) // never written again
	}
	switch {
	case hasBytes && hasStr:
		b.syntax(i, "cannot mix bytes and nonbytes literals")
	case hasBytes:
		e.Kind = ExprBytes
	}
	if fstr {
		e.ConstOnly = !fields
		if fields {
			e.Str = ""
		}
	}
	return e
}

// fstringParts checks an f-string with replacement fields: its prefix and
// the escapes of its literal parts only (the text inside the fields is
// Python code, not string content). Its value is never needed.
func (b *builder) fstringParts(p int) (strToken, string) {
	prefix, _, _, ok := splitString(b.text(p))
	if !ok {
		return strToken{fstr: true}, "unterminated string literal"
	}
	tok, msg := parsePrefix(prefix)
	if msg != "" || tok.raw {
		return tok, msg
	}
	for c, end := p+1, b.end(p); c < end; c = b.next(c) {
		if b.sym(c) == b.t.strContent {
			if _, msg := unescape(b.text(c), false, b.cr); msg != "" {
				return tok, msg
			}
		}
	}
	return tok, ""
}

// interpolation walks the expression of an f-string replacement field and
// of nested fields in its format spec.
func (b *builder) interpolation(i int, s *Scope) {
	t := b.t
	for c, end := i+1, b.end(i); c < end; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		switch k := b.sym(c); {
		case t.isExpr(k):
			b.eval(c, s)
		default: // format_specifier, type_conversion
			for x, xe := c+1, b.end(c); x < xe; x = b.next(x) {
				if !b.skip(x) {
					b.interpolation(x, s)
				}
			}
		}
	}
}

func (b *builder) numberExpr(i int) *Expr {
	e := b.newExpr(i, ExprNumber)
	n, msg := decodeNumber(b.text(i)) // not e.Text: a dropped e is void
	if msg != "" {
		b.syntax(i, msg)
	}
	if n.complex {
		e.Kind = ExprComplex
	}
	e.Num, e.IsInt = n.val, n.isInt
	return e
}

// quoteShort quotes source text for a message: Python's repr of its first
// line, cut to 40 characters, with "..." where anything was left out.
func quoteShort(s string) string {
	if k := strings.IndexAny(s, "\r\n"); k >= 0 && utf8.RuneCountInString(s[:k]) <= 40 {
		return pyfmt.Str(s[:k] + "...")
	} else if k >= 0 {
		s = s[:k]
	}
	return pyfmt.Excerpt(s, 40)
}
