package pyscan

// tree-sitter-python misparses two valid constructs; the builder repairs
// their model here rather than reporting a false syntax error or losing a
// call:
//
//   - `[*range(3)]`, `[*d.keys()]`: the grammar reads `*range` as a starred
//     primary and applies the call to it. hoistStar models the chain without
//     the star and wraps it in a starred ExprOther, as Python's AST does.
//   - `type(x).attr = v`: the soft keyword makes it a PEP 695
//     type_alias_statement with left side `(x).attr`. typeCallAssign models
//     the assignment `type(x).attr = v`, with the call `type(x)`.
//
// Both work by rewriting, for one chain, the start of every node that starts
// where the misparse begins (chainFix).

// chainFix makes nodes starting at from start where node to starts, and
// routes the chain's bottom node base to fixBase.
type chainFix struct {
	active bool
	from   uint32
	to     node
	base   int // the bottom of the chain (the starred node or the parenthesis)
	tok    int // typeCallAssign: the `type` keyword token; -1 for hoistStar
}

// chainBase returns the bottom of a call/attribute/subscript chain.
func (b *builder) chainBase(i int) int {
	t := b.t
	for i >= 0 {
		switch b.sym(i) {
		case t.call:
			i = b.field(i, t.fFunction)
		case t.attribute:
			i = b.field(i, t.fObject)
		case t.subscript:
			i = b.field(i, t.fValue)
		default:
			return i
		}
	}
	return -1
}

// hoistStar models `*f(x)` misparsed as `(*f)(x)`; nil when i is not such a
// chain.
func (b *builder) hoistStar(i int, s *Scope, ctx Ctx, callee bool) *Expr {
	if b.fix.active && b.nodes[i].start == b.fix.from {
		return nil // this chain is being repaired already
	}
	base := b.chainBase(i)
	if base < 0 || b.sym(base) != b.t.listSplat {
		return nil
	}
	inner := b.firstNamed(base)
	if inner < 0 {
		return nil
	}
	outer := b.newExpr(i, ExprOther)
	outer.op = opcode("*")
	saved := b.fix
	b.fix = chainFix{active: true, from: b.nodes[i].start, to: b.nodes[inner], base: base, tok: -1}
	x := b.exprc(i, s, ctx, callee)
	b.fix = saved
	b.setKids(outer, append(b.kidList(1), x))
	return outer
}

// typeCallAssign models a type_alias_statement that is really an assignment
// to an attribute or item of `type(...)`. It reports false for a real
// `type X = ...` statement.
func (b *builder) typeCallAssign(i int, s *Scope) bool {
	t := b.t
	left, right := b.field(i, t.fLeft), b.field(i, t.fRight)
	if left < 0 || right < 0 {
		return false
	}
	x := b.firstNamed(left)
	if x < 0 || (b.sym(x) != t.attribute && b.sym(x) != t.subscript) {
		return false
	}
	base := b.chainBase(x)
	if base < 0 || (b.sym(base) != t.parenExpr && b.sym(base) != t.tuple) {
		return false
	}
	a := &Assign{Span: b.span(i), Scope: s, Op: "="}
	b.m.Assigns = append(b.m.Assigns, a)
	a.Value = b.expr(b.firstNamed(right), s, Load)
	saved := b.fix
	b.fix = chainFix{active: true, from: b.nodes[x].start, to: b.nodes[i+1], base: base, tok: i + 1}
	a.Targets = []*Expr{b.target(x, s, Store, BindAssign, a)}
	b.fix = saved
	return true
}

// fixBase models the bottom node of a repaired chain.
func (b *builder) fixBase(s *Scope, ctx Ctx, callee bool) *Expr {
	f := b.fix
	b.fix.active = false // the nodes below keep their own starts
	defer func() { b.fix = f }()
	if f.tok < 0 { // hoistStar: the starred node stands for its operand
		return b.exprc(b.firstNamed(f.base), s, ctx, callee)
	}
	// typeCallAssign: the parenthesis is the argument list of `type`.
	tok, base := &b.nodes[f.tok], &b.nodes[f.base]
	c := &Call{
		Span:  Span{Start: b.pos(tok.start, tok.row, tok.col), End: b.pos(base.end, base.endRow, base.endCol)},
		Scope: s,
	}
	b.m.Calls = append(b.m.Calls, c)
	e := &Expr{Kind: ExprCall, Span: c.Span, Text: b.src[b.base+tok.start : b.base+base.end], Call: c}
	c.Func = b.nameRef(f.tok, s, Load, true)
	if b.sym(f.base) == b.t.tuple {
		for _, a := range b.kids(f.base, make([]int, 0, 8)) {
			c.Args = append(c.Args, b.expr(a, s, Load))
		}
	} else if a := b.firstNamed(f.base); a >= 0 {
		c.Args = []*Expr{b.expr(a, s, Load)}
	}
	return e
}
