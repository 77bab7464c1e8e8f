// Package gaiaref defines the prerequisite analyzer that decides which
// calls of a module are Gaia statements, by resolving callees through
// pyscan's scopes and bindings to imports from `gaia.*` modules (weakness
// W12 of the reference, which matched verbs by spelling alone).
//
// A call is a statement of verb V when its callee resolves to V imported
// from a gaia module (`from gaia.engine.lang import infer as i`,
// `import gaia.engine.lang as lang` + `lang.infer`, `gaia.engine.lang.infer`,
// or a simple alias `i = infer` of one of those, also through the package's
// own modules: `from .helpers import infer`, `from .helpers import *`), or
// is the bare name V with no binding while a `from gaia... import *` is in
// scope. A callee bound to
// anything else (a parameter, a loop variable, a local def, `from mylib
// import infer`) is not a statement. A callee spelled like a scanned verb
// whose provenance cannot be decided (no binding at all, a receiver that is
// a call result) is recorded as Unresolved, for the GAIA902 review flag.
package gaiaref

import (
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/pyscan"
)

// Analyzer resolves Gaia statements in every parsed file of the package.
var Analyzer = &analysis.Analyzer{
	Name:       "gaiaref",
	Doc:        "resolve which calls are Gaia statements\n\nThe result is a *gaiaref.Result; rule analyzers Require this analyzer.",
	Requires:   []*analysis.Analyzer{pyparse.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Scanned reports whether verb is one of the three verbs the reference
// scan checks (M1): observe, infer, register_prior.
func Scanned(verb string) bool {
	return verb == "observe" || verb == "infer" || verb == "register_prior"
}

// isVerb reports whether name is a Gaia DSL verb some rule looks at.
func isVerb(name string) bool {
	switch name {
	case "observe", "infer", "register_prior", "claim", "parameter", "note", "question",
		"associate", "derive", "equal", "contradict", "exclusive", "compute":
		return true
	}
	return false
}

// Result holds one File per parsed, syntax-clean file of the package.
type Result struct {
	Files []*File
	r     *resolver // for Definition
}

// File is the Gaia view of one module.
type File struct {
	*pyparse.File
	Stmts      []*Stmt   // calls resolved to Gaia verbs, in source order
	Refs       []*Ref    // scanned verbs referenced without a call (GAIA001)
	Unresolved []*Ref    // calls or references spelled like a scanned verb, provenance unknown
	Titles     *TitleMap // claim titles by variable (M6): &titles
	byCall     map[*pyscan.Call]*Stmt
	titles     TitleMap // made with the File, not apart
}

// StmtOf returns the statement of a call, or nil when it is not one.
func (f *File) StmtOf(c *pyscan.Call) *Stmt { return f.byCall[c] }

// Stmt is one Gaia statement: a call and the verb it resolves to.
type Stmt struct {
	Verb string
	Call *pyscan.Call
}

// Ref is a verb occurrence outside a call's function slot, or an
// unresolved call (Call non-nil).
type Ref struct {
	Verb string
	Text string // the expression as written
	Span pyscan.Span
	Call *pyscan.Call // for unresolved calls
}

func run(pass *analysis.Pass) (any, error) {
	parsed := pass.ResultOf[pyparse.Analyzer].(*pyparse.Result)
	res := &Result{}
	mods := make([]*pyscan.Module, 0, len(parsed.Files))
	for _, pf := range parsed.Files {
		if pf.Parsed() {
			mods = append(mods, pf.Module)
		}
	}
	r := newResolver(mods)
	res.r = r
	res.Files = make([]*File, 0, len(mods))
	for _, pf := range parsed.Files {
		if pf.Parsed() {
			res.Files = append(res.Files, r.resolveFile(pf))
		}
	}
	return res, nil
}

// resolveFile classifies every call and verb reference of one module.
func (r *resolver) resolveFile(pf *pyparse.File) *File {
	m := pf.Module
	f := &File{File: pf}
	var buf [16]string // a module's rebinders, on the stack unless it has more
	rb := rebindersOf(m, buf[:0])
	var stmts []Stmt // backing store of f.Stmts, one allocation per file
	for _, c := range m.Calls {
		if !r.full && !rb.mayBeVerb(c.Func) {
			continue
		}
		verb, st := r.resolve(c.Func, c.Scope, int(c.Span.Start.Offset), 0)
		switch {
		case st == gaia && isVerb(verb):
			if stmts == nil {
				stmts = make([]Stmt, 0, len(m.Calls))
			}
			stmts = append(stmts, Stmt{Verb: verb, Call: c})
		case st == unknown && Scanned(spelled(c.Func)):
			f.Unresolved = append(f.Unresolved, &Ref{Verb: spelled(c.Func), Text: c.Func.Text, Span: c.Func.Span, Call: c})
		}
	}
	if len(stmts) > 0 {
		f.Stmts = make([]*Stmt, len(stmts))
		f.byCall = make(map[*pyscan.Call]*Stmt, len(stmts))
		for i := range stmts {
			f.Stmts[i] = &stmts[i]
			f.byCall[stmts[i].Call] = &stmts[i]
		}
	}
	for _, n := range m.Names {
		if n.Ctx != pyscan.Load || n.Callee || !r.full && !Scanned(n.Name) && !rb.mayRebind(n.Name) {
			continue
		}
		// A name resolves as the name expression it is, whatever its
		// spelling (an alias `i` of infer counts).
		verb, st := r.resolveName(n.Name, n.Scope, int(n.Span.Start.Offset), 0)
		f.addRef(verb, st, n.Name, n.Name, n.Span)
	}
	for _, a := range m.Attrs {
		// An attribute only counts when spelled like a verb: attributes
		// cannot be renamed.
		if a.Ctx == pyscan.Load && !a.Callee && (a.Expr.Kind != pyscan.ExprAttr || Scanned(a.Expr.Name)) {
			verb, st := r.resolve(a.Expr, a.Scope, int(a.Expr.Span.Start.Offset), 0)
			f.addRef(verb, st, spelled(a.Expr), a.Expr.Text, a.Expr.Span)
		}
	}
	buildTitles(f)
	return f
}

// addRef records a load of a scanned verb that is not being called: the
// expression spelled name (written text at span) resolved to verb with
// status st.
func (f *File) addRef(verb string, st status, name, text string, span pyscan.Span) {
	switch {
	case st == gaia && Scanned(verb):
		f.Refs = append(f.Refs, &Ref{Verb: verb, Text: text, Span: span})
	case st == unknown && Scanned(name):
		f.Unresolved = append(f.Unresolved, &Ref{Verb: name, Text: text, Span: span})
	}
}

// spelled returns the name a callee is written with: the identifier of a
// name, the attribute of an attribute access, "" otherwise.
func spelled(e *pyscan.Expr) string {
	if e != nil && (e.Kind == pyscan.ExprName || e.Kind == pyscan.ExprAttr) {
		return e.Name
	}
	return ""
}

func lastPart(q string) string {
	return q[strings.LastIndexByte(q, '.')+1:]
}
