package pyscan

import (
	"strings"
)

// builder turns the flat tree of one module into a Module. Node offsets are
// relative to src[base:] (base is the length of a skipped UTF-8 BOM).
type builder struct {
	t     *symtab // the grammar's symbols (symbols(), fetched once per module)
	src   string  // the whole file, BOM included
	base  uint32
	nodes []node
	m     *Module
	mr    *moduleRoot // m's allocation
	last  *Binding    // the binding made by the latest bind call
	fix   chainFix    // set while a misparsed chain is modelled (see fix.go)
	depth int         // recursion depth of the walk (see enter)
	deep  bool        // the depth limit was hit and reported
	ascii bool        // the body is all ASCII: no identifier to fold, no invisible character
	cr    bool        // the body has a CR: string bodies are searched for one (see unescape)

	// drop is set while the builder models an expression that nothing in
	// the model will reference (see eval): newExpr then hands out void
	// and kidList voids instead of carving them from the slabs.
	drop   bool
	noDrop bool // tests: never drop, so both models can be compared
	void   *Expr
	voids  []*Expr

	// The model's nodes, allocated in chunks (see slab).
	exprs    slab[Expr]
	names    slab[NameRef]
	scopes   slab[Scope]
	attrs    slab[AttrRef]
	bindings slab[Binding]
	keywords slab[Keyword]
	calls    slab[Call]
	assigns  slab[Assign]
	imps     slab[Import]
	defs     slab[Def]

	// The slices of the model (argument lists, elements, operands, the
	// bindings of a name), carved from chunks too (see slab.take).
	exprLists    slab[*Expr]
	kidHeads     slab[[]*Expr] // what Expr.kids points to
	keywordLists slab[*Keyword]
	bindingLists slab[*Binding]

	// The bytes of the decoded values that are not the source's own (the
	// joined parts of implicit concatenations), carved alike.
	strBytes slab[byte]
}

// initSlabs sizes the first chunk of each slab from the tree scan's
// counts of expression nodes and identifiers. On the benchmark corpora a
// module makes about 0.5 expressions per expression node (0.35 to 0.75,
// the dropped ones not counted: newExpr sizes the later chunks of
// expressions from the module's own rate) and 0.18 list slots, and per
// identifier 0.5 to 0.65 name references, 0.2 (large modules) to 0.3
// (small ones) bindings and names a scope binds, 0.25 to 0.3 keywords,
// 0.15 to 0.2 calls, 0.1 assignments, 0.02 scopes. Later chunks are a
// quarter of the first, so what a chunk leaves unused stays small.
func (b *builder) initSlabs(exprNodes, idents int) {
	b.exprs = newSlab[Expr](exprNodes / 2)
	b.scopes = newSlab[Scope](idents/64 + 2)
	b.attrs = newSlab[AttrRef](idents / 16)
	b.defs = newSlab[Def](idents / 32)
	b.kidHeads = newSlab[[]*Expr](exprNodes / 32)
	b.strBytes = newSlab[byte](len(b.src) / 4)
	// The first values of the smaller slabs are carved from the room its
	// Module was allocated with (a small module's values all fit).
	mr := b.mr
	b.names = slabIn(mr.nameRoom[:], idents*5/8)
	b.bindings = slabIn(mr.bindingRoom[:], idents/4+8)
	b.keywords = slabIn(mr.keywordRoom[:], idents*5/16)
	b.calls = slabIn(mr.callRoom[:], idents/5)
	b.assigns = slabIn(mr.assignRoom[:], idents/8)
	b.imps = slabIn(mr.importRoom[:], idents/32+6)
	b.exprLists = slabIn(mr.exprListRoom[:], exprNodes*3/16)
	b.keywordLists = slabIn(mr.keywordListRoom[:], idents*5/16)
	b.bindingLists = slabIn(mr.bindingListRoom[:], idents/4+8)
	// The model's lists, sized so few of them grow by copying.
	b.m.Names = listRoom(mr.names[:0], idents*3/4+4)
	b.m.Calls = listRoom(mr.calls[:0], idents/5+4)
	b.m.Imports = listRoom(mr.imports[:0], idents/32+6)
	b.m.Assigns = listRoom(mr.assigns[:0], idents/8+4)
	b.m.Defs = listRoom(mr.defs[:0], idents/32+4)
	b.m.Attrs = listRoom(mr.attrs[:0], idents/16+4)
	// The module scope binds about one name per 4 (small modules) to 10
	// (large ones) identifiers: sized for a little more than both, its map
	// seldom grows.
	b.m.Root.Bindings = make(map[string][]*Binding, idents/8+8)
}

