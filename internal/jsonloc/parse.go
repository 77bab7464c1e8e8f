package jsonloc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse decodes src strictly: invalid UTF-8, NaN/Infinity, trailing data and
// an unexpected BOM are *SyntaxError values; so is a document whose decoded
// form would be too large for its size (see DensityFactor).
//
// It reads src in three passes, so that every allocation is made once, at
// its final size, and charged to the document's budget before it is made:
//
//  1. a lexical scan counts the values (allocating nothing), so that the
//     positions take one array of exactly that many records;
//  2. the strict parser checks the grammar and records every value's
//     position (allocating nothing else);
//  3. the values are built from the positions: each container at its
//     exact size (its members are counted on the positions), member names
//     and short scalars that repeat made once and shared.
//
// A document whose positions alone would pass the budget is refused by the
// first pass, before anything is allocated.
func Parse(src []byte, opts Options) (*Doc, error) {
	d := &Doc{Src: src}
	if len(src) > math.MaxInt32 {
		return nil, d.errAt(0, "document larger than 2 GiB")
	}
	if !utf8.Valid(src) {
		off := firstInvalid(src)
		return nil, d.errAt(off, fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[off]))
	}
	start := 0
	if len(src) >= 3 && string(src[:3]) == string(bom) {
		if !opts.AllowBOM {
			return nil, d.errAt(0, "unexpected UTF-8 byte-order mark at the start of the file")
		}
		start = 3
	}
	g := &guard{d: d, budget: Budget(len(src))}
	n, err := g.countValues(start)
	if err != nil {
		return nil, err
	}
	if err := g.charge(allocSize(int64(n)*costNode), start); err != nil {
		return nil, err
	}
	d.nodes = make([]node, 0, n)

	p := &parser{d: d, src: src, pos: start, opts: opts}
	p.ws()
	if p.pos >= len(src) {
		return nil, d.errAt(p.pos, "empty document: expected a JSON value")
	}
	if err := p.value(-1, 0); err != nil {
		return nil, err
	}
	p.ws()
	if p.pos < len(src) {
		return nil, d.errAt(p.pos, fmt.Sprintf("unexpected %s after the top-level value", p.describe()))
	}

	if err := g.charge(allocSize(int64(p.maxDepth+1)*costStep), start); err != nil {
		return nil, err
	}
	b := &builder{d: d, src: src, nodes: d.nodes, opts: opts, g: g,
		keys: map[string]string{}, scalars: map[string]any{}, path: make([]pathStep, 0, p.maxDepth+1)}
	v, err := b.value(0)
	if err != nil {
		return nil, err
	}
	d.Value = v
	d.cost, d.depth = g.cost, p.maxDepth
	return d, nil
}

// countValues counts the values of the document from offset i on (the
// first pass): every container and every scalar but the member names,
// which are the strings followed by a colon. It reads tokens without
// checking them, so on a malformed document the count is only a guess,
// which the second pass never relies on. It refuses the document at the
// first value whose position record would take the budget.
func (g *guard) countValues(i int) (int, error) {
	src := g.d.Src
	limit := (g.budget - g.cost) / costNode
	n := 0
	for i < len(src) {
		at := i
		switch c := src[i]; c {
		case ' ', '\t', '\n', '\r', ',', ':', '}', ']':
			i++
			continue
		case '{', '[':
			i++
		case '"':
			i = skipString(src, i)
			j := i
			for j < len(src) && isSpace(src[j]) {
				j++
			}
			if j < len(src) && src[j] == ':' {
				continue // a member name
			}
		default:
			for i < len(src) && !endsScalar(src[i]) {
				i++
			}
		}
		if n++; int64(n) > limit {
			return 0, g.refuse(at)
		}
	}
	return n, nil
}

// skipString returns the offset after the string token at i (its opening
// quote), or len(src) when it is not closed.
func skipString(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '"':
			return i + 1
		case '\\':
			i++
		}
	}
	return len(src)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// endsScalar reports whether c cannot be part of a number or literal.
func endsScalar(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

// parser is the strict parser of the second pass: it checks the grammar
// and appends every value's position to d.nodes. keyAt also uses it to
// decode one member name.
type parser struct {
	d        *Doc
	src      []byte
	pos      int
	opts     Options
	maxDepth int // the deepest nesting met
}

func (p *parser) ws() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

func (p *parser) describe() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.src[p.pos:])
	return pyfmt.Str(string(r))
}

func (p *parser) fail(msg string) error { return p.d.errAt(p.pos, msg) }

// value checks one value and records its node; keyOff is the offset of
// its member name (-1 outside objects).
func (p *parser) value(keyOff int, depth int) error {
	if depth > MaxDepth {
		return p.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	if p.pos >= len(p.src) {
		return p.fail("unexpected end of input: expected a value (truncated file?)")
	}
	p.maxDepth = max(p.maxDepth, depth)
	n := len(p.d.nodes)
	p.d.nodes = append(p.d.nodes, node{start: int32(p.pos), key: int32(keyOff)})
	if err := p.value1(depth); err != nil {
		return err
	}
	p.d.nodes[n].end = int32(p.pos)
	p.d.nodes[n].next = int32(len(p.d.nodes))
	return nil
}

func (p *parser) value1(depth int) error {
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		_, err := p.str(false)
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.lit("true"), p.lit("false"), p.lit("null"):
		return nil
	case p.has("NaN"), p.has("Infinity"), p.has("-Infinity"):
		return p.fail("NaN and Infinity are not valid JSON numbers")
	default:
		return p.fail(fmt.Sprintf("unexpected %s: expected a value", p.describe()))
	}
}

