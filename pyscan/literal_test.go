package pyscan

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDecodeStringToken(t *testing.T) {
	tests := []struct {
		tok   string
		want  string
		bytes bool
		fstr  bool
	}{
		{`"abc"`, "abc", false, false},
		{`'a\'b'`, "a'b", false, false},
		{`"a\"b"`, `a"b`, false, false},
		{`"\n\t\\"`, "\n\t\\", false, false},
		{`"\a\b\f\v\r\0"`, "\x07\x08\x0c\x0b\r\x00", false, false},
		{`"\101\7\1234"`, "A\x07S4", false, false},
		{`"\x41\xe9"`, "Aé", false, false},
		{`"\u00e9\U0001F600"`, "é😀", false, false},
		{`"\N{EM DASH}\N{bullet}"`, "—•", false, false},
		{`"\N{GREEK SMALL LETTER ALPHA}\N{greek capital letter omega}\N{LATIN SMALL LETTER Z}\N{DIGIT NINE}"`, "αΩz9", false, false},
		{"\"a\\\nb\"", "ab", false, false},
		{"\"a\\\r\nb\"", "ab", false, false},
		{`"\q\d"`, `\q\d`, false, false},
		{`r"\n\q"`, `\n\q`, false, false},
		{`R"\x"`, `\x`, false, false},
		{`u"x\ty"`, "x\ty", false, false},
		{`U"x"`, "x", false, false},
		{`'''a'b''c'''`, "a'b''c", false, false},
		{`"""x\ny"""`, "x\ny", false, false},
		{"'''x\r\ny'''", "x\ny", false, false},
		{"r'''x\r\ny'''", "x\ny", false, false},
		{`""`, "", false, false},
		{`''''''`, "", false, false},
		{`b"\x00\xff\777a"`, "\x00\xff\xffa", true, false},
		{`B"\u1234\N{x}"`, `\u1234\N{x}`, true, false},
		{`rb"\n"`, `\n`, true, false},
		{`Br"\n"`, `\n`, true, false},
		{`bR"\x"`, `\x`, true, false},
		{`"\777"`, "ǿ", false, false},
		{`"\08"`, "\x008", false, false},
		{`"é\té"`, "é\té", false, false},
		{`f"a{{b}}c"`, "a{b}c", false, true},
		{`F"\t"`, "\t", false, true},
		{`rf"\t{{"`, `\t{`, false, true},
		{`fR"x"`, "x", false, true},
	}
	for _, tc := range tests {
		got, msg := decodeStringToken(tc.tok, true)
		if msg != "" {
			t.Errorf("%s: unexpected error %q", tc.tok, msg)
			continue
		}
		if got.value != tc.want || got.bytes != tc.bytes || got.fstr != tc.fstr {
			t.Errorf("%s: got %q bytes=%v f=%v, want %q bytes=%v f=%v", tc.tok, got.value, got.bytes, got.fstr, tc.want, tc.bytes, tc.fstr)
		}
	}
}

func TestDecodeStringTokenErrors(t *testing.T) {
	tests := []struct{ tok, want string }{
		{`"\x4"`, `truncated \xXX escape`},
		{`"\xzz"`, `truncated \xXX escape`},
		{`"\u12"`, `truncated \uXXXX escape`},
		{`"\U0011FFFF"`, `illegal Unicode character`},
		{`"\U1234"`, `truncated \UXXXXXXXX escape`},
		{`"\N{NO SUCH NAME}"`, `unknown Unicode character name "NO SUCH NAME"`},
		{`"\N"`, `malformed \N character escape`},
		{`"\N{}"`, `malformed \N character escape`},
		{`b"é"`, "bytes can only contain ASCII literal characters"},
		{`ub"x"`, `invalid string prefix 'ub'`},
		{`bf"x"`, `invalid string prefix 'bf'`},
		{`"abc`, "unterminated string literal"},
	}
	for _, tc := range tests {
		_, msg := decodeStringToken(tc.tok, true)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: error %q, want it to contain %q", tc.tok, msg, tc.want)
		}
	}
}

