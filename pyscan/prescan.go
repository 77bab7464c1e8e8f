package pyscan

// prescan refuses, before tree-sitter sees them, the kinds of nesting that
// make tree-sitter slow (about 10 µs per level instead of 100 ns per node:
// minutes for a hostile 8 MB file) and that CPython refuses anyway: more
// than 200 open brackets (CPython's tokenizer limit, "too many nested
// parentheses"), a run of more than 3000 unary operators or an attribute
// chain of more than 3000 names on one line (beyond what CPython can
// compile). It skips strings and comments with a small tokenizer; it
// returns the message and the offending offset, or "".
func prescan(src []byte) (string, int) {
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
			i = skipString(src, i)
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
func skipString(src []byte, i int) int {
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
