package pyscan

import (
	"sort"
	"strings"
	"testing"
)

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		src, want string
		line, col int
	}{
		{"x = (1,\n", `'(' was never closed`, 1, 1},
		{"x = [1, 2\ny = 3\n", `'[' was never closed`, 1, 0},
		{"claim(\"x\", title=\"t\"))\n", `unmatched ')'`, 1, 0},
		{"x = 'abc\n", "unterminated string literal", 1, 5},
		{"x = '''abc\n", "unterminated string literal", 1, 5},
		{"def f()\n    pass\n", `expected ':' after 'def f()'`, 1, 1},
		{"if x\n    pass\n", `expected ':' after 'if x'`, 1, 1},
		{"infer(a=1 b=2)\n", `invalid syntax near 'b=2'`, 1, 11},
		{"f(a=1, " + strings.Repeat("k=1, ", 20) + "b)\n", "keyword argument repeated: k", 1, 0},
		{"s = '\u200b' # \u200b\nx = 1\u200b\ny = '\ufeff'\n", "invalid non-printable character U+200B", 2, 6},
		{"def f(:\n    pass\n", `missing ')'`, 1, 7},
		{"x = = 2\n", "invalid syntax near", 1, 0},
		// ast.parse accepts a repeated keyword, CPython's compiler rejects
		// it; a module that cannot be compiled is a syntax error to nullius.
		{"f(a=1, a=2)\n", "keyword argument repeated: a", 1, 8},
		{"f(a=1, b)\n", "positional argument follows keyword argument", 1, 8},
		{"f(**k, b)\n", "positional argument follows keyword argument unpacking", 1, 8},
		{"print 'x'\n", "Missing parentheses in call to print", 1, 1},
		{"x = 1L\n", "long suffix", 1, 5},
		{"x = 012\n", "leading zeros", 1, 5},
		{"x = 1__0\n", "invalid syntax", 1, 5},
		{"x = 1_\n", "misplaced underscore", 1, 5},
		{"x = '\\x4'\n", `truncated \xXX escape`, 1, 5},
		{"x = '\\N{NOT A NAME}'\n", "unknown Unicode character name", 1, 5},
		{"x = b'é'\n", "bytes can only contain ASCII", 1, 5},
		{"x = b'a' 'b'\n", "cannot mix bytes and nonbytes literals", 1, 5},
		{"x = f'{a}\\x4'\n", `truncated \xXX escape`, 1, 5},
		{"x = bf'{a}'\n", `invalid string prefix 'bf'`, 1, 5},
		{"f() = 1\n", "invalid syntax", 1, 1},
		{"with a as f(): pass\n", `cannot assign to expression 'f()'`, 1, 11},
		{"del f()\n", `cannot delete expression 'f()'`, 1, 5},
		{"if a <> b: pass\n", `'<>' is Python 2`, 1, 6},
		{"x = 1\n\x00\n", "source contains a NUL byte", 2, 1},
		{"x = \ufeff1\n", "invalid non-printable character U+FEFF", 1, 5},
		{"x = 1\u200b\n", "invalid non-printable character U+200B", 1, 6},
		{"if x:\nfoo()\n", "expected an indented block", 1, 6},
		{"def f():\n    x = 1\n  y = 2\n", "unindent does not match any outer indentation level", 3, 3},
		{"x = 1\n  y = 2\n", "unexpected indent", 2, 3},
		{"if a:\n    b\n  c\n", "unindent does not match any outer indentation level", 3, 3},
		{"def f(a=1, b): pass\n", "non-default argument follows default argument", 1, 12},
		{"def f(*): pass\n", "named arguments must follow bare *", 1, 7},
		{"del *a\n", "cannot delete starred", 1, 5},
		{"x := 1\n", "assignment expression statement must be parenthesized", 1, 1},
		{"x.None = 1\n", `'None' is a keyword`, 1, 3},
		{"await = 1\n", `'await' is a keyword`, 1, 1},
		{"class C(metaclass=M, x): pass\n", "positional argument follows keyword argument", 1, 22},
		{"x = 'a\xffb'\n", "file is not valid UTF-8: invalid byte 0xff", 1, 7},
		{"# -*- coding: latin-1 -*-\nx = '\xb1'\n", `invalid byte 0xb1 (the file declares coding 'latin-1'; nullius reads UTF-8 only`, 2, 6},
		{"\xef\xbb\xbfx = '\xc3'\n", "file is not valid UTF-8: invalid byte 0xc3", 1, 9},
	}
	for _, tc := range tests {
		m := mustParse(t, tc.src)
		if len(m.Syntax) == 0 {
			t.Errorf("%q: no syntax error, want %q", tc.src, tc.want)
			continue
		}
		var hit *SyntaxError
		for i := range m.Syntax {
			if strings.Contains(m.Syntax[i].Msg, tc.want) {
				hit = &m.Syntax[i]
				break
			}
		}
		if hit == nil {
			t.Errorf("%q: errors %v, want one containing %q", tc.src, m.Syntax, tc.want)
			continue
		}
		if tc.line != 0 && int(hit.Span.Start.Line) != tc.line {
			t.Errorf("%q: line %d, want %d", tc.src, hit.Span.Start.Line, tc.line)
		}
		if tc.col != 0 && int(hit.Span.Start.Col) != tc.col {
			t.Errorf("%q: col %d, want %d", tc.src, hit.Span.Start.Col, tc.col)
		}
	}
}

