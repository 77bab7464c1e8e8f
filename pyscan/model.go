// Package pyscan is nullius's Python front end. It parses one module with
// tree-sitter (official go-tree-sitter binding, allocator reset to libc, the
// C tree flattened and freed inside one cgo call) and hands the analyzers a
// Gaia-aware model: imports with their provenance, scopes and bindings, calls
// with positional and keyword arguments, string and number literals decoded
// exactly as Python would, assignments, `__all__`, comments and syntax
// errors. Every element carries byte offsets, 1-based lines and 1-based byte
// columns. pyscan holds no rules.
package pyscan

import "strings"

// Pos is a position in a source file. Offset is a 0-based byte offset; Line
// and Col are 1-based, Col counting UTF-8 bytes. They are int32 (Parse
// refuses sources of 2 GiB or more): every node of the model holds spans,
// and 12 bytes a position instead of 24 is a seventh of the model.
type Pos struct {
	Offset int32
	Line   int32
	Col    int32
}

// Span is the half-open byte range [Start, End) of a syntax element.
type Span struct {
	Start Pos
	End   Pos
}

// Module is the model of one parsed Python file. All slices are in source
// order (by start offset).
type Module struct {
	Path string // as given to Parse
	Src  []byte // the exact bytes parsed

	// Syntax holds parse failures: tree-sitter ERROR/MISSING nodes, invalid
	// UTF-8, a NUL byte. When non-empty, the rest of the model may be partial
	// and rules other than GAIA000 must not run on the file.
	Syntax []SyntaxError

	Imports  []*Import
	Calls    []*Call
	Names    []*NameRef // every identifier occurrence that is a name expression (load, store or del)
	Attrs    []*AttrRef // every attribute expression `recv.attr`
	Assigns  []*Assign  // every `=` / annotated / augmented assignment, any nesting
	Defs     []*Def     // function and class definitions, any nesting
	Comments []Comment
	All      *AllDecl // module-level __all__, nil when absent

	Root   *Scope   // module scope
	Scopes []*Scope // every scope, Root first
}

// SyntaxError is one located parse failure.
type SyntaxError struct {
	Span Span
	Msg  string // e.g. "invalid syntax", "missing ')'", "invalid UTF-8 byte 0xff"
}

// Import is one imported name. `import a.b as c` gives Module "a.b",
// Name "", Alias "c"; `import a.b` gives Alias "a" (the bound name) and
// Module "a.b"; `from .x import y as z` gives Level 1, Module "x", Name "y",
// Alias "z"; `from m import *` gives Name "*" and Alias "".
type Import struct {
	Span   Span // the dotted name / aliased item, not the whole statement
	From   bool // a `from ... import ...` statement
	Level  int  // number of leading dots of a relative import
	Module string
	Name   string
	Alias  string // the name bound in Scope ("" for star imports)
	Scope  *Scope
}

// ExprKind classifies an expression node (a byte: it packs with Expr's
// flags).
type ExprKind uint8

// Expression kinds. The constant kinds (String through Ellipsis) are what the
// reference calls "literal" (a single Python constant, M5).
const (
	ExprOther     ExprKind = iota
	ExprString             // one string token or implicit concatenation of plain/raw string tokens
	ExprBytes              // bytes literal(s)
	ExprNumber             // int or float token (no sign)
	ExprComplex            // imaginary literal such as 1j
	ExprBool               // True / False
	ExprNone               // None
	ExprEllipsis           // ...
	ExprFString            // f-string (or concatenation containing one): never a constant
	ExprName               // identifier
	ExprAttr               // recv.attr
	ExprCall               // call
	ExprSubscript          // x[i]
	ExprUnary              // -x, +x, ~x, not x
	ExprBinary             // a + b, a / b, comparisons, boolean operators
	ExprList
	ExprTuple // also a parenthesised tuple; a bare parenthesised expression is unwrapped
	ExprSet
	ExprDict
	ExprLambda
	ExprConditional
)

// Expr is an expression node with the pieces the analyzers need. Every
// module makes tens of thousands of them, so the fields are ordered and
// shared to keep it small: the flags pack with Kind, and one slice holds
// the sub-expressions Operand, Elems and Keys return.
type Expr struct {
	Kind ExprKind

	// ExprFString: ConstOnly reports an f-string with no replacement
	// fields, and Str then holds its decoded value.
	ConstOnly bool
	IsInt     bool  // ExprNumber: an int token
	Bool      bool  // ExprBool
	op        uint8 // the operator, an index into ops (see Op)

	Span Span
	Text string // exact source text

	// ExprString: the decoded value (escapes, raw prefixes, implicit
	// concatenation); see ConstOnly for ExprFString.
	Str string

	// ExprNumber: the float64 value. Ints too large for float64 exactness
	// still compare by float64 value.
	Num float64

	Name string // ExprName: the identifier; ExprAttr: the attribute name
	Recv *Expr  // ExprAttr: the receiver; ExprSubscript: the value subscripted
	Call *Call  // ExprCall

	// kids points to the sub-expressions: the operands, the elements, or a
	// dictionary's keys followed by its values (see Operand, Elems, Keys);
	// nil for most expressions (names, constants, calls), which have none:
	// a pointer is 16 bytes less than a slice on every Expr (an eighth).
	kids *[]*Expr
}

