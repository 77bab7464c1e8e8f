// Package jsonloc parses JSON while remembering where every value sits, so
// validators can report a finding at the RFC 6901 pointer of the offending
// value and at the line:column that pointer maps to.
//
// The parser is strict (RFC 8259): invalid UTF-8, NaN/Infinity, trailing
// data, control characters in strings and bad escapes are located syntax
// errors. Python's json module is more lenient (NaN, a sniffed BOM); nullius
// rejects those on purpose and records it in docs/deviations.md.
package jsonloc

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 10000

// Doc is a parsed JSON document. Value holds the decoded value: map[string]any
// for objects, []any for arrays, string, json.Number for numbers, bool, nil.
type Doc struct {
	Src   []byte
	Value any
	// Duplicates lists the pointers of object members whose key repeats an
	// earlier key of the same object (the last one wins in Value).
	Duplicates []string

	offsets    map[string]int // pointer -> start offset of its value
	ends       map[string]int // pointer -> end offset (exclusive) of its value
	keyOffsets map[string]int // pointer -> start offset of the member's key
	lines      []int          // start offset of every line
}

// SyntaxError is a located JSON parse failure.
type SyntaxError struct {
	Offset, Line, Col int
	Msg               string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d column %d: %s", e.Line, e.Col, e.Msg)
}

// Options adjust parsing.
type Options struct {
	AllowBOM bool // accept (and skip) a leading UTF-8 byte-order mark
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse decodes src strictly: invalid UTF-8, NaN/Infinity, trailing data and
// an unexpected BOM are *SyntaxError values.
func Parse(src []byte, opts Options) (*Doc, error) {
	d := &Doc{Src: src, offsets: map[string]int{}, ends: map[string]int{}, keyOffsets: map[string]int{}}
	d.indexLines()
	if !utf8.Valid(src) {
		off := firstInvalid(src)
		return nil, d.errAt(off, fmt.Sprintf("invalid UTF-8 byte 0x%02x", src[off]))
	}
	p := &parser{d: d, src: src}
	if len(src) >= 3 && string(src[:3]) == string(bom) {
		if !opts.AllowBOM {
			return nil, d.errAt(0, "unexpected UTF-8 byte-order mark at the start of the file")
		}
		p.pos = 3
	}
	p.ws()
	if p.pos >= len(src) {
		return nil, d.errAt(p.pos, "empty document: expected a JSON value")
	}
	v, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos < len(src) {
		return nil, d.errAt(p.pos, fmt.Sprintf("unexpected %s after the top-level value", p.describe()))
	}
	d.Value = v
	return d, nil
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

func (d *Doc) indexLines() {
	d.lines = append(d.lines[:0], 0)
	for i, c := range d.Src {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
}

// Position converts a byte offset into a 1-based line and 1-based byte column.
func (d *Doc) Position(offset int) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(d.Src) {
		offset = len(d.Src)
	}
	i := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > offset }) - 1
	return i + 1, offset - d.lines[i] + 1
}

func (d *Doc) errAt(off int, msg string) *SyntaxError {
	l, c := d.Position(off)
	return &SyntaxError{Offset: off, Line: l, Col: c, Msg: msg}
}

// Offset returns the start offset of the value at pointer, and whether the
// pointer resolves.
func (d *Doc) Offset(pointer string) (int, bool) {
	off, ok := d.offsets[pointer]
	return off, ok
}

// Range returns the byte range [start, end) of the value at pointer, for
// callers that splice one value of a file and keep every other byte.
func (d *Doc) Range(pointer string) (start, end int, ok bool) {
	start, ok = d.offsets[pointer]
	if !ok {
		return 0, 0, false
	}
	return start, d.ends[pointer], true
}

// Locate returns the 1-based line and byte column of the value at pointer,
// or of its nearest existing ancestor when the pointer does not resolve
// (a missing member is reported at the object that lacks it).
func (d *Doc) Locate(pointer string) (line, col int) {
	for {
		if off, ok := d.offsets[pointer]; ok {
			return d.Position(off)
		}
		if pointer == "" {
			return 1, 1
		}
		i := strings.LastIndexByte(pointer, '/')
		if i < 0 {
			pointer = ""
		} else {
			pointer = pointer[:i]
		}
	}
}