// TestDeepNesting checks that hostile nesting is refused with a syntax
// error instead of exhausting the stack, and that what CPython accepts
// (about 2988 levels) is still accepted.
func TestDeepNesting(t *testing.T) {
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{"x = " + strings.Repeat("-", 2900) + "1\n", true},
		{"x = a" + strings.Repeat(".b", 2900) + "\n", true},
		{"x = " + strings.Repeat("-", 20000) + "1\n", false},
		{"x = " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + "\n", true},
		{"x = " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201) + "\n", false},
		{"x = " + strings.Repeat("- ", 2900) + "1\n", true},
		{"x = '" + strings.Repeat("(", 300) + "' # " + strings.Repeat("[", 300) + "\ny = '''\n" + strings.Repeat("{-", 300) + "'''\n", true},
		{"x = r'\\\\'" + strings.Repeat("(", 150) + strings.Repeat(")", 150) + "\n", true},
		{"x = " + strings.Repeat("-", 1<<22) + "1\n", false}, // refused before tree-sitter: fast
		{"x = " + strings.Repeat("[", 1<<22) + "\n", false},
		{"x = a" + strings.Repeat(".b", 1<<21) + "\n", false},
		{strings.Repeat("...\n", 5000), true},
		{"x = [" + strings.Repeat("1.5, ", 5000) + "]\n", true},
		{"x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "\n", false},
		{strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n", false},
		{"x = a" + strings.Repeat(".b", 20000) + "\n", false},
		{"f(" + strings.Repeat("g(", 4000) + strings.Repeat(")", 4001) + "\n", false},
	} {
		m := mustParse(t, tc.src)
		if (len(m.Syntax) == 0) != tc.ok {
			t.Errorf("%.20q... (%d bytes): syntax %.1v, want ok=%v", tc.src, len(tc.src), m.Syntax, tc.ok)
		}
	}
}

func TestEncodingErrorsStopParsing(t *testing.T) {
	m := mustParse(t, "infer(p=1)\n\xff\n")
	if len(m.Syntax) != 1 || len(m.Calls) != 0 || m.Root == nil {
		t.Fatalf("syntax %v calls %d root %v", m.Syntax, len(m.Calls), m.Root)
	}
	if e := m.Syntax[0]; e.Span.Start.Offset != 11 || e.Span.Start.Line != 2 || e.Span.End.Offset != 12 {
		t.Errorf("span %+v", e.Span)
	}
}

func TestValidSourcesHaveNoSyntaxErrors(t *testing.T) {
	for _, src := range []string{
		"",
		"\n",
		"# only a comment",
		"x = 1",                               // no trailing newline
		"x = 1\r\ny = 2\r\n",                  // CRLF
		"s = '''a\r\nb'''\r\n",                // CRLF inside a literal
		"type X = int\n",                      // PEP 695
		"def f[T](x: T) -> T: return x\n",     // PEP 695
		"match = 1\ntype = 2\nprint(match)\n", // soft keywords as names
		"async def f():\n    async with a as b:\n        await c\n    async for x in y: pass\n",
		"x = f'{a!r:>{w}}' f\"{b=}\"\n",
		"x = f'{a:%Y\\n}' f'{d[\"\\n\"]}'\n", // field text is code (3.12), not string content
		"x = [*a, *b]\ny = {**c, 'd': 1}\n",
		"lambda *a, **k: 0\n",
		"try:\n    pass\nexcept* ValueError as eg:\n    pass\n",
		"x = 0_0 + 0x_f + 1_000.000_1e1_0j\n",
		"f(*a, *b, c=1, *d, **e, f=2)\n",
	} {
		m := mustParse(t, src)
		if len(m.Syntax) > 0 {
			t.Errorf("%q: unexpected syntax errors %v", src, m.Syntax)
		}
	}
}

