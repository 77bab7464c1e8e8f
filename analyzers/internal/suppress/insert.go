package suppress

import (
	"bytes"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

// Insertion returns the edit that adds a directive silencing code for a
// finding on line (1-based) of the parsed module m, with its reason still
// to be written, and the offset after the edit where the reason goes.
//
// The directive trails the last line of the outermost call spanning line
// (a trailing directive covers every call spanning its line, so the whole
// statement); when that line already has a comment, a line continuation,
// or ends inside a string, an own-line directive goes above the
// statement's first line instead. An existing "# nullius: ignore[...]"
// directive there gets the code added to its list.
func Insertion(m *pyscan.Module, line int, code string) (diag.Edit, int) {
	src := m.Src
	first, last := line, line
	var outer *pyscan.Call
	for _, c := range m.Calls {
		if int(c.Span.Start.Line) <= line && line <= int(c.Span.End.Line) &&
			(outer == nil || c.Span.Start.Offset < outer.Span.Start.Offset || c.Span.End.Offset > outer.Span.End.Offset) {
			outer = c
		}
	}
	if outer != nil {
		first, last = int(outer.Span.Start.Line), int(outer.Span.End.Line)
	}
	start, end := lineBounds(src, last)
	for _, c := range m.Comments {
		if int(c.Span.Start.Line) != last {
			continue
		}
		// A well-formed directive there takes the code; anything else (a
		// plain comment, a directive with no reason) keeps its line.
		if d, problem := parse(&pyparse.File{Path: m.Path, Src: src, Module: m}, c); d != nil && problem == "" && !d.whole {
			at := int(c.Span.Start.Offset) + strings.Index(c.Text, "]")
			return diag.Edit{Start: at, End: at, NewText: "," + code}, int(c.Span.End.Offset) + len(code) + 1
		}
		return ownLine(src, first, code)
	}
	text := bytes.TrimRight(src[start:end], " \t")
	if bytes.HasSuffix(text, []byte(`\`)) || inString(m, end) {
		return ownLine(src, first, code)
	}
	ins := "  # nullius: ignore[" + code + "] "
	at := start + len(text)
	return diag.Edit{Start: at, End: end, NewText: ins}, at + len(ins)
}

// ownLine inserts a directive on its own line above line, indented like it.
func ownLine(src []byte, line int, code string) (diag.Edit, int) {
	start, end := lineBounds(src, line)
	indent := src[start : start+len(src[start:end])-len(bytes.TrimLeft(src[start:end], " \t"))]
	dir := string(indent) + "# nullius: ignore[" + code + "] "
	return diag.Edit{Start: start, End: start, NewText: dir + "\n"}, start + len(dir)
}

// lineBounds returns the offsets of the start of line (1-based) and of its
// end, before the line break.
func lineBounds(src []byte, line int) (int, int) {
	start := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			break
		}
		start += i + 1
	}
	end := start
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(src)
	}
	if end > start && src[end-1] == '\r' {
		end--
	}
	return start, end
}

// inString reports whether offset lies strictly inside a string literal
// of an argument or an assigned value (a line ending inside a triple-quoted
// string cannot take a trailing comment).
func inString(m *pyscan.Module, offset int) bool {
	var found bool
	check := func(e *pyscan.Expr) {
		if e != nil && (e.Kind == pyscan.ExprString || e.Kind == pyscan.ExprFString || e.Kind == pyscan.ExprBytes) &&
			int(e.Span.Start.Offset) < offset && offset < int(e.Span.End.Offset) {
			found = true
		}
	}
	for _, c := range m.Calls {
		for _, a := range c.Args {
			check(a)
		}
		for _, k := range c.Keywords {
			check(k.Value)
		}
	}
	for _, a := range m.Assigns {
		check(a.Value)
	}
	return found
}
