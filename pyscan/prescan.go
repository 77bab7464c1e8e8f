package pyscan

import "bytes"

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
	if !mayNest(src, maxBrackets, maxUnary) {
		return "", 0
	}
	depth, run, dots := 0, 0, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch prescanClass[c] {
		case pcWord:
			// A run of name characters: the unary run ends, an attribute
			// chain goes on. Skipped in a tight loop (most of a file).
			run = 0
			for i+1 < len(src) && prescanClass[src[i+1]] == pcWord {
				i++
			}
		case pcBlank: // space, tab: nothing changes
		case pcDot:
			if dots++; dots > maxUnary {
				return "too deeply nested: an attribute chain of more than 3000 names (CPython cannot compile this either)", i
			}
			run = 0
		case pcLine: // \f \r \n and a line continuation
			dots = 0
		case pcHash:
			dots, run = 0, 0
			if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
				i += k // the newline itself is skipped with the comment
			} else {
				i = len(src)
			}
		case pcQuote:
			dots, run = 0, 0
			i = skipString(src, i)
		case pcOpen:
			dots, run = 0, 0
			if depth++; depth > maxBrackets {
				return "too many nested parentheses (more than 200, as in CPython)", i
			}
		case pcClose:
			dots, run = 0, 0
			if depth > 0 {
				depth--
			}
		case pcUnary:
			dots = 0
			if run++; run > maxUnary {
				return "too deeply nested: more than 3000 unary operators (CPython cannot compile this either)", i
			}
		default:
			dots, run = 0, 0
		}
	}
	return "", 0
}

// mayNest reports whether src holds more than maxBrackets opening
// brackets, or more than maxUnary unary operator or dot bytes (strings and
// comments included): without that many, no limit of prescan can be
// passed, and counting single bytes (vectorised) is several times faster
// than prescan's tokenizer, which most modules then skip.
func mayNest(src []byte, maxBrackets, maxUnary int) bool {
	count := func(chars string, limit int) bool {
		n := 0
		for k := range len(chars) {
			if n += bytes.Count(src, []byte{chars[k]}); n > limit {
				return true
			}
		}
		return false
	}
	// A source of at most maxUnary bytes cannot hold more than maxUnary
	// of anything: its unary operators and dots are not counted.
	return len(src) > maxBrackets && (count("([{", maxBrackets) ||
		len(src) > maxUnary && (count("-+~", maxUnary) || count(".", maxUnary)))
}

// Byte classes of prescan.
const (
	pcOther = iota
	pcWord  // letters, digits, _ and every non-ASCII byte
	pcBlank // space and tab
	pcDot
	pcLine // \f \r \n \\
	pcHash
	pcQuote
	pcOpen
	pcClose
	pcUnary // - + ~
)

// prescanClass is the class of each byte (prescanClasses in the test is
// its definition, and TestPrescanClass compares them): a constant the
// linker lays out, where a table computed at package init ran in every
// process (issue 15).
const prescanClass = "" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x04\x00\x04\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x02\x00\x06\x05\x00\x00\x00\x06\x07\x08\x00\x09\x00\x09\x03\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x07\x04\x08\x00\x01" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x07\x00\x08\x09\x00" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"

// skipString returns the offset of the last byte of the string literal that
// opens at src[i] (a quote), or of the end of the line for an unterminated
// single-quoted one. A backslash always escapes the next byte, raw strings
// included, as in Python's tokenizer. The body is crossed with vectorised
// searches for the quote, a backslash and (single-quoted) a newline.
func skipString(src []byte, i int) int {
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 2
	}
	i++
	for i < len(src) {
		rest := src[i:]
		j := bytes.IndexByte(rest, q)
		if j < 0 {
			j = len(rest)
		}
		seg := rest[:j]
		k := bytes.IndexByte(seg, '\\')
		if !triple {
			if nl := bytes.IndexByte(seg, '\n'); nl >= 0 && (k < 0 || nl < k) {
				return i + nl
			}
		}
		if k >= 0 {
			i += k + 2 // the backslash and the byte it escapes
			continue
		}
		i += j
		if i >= len(src) {
			break
		}
		// src[i] is the quote
		if !triple {
			return i
		}
		if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
			return i + 2
		}
		i++
	}
	return len(src) - 1
}
