package pyscan

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDumpTree prints the flat tree of $PYSCAN_DUMP (a debugging aid; skipped
// unless the variable is set).
func TestDumpTree(t *testing.T) {
	path := os.Getenv("PYSCAN_DUMP")
	if path == "" {
		t.Skip("set PYSCAN_DUMP=file.py to dump its tree")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFlatParser()
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	nodes, err := f.parse(src)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := grammarSymbols()
	fields := map[uint16]string{}
	for _, fn := range []string{"name", "alias", "value", "left", "right", "function", "arguments", "object", "attribute", "body", "parameters", "module_name", "key", "type", "operator", "argument", "definition", "superclasses", "subscript", "expression", "code", "cause", "condition", "alternative", "consequence", "subject", "guard", "return_type", "type_parameters", "operators", "format_specifier", "type_conversion"} {
		fields[fieldID(fn)] = fn
	}
	depth := []int{}
	for i := range nodes {
		for len(depth) > 0 && i >= depth[len(depth)-1] {
			depth = depth[:len(depth)-1]
		}
		n := &nodes[i]
		name := "?"
		if int(n.sym) < len(names) {
			name = names[n.sym]
		}
		if n.isError() {
			name = "ERROR"
		}
		fmt.Printf("%s%s[%d] %s %d-%d flags=%d %q\n", strings.Repeat("  ", len(depth)), fields[n.field], n.sym, name, n.start, n.end, n.flags, string(src[n.start:n.end]))
		depth = append(depth, i+int(n.size))
	}
}

// TestDumpModel prints the model of $PYSCAN_MODEL (debugging aid).
func TestDumpModel(t *testing.T) {
	path := os.Getenv("PYSCAN_MODEL")
	if path == "" {
		t.Skip("set PYSCAN_MODEL=file.py to dump its model")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseSource(path, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Syntax {
		fmt.Printf("SYNTAX %d:%d-%d:%d %s\n", e.Span.Start.Line, e.Span.Start.Col, e.Span.End.Line, e.Span.End.Col, e.Msg)
	}
	for _, im := range m.Imports {
		fmt.Printf("IMPORT %+v scope=%d\n", *im, im.Scope.Kind)
	}
	for _, c := range m.Calls {
		fmt.Printf("CALL %d:%d %s args=%d kws=%d star=%v kw=%v dec=%v scope=%d\n", c.Span.Start.Line, c.Span.Start.Col, c.Func.Text, len(c.Args), len(c.Keywords), c.StarArgs, c.KwSplat, c.Decorator, c.Scope.Kind)
		for _, a := range c.Args {
			fmt.Printf("   arg %s kind=%d str=%q num=%v int=%v\n", a.Text, a.Kind, a.Str, a.Num, a.IsInt)
		}
		for _, k := range c.Keywords {
			fmt.Printf("   kw %s= %s kind=%d str=%q num=%v const=%v\n", k.Name, k.Value.Text, k.Value.Kind, k.Value.Str, k.Value.Num, k.Value.ConstOnly)
		}
	}
	for _, n := range m.Names {
		fmt.Printf("NAME %d:%d %s ctx=%d callee=%v scope=%d\n", n.Span.Start.Line, n.Span.Start.Col, n.Name, n.Ctx, n.Callee, n.Scope.Kind)
	}
	for _, a := range m.Attrs {
		fmt.Printf("ATTR %d:%d %s ctx=%d callee=%v\n", a.Expr.Span.Start.Line, a.Expr.Span.Start.Col, a.Expr.Text, a.Ctx, a.Callee)
	}
	for _, a := range m.Assigns {
		fmt.Printf("ASSIGN %d:%d targets=%d ann=%v aug=%v walrus=%v op=%s\n", a.Span.Start.Line, a.Span.Start.Col, len(a.Targets), a.Annotated, a.Augmented, a.Walrus, a.Op)
	}
	for _, d := range m.Defs {
		fmt.Printf("DEF %s %d params=%v\n", d.Name, d.Kind, d.Params)
	}
	for i, s := range m.Scopes {
		fmt.Printf("SCOPE %d kind=%d globals=%v nonlocals=%v star=%d\n", i, s.Kind, s.Globals, s.Nonlocals, len(s.StarFrom))
		for name, bs := range s.Bindings {
			for _, bd := range bs {
				fmt.Printf("   bind %s kind=%d simple=%v\n", name, bd.Kind, bd.Simple)
			}
		}
	}
	if m.All != nil {
		fmt.Printf("ALL %v literal=%v\n", m.All.Names, m.All.Literal)
	}
	for _, c := range m.Comments {
		fmt.Printf("COMMENT %d:%d %s\n", c.Span.Start.Line, c.Span.Start.Col, c.Text)
	}
}
