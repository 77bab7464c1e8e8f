package analyzers

import (
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/pyscan"
)

// sourceMap locates compiled knowledge in the Python source, so IR
// findings about a claim point at the line that declares it. Gaia labels a
// knowledge by the first module variable bound to it (_assign_labels), so
// the first module-level `label = ...` of the root module wins, then of
// the other modules in file order.
type sourceMap struct {
	root  string // <SourceRoot>/__init__.py
	files []*pyparse.File
}

func newSourceMap(p Package, parsed *pyparse.Result) *sourceMap {
	return &sourceMap{root: p.SourceRoot + "/__init__.py", files: parsed.Files}
}

// Knowledge implements ir.SourceMap.
func (m *sourceMap) Knowledge(label string) (string, int, int, bool) {
	for _, rootFirst := range []bool{true, false} {
		for _, f := range m.files {
			if !f.Parsed() || (f.Path == m.root) != rootFirst {
				continue
			}
			if pos, ok := declaration(f.Module, label); ok {
				return f.Path, int(pos.Line), int(pos.Col), true
			}
		}
	}
	return "", 0, 0, false
}

// Action implements ir.SourceMap. Gaia's action labels are generated at
// compile time and are not recoverable from the source text alone.
// TODO(analyzers): map action labels once the IR records statement lines.
func (m *sourceMap) Action(string) (string, int, int, bool) { return "", 0, 0, false }

// declaration finds the first module-level assignment to name.
func declaration(mod *pyscan.Module, name string) (pyscan.Pos, bool) {
	for _, a := range mod.Assigns {
		if a.Scope != mod.Root {
			continue
		}
		for _, t := range a.Targets {
			if t.Kind == pyscan.ExprName && t.Name == name {
				return t.Span.Start, true
			}
		}
	}
	return pyscan.Pos{}, false
}