func TestDecodeNumber(t *testing.T) {
	tests := []struct {
		tok     string
		want    float64
		isInt   bool
		complex bool
	}{
		{"0.90", 0.9, false, false},
		{"9e-1", 0.9, false, false},
		{"0.9_0", 0.9, false, false},
		{".09", 0.09, false, false},
		{"0.9000000000000000001", 0.9, false, false},
		{"0.03", 0.03, false, false},
		{"1_000", 1000, true, false},
		{"0x1F", 31, true, false},
		{"0X_1f", 31, true, false},
		{"0o17", 15, true, false},
		{"0b1_01", 5, true, false},
		{"1.", 1, false, false},
		{"1e3", 1000, false, false},
		{"1E+3_0", 1e30, false, false},
		{"0", 0, true, false},
		{"0_0", 0, true, false},
		{"00", 0, true, false},
		{"1j", 1, false, true},
		{"2.5J", 2.5, false, true},
		{"1e400", math.Inf(1), false, false},
		{"9007199254740993", 9007199254740992, true, false}, // half-even, as float(int)
		{"123456789012345678901234567890", 1.2345678901234568e+29, true, false},
	}
	for _, tc := range tests {
		n, msg := decodeNumber(tc.tok)
		if msg != "" {
			t.Errorf("%s: unexpected error %q", tc.tok, msg)
			continue
		}
		if n.val != tc.want || n.isInt != tc.isInt || n.complex != tc.complex {
			t.Errorf("%s: got %v int=%v complex=%v, want %v int=%v complex=%v", tc.tok, n.val, n.isInt, n.complex, tc.want, tc.isInt, tc.complex)
		}
	}
}

func TestDecodeNumberErrors(t *testing.T) {
	for _, tok := range []string{"1_", "1__0", "0x_", "1_.5", "1._5", "1e_5", "012", "0_7", "10L", "0x1j", "1_j"} {
		if _, msg := decodeNumber(tok); msg == "" {
			t.Errorf("%s: accepted, Python rejects it", tok)
		}
	}
}

// TestLiteralExprs checks literal decoding through the whole pipeline:
// parse, model, expression kinds.
func TestLiteralExprs(t *testing.T) {
	tests := []struct {
		src       string
		kind      ExprKind
		str       string
		num       float64
		isInt     bool
		constOnly bool
	}{
		{`"abc"`, ExprString, "abc", 0, false, false},
		{`"a" 'b'`, ExprString, "ab", 0, false, false},
		{"(\n  \"a\\n\"  # comment\n  r'\\n'\n  \"\"\"c\"\"\"\n)", ExprString, "a\n\\nc", 0, false, false},
		{`b"x"`, ExprBytes, "x", 0, false, false},
		{`b"x" b'y'`, ExprBytes, "xy", 0, false, false},
		{`f"abc"`, ExprFString, "abc", 0, false, true},
		{`f"a{{}}"`, ExprFString, "a{}", 0, false, true},
		{`f"a{x}"`, ExprFString, "", 0, false, false},
		{`"a" f"b"`, ExprFString, "ab", 0, false, true},
		{`"a" f"{b}"`, ExprFString, "", 0, false, false},
		{`0.90`, ExprNumber, "", 0.9, false, false},
		{`9e-1`, ExprNumber, "", 0.9, false, false},
		{`0.9_0`, ExprNumber, "", 0.9, false, false},
		{`.09`, ExprNumber, "", 0.09, false, false},
		{`0.9000000000000000001`, ExprNumber, "", 0.9, false, false},
		{`1_000`, ExprNumber, "", 1000, true, false},
		{`0x1F`, ExprNumber, "", 31, true, false},
		{`1j`, ExprComplex, "", 1, false, false},
		{`1.5j`, ExprComplex, "", 1.5, false, false},
		{`-0.9`, ExprUnary, "", 0, false, false},
		{`True`, ExprBool, "", 0, false, false},
		{`False`, ExprBool, "", 0, false, false},
		{`None`, ExprNone, "", 0, false, false},
		{`...`, ExprEllipsis, "", 0, false, false},
		{`(0.5)`, ExprNumber, "", 0.5, false, false},
		{`((("x")))`, ExprString, "x", 0, false, false},
		{`(0.5,)`, ExprTuple, "", 0, false, false},
		{`(a, b)`, ExprTuple, "", 0, false, false},
		{`[1]`, ExprList, "", 0, false, false},
		{`{1}`, ExprSet, "", 0, false, false},
		{`{1: 2}`, ExprDict, "", 0, false, false},
		{`1/2`, ExprBinary, "", 0, false, false},
		{`"a" + "b"`, ExprBinary, "", 0, false, false},
		{`x if y else z`, ExprConditional, "", 0, false, false},
		{`lambda: 0`, ExprLambda, "", 0, false, false},
		{`a.b`, ExprAttr, "", 0, false, false},
		{`a[0]`, ExprSubscript, "", 0, false, false},
		{`g()`, ExprCall, "", 0, false, false},
		{`not x`, ExprUnary, "", 0, false, false},
		{`nm`, ExprName, "", 0, false, false},
	}
	for _, tc := range tests {
		src := "f(v=" + tc.src + ")\n"
		m := mustParse(t, src)
		if len(m.Syntax) > 0 {
			t.Errorf("%s: syntax errors %v", tc.src, m.Syntax)
			continue
		}
		v := m.Calls[0].Keyword("v").Value
		if v.Kind != tc.kind || v.Str != tc.str || v.Num != tc.num || v.IsInt != tc.isInt || v.ConstOnly != tc.constOnly {
			t.Errorf("%s: got kind=%d str=%q num=%v int=%v const=%v, want kind=%d str=%q num=%v int=%v const=%v",
				tc.src, v.Kind, v.Str, v.Num, v.IsInt, v.ConstOnly, tc.kind, tc.str, tc.num, tc.isInt, tc.constOnly)
		}
		wantConst := tc.kind >= ExprString && tc.kind <= ExprEllipsis
		if v.IsConstant() != wantConst {
			t.Errorf("%s: IsConstant() = %v", tc.src, v.IsConstant())
		}
	}
}