// listRoom returns room, when it holds n values, or a new list with room
// for n.
func listRoom[T any](room []T, n int) []T {
	if n <= cap(room) {
		return room
	}
	return make([]T, 0, n)
}

// maxDepth bounds the builder's recursion. CPython refuses to build an AST
// nested about 3000 levels deep (RecursionError); refusing beyond the same
// depth keeps a hostile 8 MB file of "-" or "(" from exhausting the stack.
const maxDepth = 3000

// enter counts one level of recursion into node i; false means the limit is
// reached (reported once) and i must not be walked.
func (b *builder) enter(i int) bool {
	if b.depth >= maxDepth {
		if !b.deep {
			b.deep = true
			b.syntax(i, "too deeply nested: more than 3000 levels (CPython cannot compile this either)")
		}
		return false
	}
	b.depth++
	return true
}

func (b *builder) leave() { b.depth-- }

// --- tree navigation -------------------------------------------------------

func (b *builder) end(i int) int { return i + int(b.nodes[i].size) }

// next returns the next sibling of child c.
func (b *builder) next(c int) int { return c + int(b.nodes[c].size) }

// skip reports nodes that never matter to the model: comments and line
// continuations (extras), and anonymous tokens.
func (b *builder) skip(c int) bool {
	n := &b.nodes[c]
	return n.flags&flagNamed == 0 || n.flags&flagExtra != 0
}

// kids appends the named, non-extra children of i to buf. Callers pass
// make([]int, 0, 8), which stays on their stack: most nodes have fewer
// children, so the list costs no allocation.
func (b *builder) kids(i int, buf []int) []int {
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if !b.skip(c) {
			buf = append(buf, c)
		}
	}
	return buf
}

// field returns the first child of i with field id f, or -1.
func (b *builder) field(i int, f uint16) int {
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.nodes[c].field == f && b.nodes[c].flags&flagExtra == 0 {
			return c
		}
	}
	return -1
}

// firstNamed returns the first named non-extra child of i, or -1.
func (b *builder) firstNamed(i int) int {
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if !b.skip(c) {
			return c
		}
	}
	return -1
}

func (b *builder) sym(i int) uint16 { return b.nodes[i].sym }

func (b *builder) text(i int) string {
	n := &b.nodes[i]
	start := n.start
	if b.fix.active && start == b.fix.from {
		start = b.fix.to.start
	}
	return b.src[b.base+start : b.base+n.end]
}

func (b *builder) pos(off, row, col uint32) Pos {
	if row == 0 {
		col += b.base
	}
	return Pos{Offset: int32(off + b.base), Line: int32(row) + 1, Col: int32(col) + 1}
}

func (b *builder) span(i int) Span {
	n := &b.nodes[i]
	if b.fix.active && n.start == b.fix.from {
		to := &b.fix.to
		return Span{Start: b.pos(to.start, to.row, to.col), End: b.pos(n.end, n.endRow, n.endCol)}
	}
	return Span{Start: b.pos(n.start, n.row, n.col), End: b.pos(n.end, n.endRow, n.endCol)}
}

// opText returns the text of the child of i with field f (an operator
// token), or "".
func (b *builder) opText(i int, f uint16) string {
	if c := b.field(i, f); c >= 0 {
		return b.text(c)
	}
	return ""
}

// --- scopes and bindings ---------------------------------------------------

func (b *builder) newScope(kind ScopeKind, parent *Scope, i int) *Scope {
	s := b.scopes.new()
	*s = Scope{Kind: kind, Parent: parent, Span: b.span(i), Bindings: map[string][]*Binding{}}
	b.m.Scopes = append(b.m.Scopes, s)
	return s
}

