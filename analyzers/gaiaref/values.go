package gaiaref

import "github.com/nullius-dev/nullius/pyscan"

// Definition follows a name (or an attribute of a package module, `m.x`
// after `from . import m`) used at byte offset at inside scope to the
// simple assignment `name = value` that binds it, through simple aliases
// (`r2 = reach`) and the package's relative imports (`from .claims import
// reach`). It returns nil when the value cannot be pinned to one such
// assignment: a parameter, a loop variable, a tuple target, an import from
// outside the package, no binding at all. Rules that follow values rather
// than verbs (the reader-flow graph of GAIA507) use it, as far as names
// resolve.
func (res *Result) Definition(e *pyscan.Expr, scope *pyscan.Scope, at int) *pyscan.Assign {
	if res == nil || res.r == nil {
		return nil
	}
	return res.r.definition(e, scope, at, 0)
}

func (r *resolver) definition(e *pyscan.Expr, scope *pyscan.Scope, at, depth int) *pyscan.Assign {
	if e == nil || scope == nil || depth > maxDepth {
		return nil
	}
	switch e.Kind {
	case pyscan.ExprName:
		return r.nameDefinition(e.Name, scope, at, depth)
	case pyscan.ExprAttr:
		// `m.x` where m is a package module imported relatively.
		if e.Recv == nil || e.Recv.Kind != pyscan.ExprName {
			return nil
		}
		_, bs := scope.Lookup(e.Recv.Name)
		if len(bs) != 1 || bs[0].Kind != pyscan.BindImport || bs[0].Import == nil {
			return nil
		}
		imp := bs[0].Import
		if !imp.From || imp.Level == 0 {
			return nil
		}
		sub := *imp // `from . import m` names module m itself
		sub.Module = joinModule(imp.Module, imp.Name)
		if m := r.module(&sub, scope); m != nil && m.Root != nil {
			return r.nameDefinition(e.Name, m.Root, len(m.Src), depth+1)
		}
	}
	return nil
}

func (r *resolver) nameDefinition(name string, scope *pyscan.Scope, at, depth int) *pyscan.Assign {
	bindScope, bs := scope.Lookup(name)
	if len(bs) == 0 {
		return nil
	}
	b := pick(bs, bindScope == scope, at)
	switch b.Kind {
	case pyscan.BindImport:
		imp := b.Import
		if imp == nil || !imp.From || imp.Level == 0 || imp.Name == "*" {
			return nil
		}
		if m := r.module(imp, scope); m != nil && m.Root != nil {
			return r.nameDefinition(imp.Name, m.Root, len(m.Src), depth+1)
		}
	case pyscan.BindAssign:
		a := b.Assign
		if !b.Simple || a == nil || a.Value == nil {
			return nil
		}
		if k := a.Value.Kind; k == pyscan.ExprName || k == pyscan.ExprAttr {
			return r.definition(a.Value, a.Scope, int(a.Span.Start.Offset), depth+1)
		}
		return a
	}
	return nil
}

func joinModule(mod, name string) string {
	if mod == "" {
		return name
	}
	return mod + "." + name
}