func TestExprDetails(t *testing.T) {
	m := mustParse(t, "f(a=-0.9, b=True, c=False, d=lang.gaia.infer, e=(1, 'x'), g={'k': v, **w})\n")
	c := m.Calls[0]
	if v := c.Keyword("a").Value; v.Op() != "-" || len(v.Operand()) != 1 || v.Operand()[0].Num != 0.9 {
		t.Errorf("unary: %+v", v)
	}
	if !c.Keyword("b").Value.Bool || c.Keyword("c").Value.Bool {
		t.Error("bool values wrong")
	}
	if got := c.Keyword("d").Value.DottedName(); got != "lang.gaia.infer" {
		t.Errorf("DottedName = %q", got)
	}
	if e := c.Keyword("e").Value; len(e.Elems()) != 2 || e.Elems()[1].Str != "x" {
		t.Errorf("tuple elems: %+v", e.Elems())
	}
	g := c.Keyword("g").Value
	if len(g.Keys()) != 2 || g.Keys()[0].Str != "k" || g.Keys()[1] != nil || g.Elems()[1].Name != "w" {
		t.Errorf("dict: keys %v elems %v", g.Keys(), g.Elems())
	}
	if c.Keyword("zz") != nil {
		t.Error("Keyword of a missing name is not nil")
	}
}

func TestMixedBytesAndStr(t *testing.T) {
	m := mustParse(t, "x = b'a' 'b'\n")
	if len(m.Syntax) != 1 || !strings.Contains(m.Syntax[0].Msg, "cannot mix bytes and nonbytes literals") {
		t.Fatalf("syntax = %v", m.Syntax)
	}
}