// sub returns the sub-expressions e.kids points to.
func (e *Expr) sub() []*Expr {
	if e.kids == nil {
		return nil
	}
	return *e.kids
}

// Op returns the operator of an ExprUnary or ExprBinary as written ("-",
// "not", "+", "//", "and", "<", "not in"; the first operator of a
// comparison chain), "*" or "**" for the ExprOther of a starred value,
// ":=" for a walrus, and "" otherwise.
func (e *Expr) Op() string { return ops[e.op] }

// ops are the operators Op returns (an Expr holds the index: every
// operator of the grammar is one of these).
var ops = [...]string{"", "-", "+", "~", "not", "*", "**", ":=", "/", "//", "%", "@",
	"<<", ">>", "&", "|", "^", "and", "or", "<", "<=", "==", "!=", ">=", ">", "<>",
	"in", "not in", "is", "is not"}

// opcode returns the index of operator s in ops. A comparison written
// across lines or with a comment inside (`not  # why` newline `in`) is the
// operator its first word makes it; anything else unknown is "".
func opcode(s string) uint8 {
	for k, o := range ops {
		if o == s {
			return uint8(k)
		}
	}
	switch f := strings.Fields(s); {
	case len(f) > 1 && f[0] == "not":
		return opcode("not in")
	case len(f) > 1 && f[0] == "is":
		return opcode("is not")
	}
	return 0
}

// Operand returns the operands: ExprUnary 1, ExprBinary 2 (every operand
// of a comparison chain), ExprConditional body, condition and orelse,
// ExprLambda its body, ExprOther the values inside it (the starred value
// of `*x`, the value of a walrus, the children of await, yield...). It is
// nil for the kinds that have Elems.
func (e *Expr) Operand() []*Expr {
	switch e.Kind {
	case ExprList, ExprTuple, ExprSet, ExprDict, ExprSubscript:
		return nil
	}
	return e.sub()
}

// Elems returns the elements of an ExprList, ExprTuple or ExprSet, the
// subscripts of an ExprSubscript, or the values of an ExprDict; nil for
// other kinds.
func (e *Expr) Elems() []*Expr {
	switch e.Kind {
	case ExprList, ExprTuple, ExprSet, ExprSubscript:
		return e.sub()
	case ExprDict:
		kids := e.sub()
		return kids[len(kids)/2:]
	}
	return nil
}

// Keys returns the keys of an ExprDict, parallel to Elems (a nil entry for
// a `**splat`); nil for other kinds.
func (e *Expr) Keys() []*Expr {
	if e.Kind == ExprDict {
		kids := e.sub()
		h := len(kids) / 2
		return kids[:h:h] // the values follow: an append must not reach them
	}
	return nil
}

// IsConstant reports whether e is a single Python constant in the sense of
// the reference (ast.Constant): string, bytes, number, complex, bool, None
// or Ellipsis. F-strings, unary minus and `+` are not constants.
func (e *Expr) IsConstant() bool {
	return e != nil && e.Kind >= ExprString && e.Kind <= ExprEllipsis
}

// DottedName returns "a.b.c" for a chain of attribute accesses over a name,
// and "" for anything else.
func (e *Expr) DottedName() string {
	switch {
	case e == nil:
		return ""
	case e.Kind == ExprName:
		return e.Name
	case e.Kind == ExprAttr:
		if r := e.Recv.DottedName(); r != "" {
			return r + "." + e.Name
		}
	}
	return ""
}

// Call is one call expression.
type Call struct {
	Span     Span
	Func     *Expr      // the callee expression
	Args     []*Expr    // positional arguments in order, excluding *splats
	Keywords []*Keyword // explicit name=value keywords in order
	StarArgs bool       // a *args splat is present
	KwSplat  bool       // a **kwargs splat is present
	// Decorator is true when the call is a decorator expression (`@f(...)`).
	Decorator bool
	Scope     *Scope // innermost scope containing the call
}

// Keyword returns the explicit keyword argument with that name, or nil.
func (c *Call) Keyword(name string) *Keyword { return keywordNamed(c.Keywords, name) }

