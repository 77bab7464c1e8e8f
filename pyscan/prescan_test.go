package pyscan

import (
	"strings"
	"testing"
)

// prescanRef and skipStringRef are the byte-at-a-time versions prescan and
// skipString replaced (issue 15); FuzzPrescanAgrees holds them equal.
func prescanRef(src []byte) (string, int) {
	const maxBrackets, maxUnary = 200, 3000
	depth, run, dots := 0, 0, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '.':
			if dots++; dots > maxUnary {
				return "too deeply nested: an attribute chain of more than 3000 names (CPython cannot compile this either)", i
			}
		case c == '_' || c == ' ' || c == '\t' || c >= 0x80 ||
			c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		default:
			dots = 0
		}
		switch c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			run = 0
		case '\'', '"':
			i = skipStringRef(src, i)
			run = 0
		case '(', '[', '{':
			if depth++; depth > maxBrackets {
				return "too many nested parentheses (more than 200, as in CPython)", i
			}
			run = 0
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
			run = 0
		case '-', '+', '~':
			if run++; run > maxUnary {
				return "too deeply nested: more than 3000 unary operators (CPython cannot compile this either)", i
			}
		case ' ', '\t', '\f', '\r', '\n', '\\':
		default:
			run = 0
		}
	}
	return "", 0
}

// skipString returns the offset of the last byte of the string literal that
// opens at src[i] (a quote), or of the end of the line for an unterminated
// single-quoted one. A backslash always escapes the next byte, raw strings
// included, as in Python's tokenizer.
func skipStringRef(src []byte, i int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 2
	}
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '\n':
			if !triple {
				return i
			}
		case q:
			if !triple {
				return i
			}
			if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
				return i + 2
			}
		}
	}
	return len(src) - 1
}

func FuzzPrescanAgrees(f *testing.F) {
	for _, s := range []string{
		"a.b.c # x\n.d", "x = '''a\\'''b''' + \"c\\\"\"\n", "'abc\ndef'", "-+~-x", "((([[{",
		`"""unterminated`, `'\`, "#", "a\\\n.b", "''x", "'''a''", "\"\"\"\"\"\"",
		strings.Repeat("(", 201), strings.Repeat("-", 3001), strings.Repeat(".a", 3001),
		strings.Repeat("(", 200), strings.Repeat("([{", 67), strings.Repeat("-+~", 1000) + "-",
		strings.Repeat("a.", 3000), "'" + strings.Repeat("(", 300) + "'", // counted, not nested
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m1, o1 := prescan(src)
		m2, o2 := prescanRef(src)
		if m1 != m2 || o1 != o2 {
			t.Fatalf("prescan(%q) = %q@%d, reference %q@%d", src, m1, o1, m2, o2)
		}
		for i, c := range src {
			if c == '\'' || c == '"' {
				if a, b := skipString(src, i), skipStringRef(src, i); a != b {
					t.Fatalf("skipString(%q, %d) = %d, reference %d", src, i, a, b)
				}
			}
		}
	})
}

// prescanClasses is the definition of prescanClass.
func prescanClasses() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			t[c] = pcWord
		}
	}
	t[' '], t['\t'] = pcBlank, pcBlank
	t['.'] = pcDot
	t['\f'], t['\r'], t['\n'], t['\\'] = pcLine, pcLine, pcLine, pcLine
	t['#'] = pcHash
	t['\''], t['"'] = pcQuote, pcQuote
	t['('], t['['], t['{'] = pcOpen, pcOpen, pcOpen
	t[')'], t[']'], t['}'] = pcClose, pcClose, pcClose
	t['-'], t['+'], t['~'] = pcUnary, pcUnary, pcUnary
	return t
}

func TestPrescanClass(t *testing.T) {
	want := prescanClasses()
	if len(prescanClass) != len(want) {
		t.Fatalf("prescanClass has %d bytes, want %d", len(prescanClass), len(want))
	}
	for c := range want {
		if prescanClass[c] != want[c] {
			t.Errorf("prescanClass[%q] = %d, want %d", rune(c), prescanClass[c], want[c])
		}
	}
}