// bindScope returns the scope a binding of name made in s lands in:
// `global` sends it to the module, `nonlocal` to the enclosing function
// scope that binds the name (or the nearest one).
func (b *builder) bindScope(s *Scope, name string) *Scope {
	if s.Kind == ModuleScope {
		return s
	}
	if s.Globals[name] {
		return b.m.Root
	}
	if s.Nonlocals[name] {
		var nearest *Scope
		for p := s.Parent; p != nil && p.Kind != ModuleScope; p = p.Parent {
			if p.Kind == ClassScope {
				continue
			}
			if nearest == nil {
				nearest = p
			}
			if len(p.Bindings[name]) > 0 && !p.Nonlocals[name] {
				return p
			}
		}
		if nearest != nil {
			return nearest
		}
	}
	return s
}

func (b *builder) bind(s *Scope, kind BindingKind, name string, sp Span) *Binding {
	t := b.bindScope(s, name)
	bd := b.bindings.new()
	bd.Kind, bd.Name, bd.Span = kind, name, sp
	bs := t.Bindings[name]
	if len(bs) == cap(bs) { // the name's first binding, or a full list: carved, not grown
		bs = append(b.bindingLists.take(max(2*len(bs), 1)), bs...)
	}
	t.Bindings[name] = append(bs, bd)
	b.last = bd
	return bd
}

// --- statements ------------------------------------------------------------

// block walks the statements (and stray expressions) under i, a module or
// a block, checking what tree-sitter lets through: an empty block and
// statements of one block indented differently.
func (b *builder) block(i int, s *Scope) {
	want, first, prev := -1, true, -1
	if i == 0 {
		want = 0 // module statements start in column 1
	}
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		first = false
		if n := &b.nodes[c]; !n.isError() && b.startsLine(n.start) {
			col := int(n.col)
			switch {
			case want < 0:
				want = col
			case col > want && prev >= 0 && b.indentAt(b.nodes[prev].end) > col:
				b.syntax(c, "unindent does not match any outer indentation level")
			case col > want:
				b.syntax(c, "unexpected indent")
			case col < want:
				b.syntax(c, "unindent does not match any outer indentation level")
			}
		}
		b.stmt(c, s)
		prev = c
	}
	if first && i != 0 && b.sym(i) == b.t.block {
		b.syntax(i, "expected an indented block")
	}
}

// indentAt returns the indentation (in bytes) of the line holding off.
func (b *builder) indentAt(off uint32) int {
	src := b.src[b.base:]
	k := min(int(off), len(src))
	for k > 0 && src[k-1] != '\n' {
		k--
	}
	n := 0
	for k+n < len(src) && (src[k+n] == ' ' || src[k+n] == '\t') {
		n++
	}
	return n
}

// startsLine reports whether only blanks precede offset off on its line.
func (b *builder) startsLine(off uint32) bool {
	src := b.src[b.base:]
	for k := int(off) - 1; k >= 0; k-- {
		switch src[k] {
		case ' ', '\t', '\f':
		case '\n', '\r':
			return true
		default:
			return false
		}
	}
	return true
}

func (b *builder) stmt(i int, s *Scope) {
	if !b.enter(i) {
		return
	}
	b.stmtIn(i, s)
	b.leave()
}

