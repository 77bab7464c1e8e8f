package pyscan

import "testing"

// refAt returns the NameRef of name on line (1-based), the first one.
func refAt(t *testing.T, m *Module, name string, line int) *NameRef {
	t.Helper()
	for _, n := range m.Names {
		if n.Name == name && int(n.Span.Start.Line) == line {
			return n
		}
	}
	t.Fatalf("no reference to %s on line %d", name, line)
	return nil
}

func TestLookup(t *testing.T) {
	src := `from gaia.engine.lang import infer as i
x = 1
def f(i):
    return i
def g():
    for i in range(3):
        i
def h():
    i
class C:
    x = 2
    y = x
    def m(self):
        return x
    z = [x for _ in range(3)]
def outer():
    v = 1
    def inner():
        nonlocal v
        v = 2
        return v
    return v
def gl():
    global x
    x = 5
    return x
w = [i for i in range(2)]
i
def k():
    z2 = [q for q in range(2)]
    return q
def lam():
    return (lambda i: i)(1)
def walrus():
    [(y2 := n) for n in range(2)]
    return y2
try:
    pass
except E as i:
    pass
with c() as i:
    pass
`
	m := mustParse(t, src)
	if len(m.Syntax) > 0 {
		t.Fatalf("syntax: %v", m.Syntax)
	}
	kindOf := func(name string, line int) (ScopeKind, BindingKind, int) {
		r := refAt(t, m, name, line)
		s, bs := r.Scope.Lookup(name)
		if s == nil {
			return -1, -1, 0
		}
		return s.Kind, bs[0].Kind, len(bs)
	}
	tests := []struct {
		name  string
		line  int
		scope ScopeKind
		bind  BindingKind
	}{
		{"i", 4, FunctionScope, BindParam},   // parameter shadows the import
		{"i", 7, FunctionScope, BindLoop},    // loop variable shadows it
		{"i", 9, ModuleScope, BindImport},    // free name: the module import
		{"x", 12, ClassScope, BindAssign},    // class body sees class names
		{"x", 14, ModuleScope, BindAssign},   // methods skip the class scope
		{"x", 15, ModuleScope, BindAssign},   // so do comprehensions in a class
		{"v", 21, FunctionScope, BindAssign}, // nonlocal: outer's v
		{"v", 22, FunctionScope, BindAssign}, // outer sees the nonlocal rebinding
		{"x", 26, ModuleScope, BindAssign},   // global
		{"i", 27, ComprehensionScope, BindLoop},
		{"i", 28, ModuleScope, BindImport},
		{"q", 31, -1, -1}, // comprehension variables do not leak
		{"i", 33, LambdaScope, BindParam},
		{"y2", 36, FunctionScope, BindAssign}, // walrus binds outside the comprehension
	}
	for _, tc := range tests {
		s, b, _ := kindOf(tc.name, tc.line)
		if s != tc.scope || b != tc.bind {
			t.Errorf("%s on line %d: scope %d binding %d, want scope %d binding %d", tc.name, tc.line, s, b, tc.scope, tc.bind)
		}
	}
	// outer's v has two bindings: its own and inner's nonlocal one.
	if _, _, n := kindOf("v", 22); n != 2 {
		t.Errorf("outer v bindings = %d, want 2", n)
	}
	// module x: `x = 1` and gl's `global x; x = 5`.
	if _, bs := m.Root.Lookup("x"); len(bs) != 2 {
		t.Errorf("module x bindings = %d, want 2", len(bs))
	}
	// module i: import, except-as and with-as.
	_, bs := m.Root.Lookup("i")
	kinds := []BindingKind{}
	for _, b := range bs {
		kinds = append(kinds, b.Kind)
	}
	if len(kinds) != 3 || kinds[0] != BindImport || kinds[1] != BindExcept || kinds[2] != BindWith {
		t.Errorf("module i binding kinds = %v", kinds)
	}
	if s, _ := m.Root.Lookup("range"); s != nil {
		t.Error("a builtin resolved to a scope")
	}
}

func TestLookupMatchAndDel(t *testing.T) {
	src := `match cmd:
    case Point(x=px, y=0) as pt:
        pass
    case [first, *others]:
        pass
    case {"k": val, **more}:
        pass
    case Color.RED | _:
        pass
def d():
    del tmp
`
	m := mustParse(t, src)
	if len(m.Syntax) > 0 {
		t.Fatalf("syntax: %v", m.Syntax)
	}
	for _, name := range []string{"px", "pt", "first", "others", "val", "more"} {
		_, bs := m.Root.Lookup(name)
		if len(bs) != 1 || bs[0].Kind != BindOther {
			t.Errorf("capture %s: %v", name, bs)
		}
	}
	for _, name := range []string{"x", "y", "Point", "Color", "_", "RED"} {
		if _, bs := m.Root.Lookup(name); len(bs) != 0 {
			t.Errorf("%s must not be bound: %v", name, bs)
		}
	}
	if refs(m) != "cmd:load Point:load Color:load tmp:del" {
		t.Errorf("refs = %s", refs(m))
	}
	if _, bs := m.Scopes[1].Lookup("tmp"); len(bs) != 1 || bs[0].Kind != BindOther {
		t.Errorf("del target binding: %v", bs)
	}
}

func TestScopesList(t *testing.T) {
	m := mustParse(t, "def f():\n    class C:\n        g = lambda: [x for x in y]\n")
	kinds := []ScopeKind{}
	for _, s := range m.Scopes {
		kinds = append(kinds, s.Kind)
	}
	want := []ScopeKind{ModuleScope, FunctionScope, ClassScope, LambdaScope, ComprehensionScope}
	if len(kinds) != len(want) {
		t.Fatalf("scopes %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("scopes %v, want %v", kinds, want)
		}
		if i > 0 && m.Scopes[i].Parent != m.Scopes[i-1] {
			t.Errorf("scope %d parent wrong", i)
		}
	}
	if m.Scopes[0] != m.Root || m.Root.Parent != nil {
		t.Error("Root is not Scopes[0]")
	}
}
