package gaiaref

import "github.com/nullius-dev/nullius/pyscan"

// Most names a module loads are locals, parameters and builtins no rule
// asks about, and resolving every one of them (a walk up the scope chain,
// then the binding live at the use) was most of gaiaref's time. Only few
// can come out as something to record. A name resolves to a verb other
// than its own spelling only through a binding that carries provenance:
// an import, or a simple alias `x = name` / `x = a.b`. Any other binding
// resolves to "not Gaia", and no binding at all resolves to the name
// itself (a Gaia star import) or to unknown, unless a package-local star
// import lets another module bind it. So resolveFile resolves a loaded
// name only when it is spelled like a scanned verb (observe, infer,
// register_prior: the only ones a reference records), is bound by an
// import or an alias somewhere in the module, or the module has a
// relative star import; a callee only when it is spelled like a verb or
// may be rebound, an attribute callee only when its attribute is a verb
// (the verb of `x.attr` is attr). TestSkipIsSound and FuzzSkipIsSound
// hold the filtered result to the full resolution.

// rebinders are the names of one module that may resolve to something
// other than themselves. A module has a handful (its imports), so they
// are a slice, scanned only for a name whose length one of them has:
// cheaper than hashing every name a module loads, and no map to make.
type rebinders struct {
	names   []string // import aliases and targets of name/attribute assignments
	lens    uint64   // bit len%64 set for the length of each of names
	relStar bool     // a `from .m import *` anywhere in the module
}

// rebindersOf collects them for m, in buf.
func rebindersOf(m *pyscan.Module, buf []string) rebinders {
	rb := rebinders{names: buf[:0]}
	add := func(name string) {
		rb.names = append(rb.names, name)
		rb.lens |= 1 << (len(name) % 64)
	}
	for _, imp := range m.Imports {
		switch {
		case imp.Name == "*":
			rb.relStar = rb.relStar || imp.Level > 0
		case imp.Alias != "":
			add(imp.Alias)
		}
	}
	for _, a := range m.Assigns {
		// A simple alias has exactly one target.
		if len(a.Targets) != 1 || a.Value == nil || a.Value.Kind != pyscan.ExprName && a.Value.Kind != pyscan.ExprAttr {
			continue
		}
		if t := a.Targets[0]; t != nil && t.Kind == pyscan.ExprName {
			add(t.Name)
		}
	}
	return rb
}

// mayRebind reports whether name may resolve to something other than
// itself.
func (rb rebinders) mayRebind(name string) bool {
	if rb.relStar {
		return true
	}
	if rb.lens&(1<<(len(name)%64)) == 0 {
		return false
	}
	for _, n := range rb.names {
		if n == name {
			return true
		}
	}
	return false
}

// mayBeVerb reports whether a callee may resolve to a Gaia verb or be
// recorded as unresolved.
func (rb rebinders) mayBeVerb(e *pyscan.Expr) bool {
	switch {
	case e == nil:
		return false
	case e.Kind == pyscan.ExprAttr:
		return isVerb(e.Name)
	case e.Kind == pyscan.ExprName:
		return isVerb(e.Name) || rb.mayRebind(e.Name)
	}
	return false // a call result, a subscript: resolved as unknown, spelled ""
}
