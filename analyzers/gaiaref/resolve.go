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

// resolve returns the qualified name an expression evaluates to, as seen
// at byte offset at inside scope, and whether it is Gaia's.
//
//	Have: i            (from gaia.engine.lang import infer as i) -> gaia.engine.lang.infer
//	Have: lang.infer   (import gaia.engine.lang as lang)         -> gaia.engine.lang.infer
//	Have: self.observe (self a parameter)                        -> other
func (r *resolver) resolve(e *pyscan.Expr, scope *pyscan.Scope, at, depth int) (string, status) {
	if e == nil || depth > maxDepth {
		return "", unknown
	}
	switch e.Kind {
	case pyscan.ExprName:
		return r.resolveName(e.Name, scope, at, depth)
	case pyscan.ExprAttr:
		q, st := r.resolve(e.Recv, scope, at, depth)
		if st == unknown {
			return "", unknown
		}
		return q + "." + e.Name, st
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
		if mod, ok := gaiaStar(scope); ok {
			return mod + "." + name, gaia
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
				return r.resolve(b.Assign.Value, b.Assign.Scope, b.Assign.Span.Start.Offset, depth+1)
			}
		}
	}
	return name, other
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
			if b.Span.Start.Offset <= at {
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
			if q, st := importTarget(b.Import); st == gaia && isVerb(lastPart(q)) {
				return b
			}
		}
	}
	return bs[len(bs)-1]
}

// importTarget returns what an import binding names.
func importTarget(imp *pyscan.Import) (string, status) {
	if imp == nil {
		return "", unknown
	}
	var q string
	switch {
	case imp.From && imp.Level > 0:
		return strings.Repeat(".", imp.Level) + imp.Module + "." + imp.Name, other
	case imp.From:
		q = imp.Module + "." + imp.Name
	case imp.Alias == strings.Split(imp.Module, ".")[0]:
		// `import gaia.engine.lang` binds the top package `gaia`.
		q = imp.Alias
	default:
		q = imp.Module // `import gaia.engine.lang as lang`
	}
	if isGaiaModule(q) {
		return q, gaia
	}
	return q, other
}

// gaiaStar returns the module of a `from gaia... import *` visible from
// scope.
func gaiaStar(scope *pyscan.Scope) (string, bool) {
	for s := scope; s != nil; s = s.Parent {
		for _, imp := range s.StarFrom {
			if imp.Level == 0 && isGaiaModule(imp.Module) {
				return imp.Module, true
			}
		}
	}
	return "", false
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
	byPath map[string]*pyscan.Module // slash path -> module
	byRoot map[*pyscan.Scope]*pyscan.Module
}

func newResolver(mods []*pyscan.Module) *resolver {
	r := &resolver{byPath: map[string]*pyscan.Module{}, byRoot: map[*pyscan.Scope]*pyscan.Module{}}
	for _, m := range mods {
		r.byPath[m.Path] = m
		r.byRoot[m.Root] = m
	}
	return r
}

// relative resolves `from .mod import name` against the package's own
// modules: the name's module-level binding in mod, as seen at its end.
func (r *resolver) relative(imp *pyscan.Import, scope *pyscan.Scope, depth int) (string, status) {
	local := strings.Repeat(".", imp.Level) + imp.Module + "." + imp.Name
	if depth >= maxDepth {
		return local, other
	}
	if m := r.module(imp, scope); m != nil && m.Root != nil {
		if q, st := r.resolveName(imp.Name, m.Root, len(m.Src), depth+1); st == gaia {
			return q, gaia
		}
	}
	return local, other
}