// stmtIn is stmt after enter (a wrapper, not a defer: deferred calls
// in these recursive functions were a measurable share of the build).
func (b *builder) stmtIn(i int, s *Scope) {
	t := b.t
	k := b.sym(i)
	switch {
	case b.nodes[i].isError():
		return
	case k == t.exprStatement:
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if b.skip(c) {
				continue
			}
			switch b.sym(c) {
			case t.namedExpr: // `x := 1` needs parentheses as a statement
				b.syntax(c, "invalid syntax: an assignment expression statement must be parenthesized")
				b.eval(c, s)
			case t.assignment:
				b.assignment(c, s)
			case t.augAssignment:
				b.augmented(c, s)
			default:
				b.eval(c, s)
			}
		}
	case k == t.importStatement, k == t.importFrom, k == t.futureImport:
		b.imports(i, s)
	case k == t.funcDef:
		b.funcDef(i, s)
	case k == t.classDef:
		b.classDef(i, s)
	case k == t.decorated:
		b.decorated(i, s)
	case k == t.forStatement:
		b.eval(b.field(i, t.fRight), s)
		b.bindTarget(b.field(i, t.fLeft), s, Store, BindLoop)
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if !b.skip(c) && b.nodes[c].field != t.fLeft && b.nodes[c].field != t.fRight {
				b.stmt(c, s)
			}
		}
	case k == t.withStatement:
		b.with(i, s)
	case k == t.exceptClause, k == t.exceptGroupClause:
		b.except(i, s)
	case k == t.globalStatement, k == t.nonlocalStatement:
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if b.skip(c) || (b.sym(c) != t.identifier && b.sym(c) != t.keywordIdentifier) {
				continue
			}
			if k == t.globalStatement {
				if s.Globals == nil {
					s.Globals = map[string]bool{}
				}
				s.Globals[b.ident(c)] = true
			} else {
				if s.Nonlocals == nil {
					s.Nonlocals = map[string]bool{}
				}
				s.Nonlocals[b.ident(c)] = true
			}
		}
	case k == t.deleteStatement:
		for _, c := range b.kids(i, make([]int, 0, 8)) {
			b.bindTarget(c, s, Del, BindOther)
		}
	case k == t.caseClause:
		b.caseClause(i, s)
	case k == t.typeAlias && b.typeCallAssign(i, s):
	case k == t.typeAlias:
		if l := b.field(i, t.fLeft); l >= 0 {
			id := b.firstNamed(l)
			if id >= 0 && b.sym(id) == t.genericType { // type X[T] = ...
				id = b.firstNamed(id)
			}
			if id >= 0 && b.sym(id) == t.identifier {
				b.bind(s, BindOther, b.ident(id), b.span(id))
			} else {
				b.eval(l, s)
			}
		}
		b.eval(b.field(i, t.fRight), s)
	case k == t.block:
		b.block(i, s)
	case k == t.printStatement && b.hasChild(i, t.chevron):
		// `print >>f, x` is a valid Python 3 expression (a tuple of a shift)
		b.walkKids(i, s, &Expr{})
	case k == t.printStatement || k == t.execStmt:
		kw := "print"
		if k == t.execStmt {
			kw = "exec"
		}
		b.syntax(i, "Missing parentheses in call to "+kw+" (Python 2 statement; nullius reads Python 3)")
	case t.isExpr(k):
		b.eval(i, s)
	default:
		// compound statements and their clauses (if/elif/else/while/try/
		// finally/match/block...): fields that are expressions are
		// evaluated, everything else is walked as statements.
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if !b.skip(c) {
				b.stmt(c, s)
			}
		}
	}
}

func (b *builder) imports(i int, s *Scope) {
	t := b.t
	k := b.sym(i)
	from := k != t.importStatement
	level, module := 0, ""
	if k == t.futureImport {
		module = "__future__"
	} else if mn := b.field(i, t.fModuleName); from && mn >= 0 {
		if b.sym(mn) == t.relativeImport {
			for c, e := mn+1, b.end(mn); c < e; c = b.next(c) {
				switch b.sym(c) {
				case t.importPrefix:
					level = strings.Count(b.text(c), ".")
				case t.dottedName:
					module = b.dotted(c)
				}
			}
		} else {
			module = b.dotted(mn)
		}
	}
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		var imp *Import
		switch {
		case b.sym(c) == t.wildcard:
			imp = b.imps.new()
			*imp = Import{From: true, Level: level, Module: module, Name: "*"}
			s.StarFrom = append(s.StarFrom, imp)
		case b.nodes[c].field != t.fName:
			continue
		case b.sym(c) == t.aliasedImport:
			name := b.dotted(b.field(c, t.fName))
			alias := ""
			if a := b.field(c, t.fAlias); a >= 0 {
				alias = b.ident(a)
			}
			imp = b.imps.new()
			if from {
				*imp = Import{From: true, Level: level, Module: module, Name: name, Alias: alias}
			} else {
				*imp = Import{Module: name, Alias: alias}
			}
		case b.sym(c) == t.dottedName:
			name := b.dotted(c)
			imp = b.imps.new()
			if from {
				*imp = Import{From: true, Level: level, Module: module, Name: name, Alias: name}
			} else {
				first, _, _ := strings.Cut(name, ".")
				*imp = Import{Module: name, Alias: first}
			}
		default:
			continue
		}
		imp.Span = b.span(c)
		imp.Scope = s
		b.m.Imports = append(b.m.Imports, imp)
		if imp.Alias != "" {
			b.bind(s, BindImport, imp.Alias, imp.Span).Import = imp
		}
	}
}