func TestBOM(t *testing.T) {
	src := "\xef\xbb\xbfinfer(p=0.5)\nobserve(x)\n"
	m := mustParse(t, src)
	if len(m.Syntax) != 0 {
		t.Fatalf("BOM rejected: %v", m.Syntax)
	}
	c := m.Calls[0]
	if c.Span.Start.Offset != 3 || c.Span.Start.Line != 1 || c.Span.Start.Col != 4 {
		t.Errorf("first call starts at %+v, want offset 3 col 4 (positions count the BOM)", c.Span.Start)
	}
	if k := c.Keyword("p"); k.NameSpan.Start.Col != 10 || src[k.NameSpan.Start.Offset:k.NameSpan.End.Offset] != "p" {
		t.Errorf("keyword span %+v", k.NameSpan)
	}
	if c2 := m.Calls[1]; c2.Span.Start.Line != 2 || c2.Span.Start.Col != 1 || c2.Span.Start.Offset != 16 {
		t.Errorf("second call at %+v", c2.Span.Start)
	}
}

func TestPositionsNonASCII(t *testing.T) {
	src := "t = \"héllo wörld\"; infer(r='ü')\n# ünïcode\nobserve(x)\n"
	m := mustParse(t, src)
	if len(m.Syntax) > 0 {
		t.Fatal(m.Syntax)
	}
	c := m.Calls[0]
	// "t = \"héllo wörld\"; " is 21 bytes (é and ö take two each).
	if c.Span.Start.Offset != 21 || c.Span.Start.Col != 22 || c.Span.Start.Line != 1 {
		t.Errorf("infer at %+v", c.Span.Start)
	}
	if v := c.Keyword("r").Value; v.Str != "ü" || v.Span.End.Offset-v.Span.Start.Offset != 4 {
		t.Errorf("value %q span %+v", v.Str, v.Span)
	}
	if cm := m.Comments[0]; int(cm.Span.End.Col) != 1+len("# ünïcode") {
		t.Errorf("comment end col %d", cm.Span.End.Col)
	}
	checkInvariants(t, m)
}

// checkInvariants asserts the model's span invariants: every span lies in
// the source, Start <= End, and lines/cols agree with the offsets.
func checkInvariants(t testing.TB, m *Module) {
	t.Helper()
	src := m.Src
	lines := []int{0} // start offset of each line
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	posOf := func(off int) Pos {
		l := sort.Search(len(lines), func(k int) bool { return lines[k] > off }) // 1-based line
		return Pos{Offset: int32(off), Line: int32(l), Col: int32(off - lines[l-1] + 1)}
	}
	check := func(what string, sp Span) {
		t.Helper()
		if sp.Start.Offset < 0 || int(sp.End.Offset) > len(src) || sp.Start.Offset > sp.End.Offset {
			t.Fatalf("%s: span %+v out of source (len %d)", what, sp, len(src))
		}
		for _, p := range []Pos{sp.Start, sp.End} {
			if want := posOf(int(p.Offset)); want != p {
				t.Fatalf("%s: position %+v, offsets say %+v", what, p, want)
			}
		}
	}
	for _, e := range m.Syntax {
		check("syntax "+e.Msg, e.Span)
	}
	for _, c := range m.Calls {
		check("call", c.Span)
		if c.Func != nil {
			check("callee", c.Func.Span)
		}
		for _, k := range c.Keywords {
			check("keyword", k.NameSpan)
		}
	}
	for _, n := range m.Names {
		check("name", n.Span)
		if text := string(src[n.Span.Start.Offset:n.Span.End.Offset]); nfkcIdent(text) != n.Name {
			t.Fatalf("name %q spans %q", n.Name, text) // names are the NFKC form of their text
		}
	}
	for _, a := range m.Attrs {
		check("attr", a.Expr.Span)
	}
	for _, im := range m.Imports {
		check("import", im.Span)
	}
	for _, a := range m.Assigns {
		check("assign", a.Span)
	}
	for _, d := range m.Defs {
		check("def", d.Span)
	}
	for _, c := range m.Comments {
		check("comment", c.Span)
	}
	for _, s := range m.Scopes {
		check("scope", s.Span)
	}
	for i := 1; i < len(m.Calls); i++ {
		if m.Calls[i].Span.Start.Offset < m.Calls[i-1].Span.Start.Offset {
			t.Fatalf("calls out of source order")
		}
	}
	for i := 1; i < len(m.Names); i++ {
		if m.Names[i].Span.Start.Offset < m.Names[i-1].Span.Start.Offset {
			t.Fatalf("names out of source order")
		}
	}
}