func (p *parser) has(s string) bool {
	return strings.HasPrefix(string(p.src[p.pos:min(len(p.src), p.pos+len(s))]), s)
}

func (p *parser) lit(s string) bool {
	if p.has(s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *parser) object(depth int) error {
	p.pos++ // {
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return nil
	}
	for {
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			if p.pos >= len(p.src) {
				return p.fail("unexpected end of input inside an object (truncated file?)")
			}
			return p.fail(fmt.Sprintf("unexpected %s: expected a quoted member name", p.describe()))
		}
		keyOff := p.pos
		if _, err := p.str(false); err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return p.fail(fmt.Sprintf("unexpected %s: expected ':' after member name %q", p.describe(), p.d.keyAt(int32(keyOff))))
		}
		p.pos++
		p.ws()
		if err := p.value(keyOff, depth+1); err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.src) {
			return p.fail("unexpected end of input inside an object (truncated file?)")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return nil
		default:
			return p.fail(fmt.Sprintf("unexpected %s: expected ',' or '}'", p.describe()))
		}
	}
}

func (p *parser) array(depth int) error {
	p.pos++ // [
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return nil
	}
	for {
		p.ws()
		if err := p.value(-1, depth+1); err != nil {
			return err
		}
		p.ws()
		if p.pos >= len(p.src) {
			return p.fail("unexpected end of input inside an array (truncated file?)")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return nil
		default:
			return p.fail(fmt.Sprintf("unexpected %s: expected ',' or ']'", p.describe()))
		}
	}
}

// str reads the string token at p.pos (its opening quote) and leaves p.pos
// after its closing quote. With build it returns the decoded text; without,
// it only checks the token, allocating nothing.
func (p *parser) str(build bool) (string, error) {
	p.pos++ // opening quote
	var b []byte
	start := p.pos
	for {
		if p.pos >= len(p.src) {
			return "", p.fail("unterminated string (truncated file?)")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			var s string
			switch {
			case !build:
			case b == nil:
				s = string(p.src[start:p.pos])
			default:
				s = string(append(b, p.src[start:p.pos]...))
			}
			p.pos++
			return s, nil
		case c < 0x20:
			return "", p.fail(fmt.Sprintf("control character %#02x in string; escape it", c))
		case c == '\\':
			if build {
				b = append(b, p.src[start:p.pos]...)
			}
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			if build {
				b = utf8.AppendRune(b, r)
			}
			start = p.pos
		default:
			p.pos++
		}
	}
}

// escape decodes one escape sequence at p.pos (the backslash).
func (p *parser) escape() (rune, error) {
	if p.pos+1 >= len(p.src) {
		return 0, p.fail("unterminated escape sequence")
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		at := p.pos - 2
		r, err := p.hex4()
		if err != nil {
			return 0, err
		}
		if utf16.IsSurrogate(r) && p.pos+1 < len(p.src) && p.src[p.pos] == '\\' && p.src[p.pos+1] == 'u' {
			save := p.pos
			p.pos += 2
			r2, err := p.hex4()
			if err == nil {
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					return dec, nil
				}
			}
			p.pos = save
		}
		if utf16.IsSurrogate(r) {
			if p.opts.StrictSurrogates {
				return 0, p.d.errAt(at, fmt.Sprintf("lone surrogate \\u%04x; a string must hold whole characters", r))
			}
			return utf8.RuneError, nil // lone surrogate, as encoding/json does
		}
		return r, nil
	}
	p.pos -= 2
	return 0, p.fail(fmt.Sprintf("invalid escape sequence \\%c", c))
}

func (p *parser) hex4() (rune, error) {
	if p.pos+4 > len(p.src) {
		return 0, p.fail("truncated \\u escape")
	}
	v, err := strconv.ParseUint(string(p.src[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.fail(fmt.Sprintf("invalid \\u escape %q", p.src[p.pos:p.pos+4]))
	}
	p.pos += 4
	return rune(v), nil
}

func (p *parser) number() error {
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.src[p.pos] == '-' {
		p.pos++
		if p.has("Infinity") {
			p.pos--
			return p.fail("NaN and Infinity are not valid JSON numbers")
		}
	}
	intStart := p.pos
	if n := digits(); n == 0 {
		return p.fail("invalid number: expected a digit")
	} else if n > 1 && p.src[intStart] == '0' {
		p.pos = intStart
		return p.fail("invalid number: leading zeros are not allowed")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.fail("invalid number: expected a digit after '.'")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.fail("invalid number: expected a digit in the exponent")
		}
	}
	return nil
}