// dotted returns the identifiers of a dotted_name joined by dots (comments
// and spaces between them dropped).
func (b *builder) dotted(i int) string {
	if i < 0 {
		return ""
	}
	if b.nodes[i].size == 1 || b.sym(i) != b.t.dottedName {
		return b.ident(i)
	}
	if b.nodes[i].size == 2 && b.sym(i+1) == b.t.identifier {
		return b.ident(i + 1) // one identifier, most imported names
	}
	if s := b.text(i); plainDotted(s) {
		// Identifiers joined by single dots with nothing between them:
		// the source text is already the joined name (no allocation).
		ids := 0
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if !b.skip(c) {
				if b.sym(c) != b.t.identifier {
					ids = -1
					break
				}
				ids++
			}
		}
		if ids == strings.Count(s, ".")+1 {
			return s
		}
	}
	var parts []string
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if !b.skip(c) {
			parts = append(parts, b.ident(c))
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, ".")
}

// plainDotted reports whether s holds only ASCII identifier characters and
// dots, none of them leading, trailing or doubled: a dotted name written
// without spaces, comments or line continuations.
func plainDotted(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case c == '.':
			if s[k-1] == '.' {
				return false
			}
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

func (b *builder) decorated(i int, s *Scope) {
	t := b.t
	def := b.field(i, t.fDefinition)
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) || b.sym(c) != t.decorator {
			continue
		}
		if x := b.firstNamed(c); x >= 0 {
			if b.sym(x) == t.call {
				d := b.dropping()
				b.callExpr(x, s, true)
				b.drop = d
			} else {
				b.eval(x, s)
			}
		}
	}
	switch {
	case def < 0:
	case b.sym(def) == t.funcDef:
		b.funcDef(def, s)
	case b.sym(def) == t.classDef:
		b.classDef(def, s)
	}
}

// funcDef models `def`. Defaults and annotations are evaluated in the
// enclosing scope (decorators too, by decorated).
func (b *builder) funcDef(i int, s *Scope) {
	t := b.t
	d := b.defs.new()
	d.Kind, d.Span, d.Scope = FuncDef, b.span(i), s
	nm := b.field(i, t.fName)
	if nm >= 0 {
		d.Name, d.NameSpan = b.ident(nm), b.span(nm)
	}
	if tp := b.field(i, t.fTypeParameters); tp >= 0 {
		b.eval(tp, s)
	}
	b.m.Defs = append(b.m.Defs, d)
	body := b.newScope(FunctionScope, s, i)
	d.Body = body
	if ps := b.field(i, t.fParameters); ps >= 0 {
		d.Params = b.params(ps, s, body)
	}
	if rt := b.field(i, t.fReturnType); rt >= 0 {
		b.eval(rt, s)
	}
	if nm >= 0 {
		b.bind(s, BindDef, d.Name, d.NameSpan).Def = d
	}
	if bd := b.field(i, t.fBody); bd >= 0 {
		b.block(bd, body)
	}
}

// params binds the parameters of a def or lambda in inner and evaluates
// defaults and annotations in outer. It returns the parameter names.
func (b *builder) params(ps int, outer, inner *Scope) []string {
	t := b.t
	var names []string
	bindParam := func(id int) {
		if id < 0 {
			return
		}
		switch b.sym(id) {
		case t.identifier, t.keywordIdentifier:
			names = append(names, b.ident(id))
			b.bind(inner, BindParam, b.ident(id), b.span(id))
		case t.tuplePattern, t.listPattern: // Python 2 tuple parameters
			b.syntax(id, "tuple parameters are not Python 3 syntax")
		}
	}
	kids := b.kids(ps, make([]int, 0, 8))
	if len(kids) > 0 {
		names = make([]string, 0, len(kids)) // at most one name per child
	}
	sawDefault, starred := false, false
	for k, c := range kids {
		switch b.sym(c) {
		case t.defaultParam, t.typedDefaultParam:
			sawDefault = true
		case t.identifier, t.keywordIdentifier, t.typedParam:
			if sawDefault && !starred && !b.isSplat(c) {
				b.syntax(c, "non-default argument follows default argument")
			}
		}
		switch b.sym(c) {
		case t.listSplatPattern, t.keywordSeparator:
			starred = true
		case t.typedParam:
			starred = starred || b.isSplat(c)
		}
		if b.sym(c) == t.keywordSeparator && (k == len(kids)-1 || b.sym(kids[k+1]) == t.dictSplatPattern) {
			b.syntax(c, "named arguments must follow bare *")
		}
		switch b.sym(c) {
		case t.identifier, t.keywordIdentifier, t.tuplePattern:
			bindParam(c)
		case t.defaultParam, t.typedDefaultParam:
			b.eval(b.field(c, t.fType), outer)
			b.eval(b.field(c, t.fValue), outer)
			bindParam(b.field(c, t.fName))
		case t.typedParam:
			b.eval(b.field(c, t.fType), outer)
			if p := b.firstNamed(c); p >= 0 {
				if b.sym(p) == t.listSplatPattern || b.sym(p) == t.dictSplatPattern {
					bindParam(b.firstNamed(p))
				} else {
					bindParam(p)
				}
			}
		case t.listSplatPattern, t.dictSplatPattern:
			bindParam(b.firstNamed(c))
		}
	}
	if len(names) == 0 {
		return nil // no names: nil, as before the list was presized
	}
	return names
}

