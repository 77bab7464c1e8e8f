package fix

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// Unsafe applies edits to src and returns why the result is not a safe
// rewrite of it, or "" when it is (see the package doc). Both versions are
// parsed; a file that did not parse before is left alone, since nothing can
// be proved about it.
func Unsafe(path string, src []byte, edits []diag.Edit) string {
	fixed, err := Apply(src, edits)
	if err != nil {
		return err.Error()
	}
	p := pyscan.NewParser()
	defer p.Close()
	before, err := p.Parse(path, src)
	if err != nil || len(before.Syntax) > 0 {
		return "the file does not parse"
	}
	after, err := p.Parse(path, fixed)
	if err != nil {
		return err.Error()
	}
	if len(after.Syntax) > 0 {
		s := after.Syntax[0]
		return fmt.Sprintf("the fixed file would not parse: line %d: %s", s.Span.Start.Line, s.Msg)
	}
	if b, a := numbers(before), numbers(after); !slices.Equal(b, a) {
		return "it would change the number literals " + describe(b, a)
	}
	if lost := lostArgument(before, after); lost != "" {
		return "it would drop " + lost
	}
	return ""
}

// numbers returns the distinct number literals of m (as written), sorted.
func numbers(m *pyscan.Module) []string {
	var out []string
	for _, e := range exprs(m) {
		walk(e, func(x *pyscan.Expr) {
			if x.Kind == pyscan.ExprNumber || x.Kind == pyscan.ExprComplex {
				out = append(out, x.Text)
			}
		})
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// describe names the literals only one side has.
func describe(before, after []string) string {
	var gone, added []string
	for _, b := range before {
		if !slices.Contains(after, b) {
			gone = append(gone, b)
		}
	}
	for _, a := range after {
		if !slices.Contains(before, a) {
			added = append(added, a)
		}
	}
	return fmt.Sprintf("(removes %v, adds %v)", gone, added)
}

// exprs returns the top-level expressions of m: call arguments and
// assigned values.
func exprs(m *pyscan.Module) []*pyscan.Expr {
	var out []*pyscan.Expr
	for _, c := range m.Calls {
		out = append(out, c.Func)
		out = append(out, c.Args...)
		for _, k := range c.Keywords {
			out = append(out, k.Value)
		}
	}
	for _, a := range m.Assigns {
		if a.Value != nil {
			out = append(out, a.Value)
		}
	}
	return out
}

// walk calls fn on e and every expression below it.
func walk(e *pyscan.Expr, fn func(*pyscan.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	walk(e.Recv, fn)
	for _, x := range e.Operand() {
		walk(x, fn)
	}
	for _, x := range e.Elems() {
		walk(x, fn)
	}
	for _, x := range e.Keys() {
		walk(x, fn)
	}
	// e.Call's arguments are Module.Calls entries of their own.
}

// content is what an argument means, independent of how it is spelled: a
// string's decoded value (an f-string without placeholders included),
// otherwise the source text.
func content(e *pyscan.Expr) string {
	switch {
	case e == nil:
		return ""
	case e.Kind == pyscan.ExprString, e.Kind == pyscan.ExprFString && e.ConstOnly:
		return "str:" + e.Str
	}
	return strings.Join(strings.Fields(e.Text), " ")
}

// lostArgument returns a description of the first call argument of
// before that no call of after with the same callee still has, or of a
// callee called fewer times after than before, or "".
func lostArgument(before, after *pyscan.Module) string {
	have := map[string]bool{}
	calls := map[string]int{}
	for _, c := range after.Calls {
		calls[c.Func.Text]++
		for _, a := range argKeys(c) {
			have[a] = true
		}
	}
	for _, c := range before.Calls {
		calls[c.Func.Text]--
		for _, a := range argKeys(c) {
			if !have[a] {
				return fmt.Sprintf("an argument of the call to %s at line %d", c.Func.Text, c.Span.Start.Line)
			}
		}
	}
	for _, c := range before.Calls {
		if calls[c.Func.Text] < 0 {
			return fmt.Sprintf("a call to %s", c.Func.Text)
		}
	}
	return ""
}

// argKeys names each argument of c with its callee: "f\x00pos\x00text" for
// a positional argument, "f\x00kw\x00name\x00content" for a keyword.
func argKeys(c *pyscan.Call) []string {
	f := c.Func.Text
	var keys []string
	for _, a := range c.Args {
		keys = append(keys, f+"\x00pos\x00"+content(a))
	}
	for _, k := range c.Keywords {
		keys = append(keys, f+"\x00kw\x00"+k.Name+"\x00"+content(k.Value))
	}
	return keys
}