func mustParse(t testing.TB, src string) *Module {
	t.Helper()
	m, err := ParseSource("t.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDictKeysDoNotAliasValues: Keys and Elems of a dictionary share one
// array; appending to Keys must not overwrite the first value.
func TestDictKeysDoNotAliasValues(t *testing.T) {
	m := mustParse(t, "d = {'a': 1, 'b': 2}\n")
	v := m.Assigns[0].Value
	_ = append(v.Keys(), nil)
	if e := v.Elems(); len(e) != 2 || e[0] == nil || e[0].Num != 1 {
		t.Errorf("values after an append to Keys: %v", e)
	}
}

// TestOperators: Op gives each operator as written, the first of a
// comparison chain, and the two-word comparisons whatever lies between
// their words.
func TestOperators(t *testing.T) {
	for src, want := range map[string]string{
		"v = -a":                   "-",
		"v = not a":                "not",
		"v = a // b":               "//",
		"v = a and b":              "and",
		"v = a < b <= c":           "<",
		"v = a is not b":           "is not",
		"v = a not  in b":          "not in",
		"v = (a not # why\n in b)": "not in",
		"v = (a is \\\n not b)":    "is not",
		"v = a @ b":                "@",
		"v = ~a":                   "~",
		"v = [*a]":                 "", // the list; its element is the starred value
		"v = a if b else c":        "",
		"v = a ** b":               "**",
		"v = a >> b":               ">>",
		"v = a != b":               "!=",
		"v = (w := 1)":             ":=",
		"v = {**a}":                "",
		"v = a in b":               "in",
		"v = a or b and c":         "or",
		"v = f(x)":                 "",
		"v = a.b":                  "",
		"v = a[b]":                 "",
		"v = 'not in'":             "",
	} {
		m := mustParse(t, src+"\n")
		if len(m.Syntax) > 0 {
			t.Errorf("%q: %v", src, m.Syntax)
			continue
		}
		if got := m.Assigns[0].Value.Op(); got != want { // the `v = ...` statement
			t.Errorf("%q: Op() = %q, want %q", src, got, want)
		}
	}
}

// TestPlainDecimalAgrees holds decodeNumber's fast path to the general
// one on every token of up to four characters made of digits and dots,
// and on random longer ones around its limits (15 digits).
func TestPlainDecimalAgrees(t *testing.T) {
	const alphabet = "0123456789."
	var toks []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		toks = append(toks, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+string(c), n-1)
		}
	}
	gen("", 4)
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := make([]byte, 12+r.IntN(6))
		for k := range b {
			b[k] = "0123456789"[r.IntN(10)]
		}
		if r.IntN(3) > 0 {
			b[r.IntN(len(b))] = '.'
		}
		toks = append(toks, string(b))
	}
	fast := 0
	for _, tok := range toks {
		n, ok := plainDecimal(tok)
		if !ok {
			continue
		}
		fast++
		want, msg := decodeAnyNumber(tok)
		if msg != "" || math.Float64bits(n.val) != math.Float64bits(want.val) || n.isInt != want.isInt || n.complex {
			t.Errorf("%q: fast path %v int=%v, general %v int=%v %q", tok, n.val, n.isInt, want.val, want.isInt, msg)
		}
	}
	if fast < len(toks)/2 {
		t.Errorf("the fast path took only %d of %d tokens", fast, len(toks))
	}
}

// FuzzPlainDecimal holds TestPlainDecimalAgrees on arbitrary tokens.
func FuzzPlainDecimal(f *testing.F) {
	for _, s := range []string{"0", "42", "0.75", "1.", ".5", "00", "012", "999999999999999", "9999999999999999", "1.000000000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		n, ok := plainDecimal(tok)
		if !ok {
			return
		}
		want, msg := decodeAnyNumber(tok)
		if msg != "" || math.Float64bits(n.val) != math.Float64bits(want.val) || n.isInt != want.isInt || n.complex {
			t.Errorf("%q: fast path %v int=%v, general %v int=%v %q", tok, n.val, n.isInt, want.val, want.isInt, msg)
		}
	})
}

// joinTokens are string tokens of every kind a concatenation joins:
// escapes of each sort, raw, bytes, f-strings without fields, CR line
// ends, errors.
var joinTokens = []string{
	`'a'`, `"b\n"`, `r'\n'`, `'\x41\101'`, `'\N{EM DASH}'`, `f'{{x}}'`, `'\u00e9\U0001F600'`,
	"'''tri\r\nple\r'''", "'a\\\r\nb'", `'é'`, `rb'x\y'`, `b'\xff'`, `'\q'`, `u'u'`, `fr'{{\n}}'`,
	"r'''c\rd'''", `'\x4'`, `'\N{NO SUCH NAME}'`, `''`, `""""""`, `'\\'`,
}

// TestJoinedStringsAgree holds the value of an implicit concatenation,
// decoded part by part into one buffer, to the parts decoded one by one
// (decodeStringToken, which the CPython oracle holds) and joined.
func TestJoinedStringsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		n := 2 + r.IntN(4)
		toks := make([]string, n)
		want, bad := "", false
		for k := range toks {
			toks[k] = joinTokens[r.IntN(len(joinTokens))]
			tok, msg := decodeStringToken(toks[k], true)
			want += tok.value
			bad = bad || msg != "" || tok.bytes != (toks[0][0] == 'b' || toks[0][:2] == "rb")
		}
		src := "x = (" + strings.Join(toks, " ") + ")\n"
		m := mustParse(t, src)
		v := m.Assigns[0].Value
		if bad {
			if len(m.Syntax) == 0 {
				t.Errorf("%q: no syntax error", src)
			}
			continue
		}
		if len(m.Syntax) > 0 {
			t.Errorf("%q: syntax errors %v", src, m.Syntax)
			continue
		}
		if v.Str != want {
			t.Errorf("%q: joined %q, want %q", src, v.Str, want)
		}
	}
}