// isSplat reports a typed *args/**kw parameter.
func (b *builder) isSplat(c int) bool {
	if b.sym(c) != b.t.typedParam {
		return false
	}
	p := b.firstNamed(c)
	return p >= 0 && (b.sym(p) == b.t.listSplatPattern || b.sym(p) == b.t.dictSplatPattern)
}

// hasChild reports whether i has a direct child of symbol k.
func (b *builder) hasChild(i int, k uint16) bool {
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.sym(c) == k {
			return true
		}
	}
	return false
}

func (b *builder) classDef(i int, s *Scope) {
	t := b.t
	d := b.defs.new()
	d.Kind, d.Span, d.Scope = ClassDef, b.span(i), s
	nm := b.field(i, t.fName)
	if nm >= 0 {
		d.Name, d.NameSpan = b.ident(nm), b.span(nm)
	}
	b.m.Defs = append(b.m.Defs, d)
	if tp := b.field(i, t.fTypeParameters); tp >= 0 {
		b.eval(tp, s)
	}
	if sc := b.field(i, t.fSuperclasses); sc >= 0 {
		b.arguments(sc, s, &Call{})
	}
	body := b.newScope(ClassScope, s, i)
	d.Body = body
	if nm >= 0 {
		b.bind(s, BindDef, d.Name, d.NameSpan).Def = d
	}
	if bd := b.field(i, t.fBody); bd >= 0 {
		b.block(bd, body)
	}
}

func (b *builder) with(i int, s *Scope) {
	t := b.t
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		if b.sym(c) != t.withClause {
			b.stmt(c, s)
			continue
		}
		for _, item := range b.kids(c, make([]int, 0, 8)) {
			v := b.field(item, t.fValue)
			if v < 0 {
				v = b.firstNamed(item)
			}
			if v >= 0 && b.sym(v) == t.asPattern {
				b.eval(b.firstNamed(v), s)
				b.bindTarget(b.field(v, t.fAlias), s, Store, BindWith)
			} else {
				b.eval(v, s)
			}
		}
	}
}

func (b *builder) except(i int, s *Scope) {
	t := b.t
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		switch {
		case b.sym(c) == t.asPattern:
			b.eval(b.firstNamed(c), s)
			// Python's AST keeps the except-as name as a plain string, not
			// a Name: it binds, but it is not a NameRef.
			a := b.field(c, t.fAlias)
			if a >= 0 && b.sym(a) == t.asPatternTarget {
				a = b.unparen(b.firstNamed(a))
			}
			if a >= 0 && b.isName(a) {
				b.bind(s, BindExcept, b.ident(a), b.span(a))
			} else {
				b.bindTarget(b.field(c, t.fAlias), s, Store, BindExcept)
			}
		case b.sym(c) == t.block:
			b.block(c, s)
		case t.isExpr(b.sym(c)) && b.nodes[c].field == t.fAlias: // `except E, e` (Python 2)
			b.syntax(c, "multiple exception types must be parenthesized")
		case t.isExpr(b.sym(c)):
			b.eval(c, s)
		default:
			b.stmt(c, s)
		}
	}
}

