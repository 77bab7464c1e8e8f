package gaiaref

import (
	"path"
	"strings"

	"github.com/nullius-dev/nullius/pyscan"
)

// status is what resolution could prove about an expression.
type status int

const (
	unknown status = iota // provenance cannot be decided statically
	gaia                  // bound to something imported from a gaia module
	other                 // bound to something else: not Gaia
)

// maxDepth bounds alias chains (`a = b`, `b = c`, ...).
const maxDepth = 8

// isGaiaModule reports whether an absolute module path belongs to Gaia.
func isGaiaModule(mod string) bool { return mod == "gaia" || strings.HasPrefix(mod, "gaia.") }

// resolve returns the last part of the qualified name an expression
// evaluates to (its verb, for a Gaia verb), as seen at byte offset at
// inside scope, and whether it is Gaia's. Only the last part is returned:
// every caller asks for the verb, so the dotted name is never built (a
// concatenation per call and per verb reference of every module).
//
//	Have: i            (from gaia.engine.lang import infer as i) -> infer (gaia.engine.lang.infer)
//	Have: lang.infer   (import gaia.engine.lang as lang)         -> infer (gaia.engine.lang.infer)
//	Have: self.observe (self a parameter)                        -> other
func (r *resolver) resolve(e *pyscan.Expr, scope *pyscan.Scope, at, depth int) (string, status) {
	if e == nil || depth > maxDepth {
		return "", unknown
	}
	switch e.Kind {
	case pyscan.ExprName:
		return r.resolveName(e.Name, scope, at, depth)
	case pyscan.ExprAttr:
		_, st := r.resolve(e.Recv, scope, at, depth)
		if st == unknown {
			return "", unknown
		}
		return lastPart(e.Name), st
	}
	// Call results, subscripts and the like: runtime values.
	return "", unknown
}

func (r *resolver) resolveName(name string, scope *pyscan.Scope, at, depth int) (string, status) {
	if scope == nil {
		return "", unknown
	}
	bindScope, bs := scope.Lookup(name)
	if len(bs) == 0 {
		if gaiaStar(scope) {
			return lastPart(name), gaia
		}
		return r.relativeStar(name, scope, depth)
	}
	b := pick(bs, bindScope == scope, at)
	switch b.Kind {
	case pyscan.BindImport:
		if b.Import != nil && b.Import.From && b.Import.Level > 0 {
			return r.relative(b.Import, scope, depth)
		}
		return importTarget(b.Import)
	case pyscan.BindAssign:
		// A simple alias of a name or attribute keeps its provenance:
		// `lang2 = lang`, `i = infer`.
		if b.Simple && b.Assign != nil && b.Assign.Value != nil {
			if k := b.Assign.Value.Kind; k == pyscan.ExprName || k == pyscan.ExprAttr {
				return r.resolve(b.Assign.Value, b.Assign.Scope, int(b.Assign.Span.Start.Offset), depth+1)
			}
		}
	}
	return lastPart(name), other
}

// pick chooses the binding that is live at offset at. In the binding's own
// scope that is the nearest binding before the use (a loop variable that
// rebinds an import alias wins after the loop starts); from a nested
// scope, which runs later, any Gaia verb import wins, so a statement is
// never missed, and otherwise the last binding.
func pick(bs []*pyscan.Binding, sameScope bool, at int) *pyscan.Binding {
	if sameScope {
		var best *pyscan.Binding
		for _, b := range bs {
			if int(b.Span.Start.Offset) <= at {
				best = b
			}
		}
		if best != nil {
			return best
		}
		return bs[0]
	}
	for _, b := range bs {
		if b.Kind == pyscan.BindImport {
			if verb, st := importTarget(b.Import); st == gaia && isVerb(verb) {
				return b
			}
		}
	}
	return bs[len(bs)-1]
}