// LocateKey returns the position of the member key at pointer (useful for
// "unknown key" findings), falling back to Locate.
func (d *Doc) LocateKey(pointer string) (line, col int) {
	if off, ok := d.keyOffsets[pointer]; ok {
		return d.Position(off)
	}
	return d.Locate(pointer)
}

// Pointer builds an RFC 6901 pointer from string keys and int indices.
func Pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case string:
			b.WriteString(Escape(v))
		case int:
			b.WriteString(strconv.Itoa(v))
		default:
			b.WriteString(Escape(fmt.Sprint(v)))
		}
	}
	return b.String()
}

// Escape escapes one reference token (~ becomes ~0, / becomes ~1).
func Escape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

type parser struct {
	d   *Doc
	src []byte
	pos int
}

func (p *parser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
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

func (p *parser) value(ptr string, depth int) (any, error) {
	v, err := p.value1(ptr, depth)
	if err == nil {
		p.d.ends[ptr] = p.pos
	}
	return v, err
}

func (p *parser) value1(ptr string, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	if p.pos >= len(p.src) {
		return nil, p.fail("unexpected end of input: expected a value (truncated file?)")
	}
	p.d.offsets[ptr] = p.pos
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(ptr, depth)
	case c == '[':
		return p.array(ptr, depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	case p.lit("null"):
		return nil, nil
	case p.has("NaN"), p.has("Infinity"), p.has("-Infinity"):
		return nil, p.fail("NaN and Infinity are not valid JSON numbers")
	default:
		return nil, p.fail(fmt.Sprintf("unexpected %s: expected a value", p.describe()))
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

func (p *parser) object(ptr string, depth int) (any, error) {
	p.pos++ // {
	obj := map[string]any{}
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			if p.pos >= len(p.src) {
				return nil, p.fail("unexpected end of input inside an object (truncated file?)")
			}
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected a quoted member name", p.describe()))
		}
		keyOff := p.pos
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		child := ptr + "/" + Escape(k.(string))
		key := k.(string)
		if _, dup := obj[key]; dup {
			p.d.Duplicates = append(p.d.Duplicates, child)
		}
		p.d.keyOffsets[child] = keyOff
		p.ws()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected ':' after member name %q", p.describe(), key))
		}
		p.pos++
		p.ws()
		v, err := p.value(child, depth+1)
		if err != nil {
			return nil, err
		}
		obj[key] = v
		p.ws()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of input inside an object (truncated file?)")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return obj, nil
		default:
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected ',' or '}'", p.describe()))
		}
	}
}

func (p *parser) array(ptr string, depth int) (any, error) {
	p.pos++ // [
	arr := []any{}
	p.ws()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for i := 0; ; i++ {
		p.ws()
		v, err := p.value(ptr+"/"+strconv.Itoa(i), depth+1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.ws()
		if p.pos >= len(p.src) {
			return nil, p.fail("unexpected end of input inside an array (truncated file?)")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.fail(fmt.Sprintf("unexpected %s: expected ',' or ']'", p.describe()))
		}
	}
}

func (p *parser) str() (any, error) {
	p.pos++ // opening quote
	var b []byte
	start := p.pos
	for {
		if p.pos >= len(p.src) {
			return nil, p.fail("unterminated string (truncated file?)")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			s := string(b) + string(p.src[start:p.pos])
			p.pos++
			return s, nil
		case c < 0x20:
			return nil, p.fail(fmt.Sprintf("control character %#02x in string; escape it", c))
		case c == '\\':
			b = append(b, p.src[start:p.pos]...)
			r, err := p.escape()
			if err != nil {
				return nil, err
			}
			b = utf8.AppendRune(b, r)
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

func (p *parser) number() (any, error) {
	start := p.pos
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
			p.pos = start
			return nil, p.fail("NaN and Infinity are not valid JSON numbers")
		}
	}
	intStart := p.pos
	if n := digits(); n == 0 {
		return nil, p.fail("invalid number: expected a digit")
	} else if n > 1 && p.src[intStart] == '0' {
		p.pos = intStart
		return nil, p.fail("invalid number: leading zeros are not allowed")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail("invalid number: expected a digit after '.'")
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("invalid number: expected a digit in the exponent")
		}
	}
	return json.Number(p.src[start:p.pos]), nil
}