// caseClause binds match captures (BindOther) and evaluates value patterns,
// the guard and the body.
func (b *builder) caseClause(i int, s *Scope) {
	t := b.t
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		switch b.sym(c) {
		case t.casePattern:
			b.pattern(c, s)
		case t.ifClause:
			for _, x := range b.kids(c, make([]int, 0, 8)) {
				b.eval(x, s)
			}
		default:
			b.stmt(c, s)
		}
	}
}

func (b *builder) pattern(i int, s *Scope) {
	if !b.enter(i) {
		return
	}
	b.patternIn(i, s)
	b.leave()
}

// patternIn is pattern after enter (a wrapper, not a defer: deferred calls
// in these recursive functions were a measurable share of the build).
func (b *builder) patternIn(i int, s *Scope) {
	t := b.t
	k := b.sym(i)
	switch {
	case k == t.dottedName:
		if b.nodes[i].size == 2 { // a bare name: a capture (`_` is a wildcard)
			if name := b.ident(i); name != "_" {
				b.bind(s, BindOther, name, b.span(i))
			}
			return
		}
		b.dottedLoad(i, s) // a value pattern such as Color.RED
	case k == t.classPattern:
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if b.skip(c) {
				continue
			}
			if b.sym(c) == t.dottedName {
				b.dottedLoad(c, s)
			} else {
				b.pattern(c, s)
			}
		}
	case k == t.keywordPattern: // `x=pattern`: x is an attribute name
		kids := b.kids(i, make([]int, 0, 8))
		for _, c := range kids[min(1, len(kids)):] {
			b.pattern(c, s)
		}
	case k == t.splatPattern, k == t.asPattern:
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if b.skip(c) {
				continue
			}
			if b.sym(c) == t.identifier {
				b.bind(s, BindOther, b.ident(c), b.span(c))
			} else {
				b.pattern(c, s)
			}
		}
	case k == t.str || k == t.concatStr || k == t.integer || k == t.float:
		b.eval(i, s)
	default:
		for c, e := i+1, b.end(i); c < e; c = b.next(c) {
			if !b.skip(c) {
				b.pattern(c, s)
			}
		}
	}
}

// dottedLoad records a dotted name of a pattern (`Color.RED`, `Point`) as a
// name load plus attribute loads.
func (b *builder) dottedLoad(i int, s *Scope) {
	var cur *Expr
	start := b.nodes[i]
	for c, e := i+1, b.end(i); c < e; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		if cur == nil {
			cur = b.nameRef(c, s, Load, false)
			continue
		}
		n := b.nodes[c]
		sp := Span{Start: b.pos(start.start, start.row, start.col), End: b.pos(n.end, n.endRow, n.endCol)}
		e := b.exprs.new()
		e.Kind, e.Span, e.Text, e.Name, e.Recv = ExprAttr, sp, b.src[b.base+start.start:b.base+n.end], b.ident(c), cur
		cur = e
		ar := b.attrs.new()
		*ar = AttrRef{Expr: cur, Ctx: Load, Scope: s}
		b.m.Attrs = append(b.m.Attrs, ar)
	}
}

func (b *builder) assignment(i int, s *Scope) {
	t := b.t
	a := b.assigns.new()
	*a = Assign{Span: b.span(i), Scope: s, Op: "="}
	b.m.Assigns = append(b.m.Assigns, a)
	var lefts []int
	cur := i
	for {
		if l := b.field(cur, t.fLeft); l >= 0 {
			lefts = append(lefts, l)
		}
		if ty := b.field(cur, t.fType); ty >= 0 {
			a.Annotated = true
			if len(lefts) > 1 {
				b.syntax(cur, "an annotated assignment cannot have several targets")
			}
			b.eval(ty, s)
		}
		r := b.field(cur, t.fRight)
		if r >= 0 && b.sym(r) == t.assignment {
			cur = r
			continue
		}
		if r >= 0 && b.sym(r) == t.augAssignment {
			b.syntax(r, "invalid syntax: augmented assignment inside an assignment")
			break
		}
		if r >= 0 {
			a.Value = b.expr(r, s, Load)
		}
		break
	}
	if a.Annotated {
		a.Op = ":"
		if a.Value != nil {
			a.Op = "="
		}
	}
	simple := len(lefts) == 1 && !a.Annotated && b.isName(b.unparen(lefts[0]))
	a.Targets = b.exprLists.take(len(lefts))
	for _, l := range lefts {
		b.last = nil
		a.Targets = append(a.Targets, b.target(l, s, Store, BindAssign, a))
		if simple && b.last != nil {
			b.last.Simple = true
		}
	}
}