// importTarget returns the last part of what an import binding names
// (the qualified name's last part: `from gaia.engine.lang import infer`
// -> infer) and whether it is Gaia's, without building the qualified
// name.
func importTarget(imp *pyscan.Import) (string, status) {
	if imp == nil {
		return "", unknown
	}
	switch first, _, _ := strings.Cut(imp.Module, "."); {
	case imp.From && imp.Level > 0:
		return lastPart(imp.Name), other // .mod.name
	case imp.From:
		// module.name is Gaia's exactly when module is: the name adds a
		// part after a dot.
		return lastPart(imp.Name), gaiaIf(isGaiaModule(imp.Module))
	case imp.Alias == first:
		// `import gaia.engine.lang` binds the top package `gaia`.
		return lastPart(imp.Alias), gaiaIf(isGaiaModule(imp.Alias))
	default:
		return lastPart(imp.Module), gaiaIf(isGaiaModule(imp.Module)) // `import gaia.engine.lang as lang`
	}
}

// gaiaIf is gaia when ok, other otherwise.
func gaiaIf(ok bool) status {
	if ok {
		return gaia
	}
	return other
}

// gaiaStar reports whether a `from gaia... import *` is visible from
// scope.
func gaiaStar(scope *pyscan.Scope) bool {
	for s := scope; s != nil; s = s.Parent {
		for _, imp := range s.StarFrom {
			if imp.Level == 0 && isGaiaModule(imp.Module) {
				return true
			}
		}
	}
	return false
}

// relativeStar resolves a name no scope binds through the package-local
// star imports in scope (`from .helpers import *`): the first module that
// binds it decides. Nothing found stays unknown.
func (r *resolver) relativeStar(name string, scope *pyscan.Scope, depth int) (string, status) {
	if depth >= maxDepth {
		return "", unknown
	}
	for s := scope; s != nil; s = s.Parent {
		for _, imp := range s.StarFrom {
			if imp.Level == 0 {
				continue
			}
			if m := r.module(imp, scope); m != nil && m.Root != nil && len(m.Root.Bindings[name]) > 0 {
				return r.resolveName(name, m.Root, len(m.Src), depth+1)
			}
		}
	}
	return "", unknown
}

// module finds the package module a relative import names, seen from the
// module that holds scope.
func (r *resolver) module(imp *pyscan.Import, scope *pyscan.Scope) *pyscan.Module {
	root := scope
	for root.Parent != nil {
		root = root.Parent
	}
	r.index()
	from := r.byRoot[root]
	if from == nil {
		return nil
	}
	dir := path.Dir(from.Path)
	for range imp.Level - 1 {
		dir = path.Dir(dir)
	}
	base := path.Join(dir, strings.ReplaceAll(imp.Module, ".", "/"))
	for _, cand := range []string{base + ".py", base + "/__init__.py"} {
		if m := r.byPath[cand]; m != nil && m != from {
			return m
		}
	}
	return nil
}

// resolver resolves names across the modules of one package, so that
// `from .helpers import infer as I` is followed into helpers.py (W6: a
// helper module re-exporting a Gaia verb no longer hides statements).
type resolver struct {
	mods []*pyscan.Module
	// byPath and byRoot index mods, made on the first relative import
	// (most packages have none).
	byPath map[string]*pyscan.Module // slash path -> module
	byRoot map[*pyscan.Scope]*pyscan.Module
	// full resolves every name and callee, unfiltered: the oracle the
	// filter's tests compare with.
	full bool
}

func newResolver(mods []*pyscan.Module) *resolver { return &resolver{mods: mods} }

// index makes byPath and byRoot.
func (r *resolver) index() {
	if r.byPath != nil {
		return
	}
	r.byPath = make(map[string]*pyscan.Module, len(r.mods))
	r.byRoot = make(map[*pyscan.Scope]*pyscan.Module, len(r.mods))
	for _, m := range r.mods {
		r.byPath[m.Path] = m
		r.byRoot[m.Root] = m
	}
}

// relative resolves `from .mod import name` against the package's own
// modules: the name's module-level binding in mod, as seen at its end.
// What is not Gaia's is the local name .mod.name, whose last part is name.
func (r *resolver) relative(imp *pyscan.Import, scope *pyscan.Scope, depth int) (string, status) {
	if depth >= maxDepth {
		return lastPart(imp.Name), other
	}
	if m := r.module(imp, scope); m != nil && m.Root != nil {
		if verb, st := r.resolveName(imp.Name, m.Root, len(m.Src), depth+1); st == gaia {
			return verb, gaia
		}
	}
	return lastPart(imp.Name), other
}