// keywordNamed returns the keyword of kws with that name, or nil.
func keywordNamed(kws []*Keyword, name string) *Keyword {
	for _, k := range kws {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// Keyword is one explicit `name=value` argument.
type Keyword struct {
	Name     string
	NameSpan Span
	Value    *Expr
}

// Ctx is the expression context of a name or attribute occurrence.
type Ctx uint8

// Expression contexts, as in Python's ast.
const (
	Load Ctx = iota
	Store
	Del
)

// NameRef is one identifier used as a name expression. Keyword-argument
// names, parameter names, import names, attribute names, def/class names
// and `global`/`nonlocal` lists are not NameRefs.
//
// Its Name, Span and Text are those of the ExprName it refers to (shared,
// not copied: a module has about one NameRef per two identifiers).
type NameRef struct {
	*Expr  // Kind == ExprName
	Ctx    Ctx
	Callee bool   // the name is the Func of a Call (f(...)), including decorator calls
	Scope  *Scope // innermost scope containing the name
}

// AttrRef is one attribute expression `recv.attr`.
type AttrRef struct {
	Expr   *Expr // Kind == ExprAttr
	Ctx    Ctx
	Scope  *Scope
	Callee bool // the attribute is the Func of a Call
}

// Assign is one assignment statement or named expression.
type Assign struct {
	Span      Span
	Targets   []*Expr // `a = b = v` gives two targets; tuple targets have Kind ExprTuple/ExprList
	Value     *Expr   // nil for a bare annotation `x: int`
	Annotated bool    // `x: T = v`
	Augmented bool    // `x += v` (Op holds "+=")
	Walrus    bool    // `(x := v)`
	Op        string
	Scope     *Scope
}

// DefKind distinguishes function and class definitions.
type DefKind int

// Definition kinds.
const (
	FuncDef DefKind = iota
	ClassDef
)

// Def is a function (or lambda-free def) or class definition.
type Def struct {
	Kind     DefKind
	Name     string
	NameSpan Span
	Span     Span
	Params   []string // parameter names in order (functions only)
	Scope    *Scope   // the scope the name is bound in
	Body     *Scope   // the new scope the definition opens
}

// Comment is one `#` comment; Text includes the leading `#`.
type Comment struct {
	Span Span
	Text string
}

// AllDecl is the module-level `__all__` assignment (the last one).
type AllDecl struct {
	Span    Span
	Value   *Expr
	Names   []string // the string elements, in order
	Literal bool     // Value is a list or tuple made only of string constants
}

// ScopeKind classifies a scope.
type ScopeKind int

// Scope kinds.
const (
	ModuleScope ScopeKind = iota
	FunctionScope
	ClassScope
	LambdaScope
	ComprehensionScope
)

// Scope is a Python name scope with its static bindings.
type Scope struct {
	Kind      ScopeKind
	Parent    *Scope
	Span      Span
	Bindings  map[string][]*Binding // every binding of a name in this scope, in source order
	Globals   map[string]bool       // names declared `global` here
	Nonlocals map[string]bool       // names declared `nonlocal` here
	StarFrom  []*Import             // `from m import *` executed in this scope
}

// BindingKind says how a name got bound.
type BindingKind int

// Binding kinds.
const (
	BindImport BindingKind = iota
	BindAssign             // plain, annotated, augmented or walrus assignment target
	BindParam              // function or lambda parameter
	BindLoop               // for-loop or comprehension target
	BindDef                // def / class name
	BindWith               // with ... as name
	BindExcept             // except ... as name
	BindOther              // match capture, type alias, del target...
)

// Binding is one place where a name is bound in a scope.
type Binding struct {
	Kind   BindingKind
	Name   string
	Span   Span
	Import *Import // BindImport
	Assign *Assign // BindAssign
	Def    *Def    // BindDef
	// Simple is true for a BindAssign whose statement has exactly one
	// target that is this bare name (`x = v`, not annotated, not tuple).
	Simple bool
}

// Lookup resolves name as seen from scope s with Python's static rules:
// the local scope if it binds the name (unless declared global/nonlocal),
// then enclosing function scopes (class scopes are skipped for nested
// scopes), then the module scope. It returns the scope that binds the name
// and its bindings, or (nil, nil) when no scope binds it (a builtin, a name
// from a star import, or an undefined name).
func (s *Scope) Lookup(name string) (*Scope, []*Binding) {
	start := s
	for cur := s; cur != nil; cur = cur.Parent {
		if cur != start && cur.Kind == ClassScope {
			continue
		}
		if cur.Kind != ModuleScope {
			if cur.Globals[name] {
				break
			}
			if cur.Nonlocals[name] {
				continue
			}
		}
		if bs := cur.Bindings[name]; len(bs) > 0 {
			return cur, bs
		}
		if cur.Parent == nil {
			return nil, nil // the outermost scope was just asked: no second lookup below
		}
	}
	// a global declaration, or an outermost scope skipped above: the module scope
	root := s
	for root.Parent != nil {
		root = root.Parent
	}
	if bs := root.Bindings[name]; len(bs) > 0 {
		return root, bs
	}
	return nil, nil
}