// unparen strips parentheses around a target: `(x)` is read by tree-sitter
// as a parenthesized expression or as a one-element tuple pattern without
// a comma, and Python treats both as plain `x`.
func (b *builder) unparen(i int) int {
	for i >= 0 {
		k := b.sym(i)
		if k != b.t.parenExpr && k != b.t.tuplePattern && k != b.t.tuple {
			return i
		}
		kids := b.kids(i, make([]int, 0, 8))
		if len(kids) != 1 || (k != b.t.parenExpr && b.hasChild(i, b.t.comma)) {
			return i
		}
		i = kids[0]
	}
	return i
}

func (b *builder) isName(i int) bool {
	k := b.sym(i)
	return k == b.t.identifier || k == b.t.keywordIdentifier
}

func (b *builder) augmented(i int, s *Scope) {
	t := b.t
	a := b.assigns.new()
	*a = Assign{Span: b.span(i), Scope: s, Augmented: true, Op: b.opText(i, t.fOperator)}
	b.m.Assigns = append(b.m.Assigns, a)
	a.Value = b.sub(i, t.fRight, s, Load)
	if l := b.field(i, t.fLeft); l >= 0 {
		l = b.unparen(l) // `(o.a) += v` is fine
		switch b.sym(l) {
		case t.identifier, t.keywordIdentifier, t.attribute, t.subscript:
			a.Targets = append(b.exprLists.take(1), b.target(l, s, Store, BindAssign, a))
		default:
			b.syntax(l, "illegal expression for augmented assignment")
		}
	}
}

// target models an assignment target in context ctx, binding every bare
// name with kind (Del targets use BindOther).
func (b *builder) target(i int, s *Scope, ctx Ctx, kind BindingKind, a *Assign) *Expr {
	if i < 0 {
		return nil
	}
	if !b.enter(i) {
		return b.newExpr(i, ExprOther)
	}
	r := b.targetIn(i, s, ctx, kind, a)
	b.leave()
	return r
}

// targetIn is target after enter (a wrapper, not a defer: deferred calls
// in these recursive functions were a measurable share of the build).
func (b *builder) targetIn(i int, s *Scope, ctx Ctx, kind BindingKind, a *Assign) *Expr {
	t := b.t
	i = b.unparen(i)
	switch k := b.sym(i); k {
	case t.identifier, t.keywordIdentifier:
		e := b.nameRef(i, s, ctx, false)
		bd := b.bind(s, kind, e.Name, e.Span)
		bd.Assign = a
		return e
	case t.attribute, t.subscript:
		return b.expr(i, s, ctx)
	case t.tuple, t.list, t.patternList, t.tuplePattern, t.listPattern, t.exprList:
		e := b.newExpr(i, ExprTuple)
		if k == t.list || k == t.listPattern {
			e.Kind = ExprList
		}
		nodes := b.kids(i, make([]int, 0, 8))
		kids := b.kidList(len(nodes))
		for _, c := range nodes {
			kids = append(kids, b.target(c, s, ctx, kind, a))
		}
		b.setKids(e, kids)
		return e
	case t.parenExpr, t.asPatternTarget:
		if c := b.firstNamed(i); c >= 0 {
			return b.target(c, s, ctx, kind, a)
		}
	case t.listSplatPattern, t.listSplat:
		if ctx == Del {
			b.syntax(i, "cannot delete starred")
		}
		e := b.newExpr(i, ExprOther)
		e.op = opcode("*")
		if c := b.firstNamed(i); c >= 0 {
			b.setKids(e, append(b.kidList(1), b.target(c, s, ctx, kind, a)))
		}
		return e
	}
	if b.nodes[i].isError() {
		return b.newExpr(i, ExprOther)
	}
	what := "expression"
	if ctx == Del {
		b.syntax(i, "cannot delete "+what+" "+quoteShort(b.text(i)))
	} else {
		b.syntax(i, "cannot assign to "+what+" "+quoteShort(b.text(i)))
	}
	return b.expr(i, s, Load)
}
