package pyfmt

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Dict is a mapping that keeps its keys in order, as a Python dict does
// (an ordered JSON object, for one). Value renders its items in that order;
// a plain map[string]any has no order, so Value sorts its keys.
type Dict interface {
	PyItems() iter.Seq2[string, any]
}

// Str returns repr(s) as CPython 3.11 prints it: single quotes unless s
// holds a single quote and no double quote; backslash, the quote, \t \n \r
// escaped; other characters str.isprintable() refuses as \xhh, \uhhhh or
// \Uhhhhhhhh. A byte that is not UTF-8 is shown as the lone surrogate
// Python's surrogateescape decoding gives it (\udc80 to \udcff).
func Str(s string) string {
	return string(appendStr(nil, s, quoteFor(s), false))
}

// ASCII returns ascii(s) as CPython 3.11 prints it: Str with every
// non-ASCII character escaped too (\xhh, \uhhhh, \Uhhhhhhhh).
func ASCII(s string) string {
	return string(appendStr(nil, s, quoteFor(s), true))
}

// Quote returns s as a Python string literal delimited by q (' or "),
// escaped as repr escapes: for source code that must use one kind of quote.
// With q = quoteFor(s) it is Str.
func Quote(s string, q byte) string {
	return string(appendStr(nil, s, q, false))
}

// Value returns Python's repr of a Go or decoded-JSON value, as CPython 3.11
// prints it: nil None, bool True/False, strings as Str, json.Number as the int
// or float Python's json module decodes it to, floats as Repr, Go integers,
// []any and []string as lists, map[string]any (keys sorted) and Dict as
// dicts. Anything else is printed by fmt.
func Value(v any) string {
	w := writer{max: -1}
	w.value(v)
	return string(w.b)
}

// Short is Value for a message, bounded so one message stays readable: a
// string longer than ShortMax characters is cut as Excerpt cuts it, and any
// other repr longer than ShortMax characters is cut with "..." appended.
// Nothing past the cut is rendered, so a huge value costs no more than a
// small one.
func Short(v any) string {
	if s, ok := v.(string); ok {
		return Excerpt(s, ShortMax)
	}
	w := writer{max: 4 * ShortMax}
	w.value(v)
	out := string(w.b)
	if w.cut || utf8.RuneCountInString(out) > ShortMax {
		return cutRunes(out, ShortMax-3) + "..."
	}
	return out
}

// ShortMax is how many characters Short keeps.
const ShortMax = 80

// Excerpt returns the repr of s cut to its first max characters, with
// "..." added inside the quotes where it was cut: 'a long note tha...'.
func Excerpt(s string, max int) string {
	if utf8.RuneCountInString(s) > max {
		s = cutRunes(s, max) + "..."
	}
	return Str(s)
}

// Describe renders a decoded JSON value for a message about a JSON file:
// a scalar as Short, an array or object by its JSON type name ("an array",
// "an object"), so a message never dumps a subtree.
func Describe(v any) string {
	switch v.(type) {
	case []any, []string:
		return "an array"
	case map[string]any, Dict:
		return "an object"
	}
	return Short(v)
}

func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// quoteFor is repr's choice of quote.
func quoteFor(s string) byte {
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		return '"'
	}
	return '\''
}

func appendStr(b []byte, s string, q byte, asciiOnly bool) []byte {
	const hexdig = "0123456789abcdef"
	hex := func(b []byte, prefix string, r rune, digits int) []byte {
		b = append(b, prefix...)
		for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
			b = append(b, hexdig[(r>>shift)&15])
		}
		return b
	}
	b = append(b, q)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = hex(b, `\udc`, rune(s[i]), 2)
		case r == '\\' || r == rune(q):
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < 0x20 || r == 0x7f:
			b = hex(b, `\x`, r, 2)
		case r < 0x7f:
			b = append(b, byte(r))
		case asciiOnly || !printable(r):
			switch {
			case r <= 0xff:
				b = hex(b, `\x`, r, 2)
			case r <= 0xffff:
				b = hex(b, `\u`, r, 4)
			default:
				b = hex(b, `\U`, r, 8)
			}
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, q)
}

// printable is Python's str.isprintable() for one non-ASCII character.
func printable(r rune) bool {
	_, found := slices.BinarySearchFunc(unprintable[:], r, func(rg [2]rune, r rune) int {
		switch {
		case rg[1] < r:
			return -1
		case rg[0] > r:
			return 1
		}
		return 0
	})
	return !found
}

// writer renders a repr, stopping once it holds more than max bytes (max < 0:
// no limit) so a bounded rendering of a huge value stays cheap.
type writer struct {
	b   []byte
	max int
	cut bool
}

func (w *writer) full() bool {
	if w.max >= 0 && len(w.b) > w.max {
		w.cut = true
	}
	return w.cut
}

func (w *writer) str(s string) {
	if w.max >= 0 && len(s) > w.max {
		s = cutRunes(s, w.max)
		w.cut = true
	}
	w.b = appendStr(w.b, s, quoteFor(s), false)
}

func (w *writer) value(v any) {
	if w.full() {
		return
	}
	switch x := v.(type) {
	case nil:
		w.b = append(w.b, "None"...)
	case bool:
		if x {
			w.b = append(w.b, "True"...)
		} else {
			w.b = append(w.b, "False"...)
		}
	case string:
		w.str(x)
	case json.Number:
		w.b = append(w.b, Number(string(x))...)
	case float64:
		w.b = append(w.b, Repr(x)...)
	case float32:
		w.b = append(w.b, Repr(float64(x))...)
	case int:
		w.b = strconv.AppendInt(w.b, int64(x), 10)
	case int64:
		w.b = strconv.AppendInt(w.b, x, 10)
	case int32:
		w.b = strconv.AppendInt(w.b, int64(x), 10)
	case uint64:
		w.b = strconv.AppendUint(w.b, x, 10)
	case uint:
		w.b = strconv.AppendUint(w.b, uint64(x), 10)
	case []any:
		w.list(len(x), func(i int) any { return x[i] })
	case []string:
		w.list(len(x), func(i int) any { return x[i] })
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w.dict(func(yield func(string, any) bool) {
			for _, k := range keys {
				if !yield(k, x[k]) {
					return
				}
			}
		})
	case Dict:
		w.dict(x.PyItems())
	default:
		w.b = fmt.Append(w.b, v)
	}
}

func (w *writer) list(n int, at func(int) any) {
	w.b = append(w.b, '[')
	for i := 0; i < n && !w.full(); i++ {
		if i > 0 {
			w.b = append(w.b, ", "...)
		}
		w.value(at(i))
	}
	w.b = append(w.b, ']')
}

func (w *writer) dict(items iter.Seq2[string, any]) {
	w.b = append(w.b, '{')
	first := true
	for k, v := range items {
		if w.full() {
			break
		}
		if !first {
			w.b = append(w.b, ", "...)
		}
		first = false
		w.str(k)
		w.b = append(w.b, ": "...)
		w.value(v)
	}
	w.b = append(w.b, '}')
}

// Number returns the repr of the value Python's json module decodes the
// JSON number literal n to: an int (any size; -0 is 0) when n has no
// fraction or exponent, else a float (overflow to inf, underflow to 0.0).
// A string that is not a number is returned unchanged.
func Number(n string) string {
	digits, neg := strings.CutPrefix(n, "-")
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		digits = strings.TrimLeft(digits, "0")
		switch {
		case digits == "":
			return "0"
		case neg:
			return "-" + digits
		}
		return digits
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil && !isRange(err) {
		return n
	}
	return Repr(f)
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
