// Package pyformat expands a template exactly as Python's str.format does
// when every argument is a keyword argument holding a str — how the Python
// tools expand a `--runner` template's {prompt} and {system}:
// `{{` and `}}` are braces, `{name}` is the argument, `{}` or `{0}` is an
// IndexError (there are no positional arguments), an unknown name a
// KeyError, and conversions (`!r`, `!s`, `!a`), indexing (`[3]`) and
// format specs (`:>20`, `:.5`, nested `{system}` in the spec) behave as in
// CPython 3.11, error messages included. The golden table in testdata is
// generated from CPython (scripts/runner_template_golden.py).
//
// One thing is refused where Python would answer: attribute access on a
// str (`{prompt.upper}`) renders a bound method's repr with a memory
// address in Python; here it is an error.
package pyformat

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Error is the exception Python raises: its class and its str().
type Error struct {
	Type string // KeyError, IndexError, ValueError, AttributeError, TypeError
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func valueError(format string, args ...any) *Error {
	return &Error{"ValueError", fmt.Sprintf(format, args...)}
}

// maxLen bounds an expansion (a huge width would allocate gigabytes); no
// argument of a real command line comes near it.
const maxLen = 1 << 20

// Format returns template.format(**kwargs).
func Format(template string, kwargs map[string]string) (string, error) {
	f := &formatter{kwargs: kwargs}
	out, err := f.build([]rune(template), 2)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

type formatter struct {
	kwargs map[string]string
	auto   int // 0 unset, 1 automatic numbering, 2 manual
	next   int
}

// build is CPython's build_string over MarkupIterator.
func (f *formatter) build(s []rune, depth int) ([]rune, error) {
	if depth <= 0 {
		return nil, valueError("Max string recursion exceeded")
	}
	var out []rune
	i := 0
	for i < len(s) {
		// Literal text up to a brace.
		start := i
		var c rune
		markup := false
		for i < len(s) {
			c = s[i]
			i++
			if c == '{' || c == '}' {
				markup = true
				break
			}
		}
		atEnd := i >= len(s)
		n := i - start
		if c == '}' && markup && (atEnd || s[i] != '}') {
			return nil, valueError("Single '}' encountered in format string")
		}
		if atEnd && c == '{' && markup {
			return nil, valueError("Single '{' encountered in format string")
		}
		if !atEnd && markup {
			if s[i] == c { // {{ or }}: the brace is literal text
				i++
				markup = false
			} else {
				n--
			}
		}
		out = append(out, s[start:start+n]...)
		if len(out) > maxLen {
			return nil, valueError("the expansion is longer than %d characters", maxLen)
		}
		if !markup {
			continue
		}
		name, spec, conv, expand, next, err := parseField(s, i)
		if err != nil {
			return nil, err
		}
		i = next
		v, err := f.field(name, spec, conv, expand, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
		if len(out) > maxLen {
			return nil, valueError("the expansion is longer than %d characters", maxLen)
		}
	}
	return out, nil
}

// parseField is CPython's parse_field: from just after '{', the field
// name, the format spec, the conversion (0 for none), whether the spec
// holds nested fields, and where the field ends.
func parseField(s []rune, i int) (name, spec []rune, conv rune, expand bool, next int, err error) {
	start := i
	var c rune
	for i < len(s) {
		c = s[i]
		i++
		if c == '{' {
			return nil, nil, 0, false, 0, valueError("unexpected '{' in field name")
		}
		if c == '[' {
			for i < len(s) && s[i] != ']' {
				i++
			}
			continue
		}
		if c == '}' || c == ':' || c == '!' {
			break
		}
	}
	name = s[start : i-1]
	if c == '!' || c == ':' {
		if c == '!' {
			if i >= len(s) {
				return nil, nil, 0, false, 0, valueError("end of string while looking for conversion specifier")
			}
			conv = s[i]
			i++
			if i < len(s) {
				c2 := s[i]
				i++
				if c2 == '}' {
					return name, nil, conv, false, i, nil
				}
				if c2 != ':' {
					return nil, nil, 0, false, 0, valueError("expected ':' after conversion specifier")
				}
			}
		}
		specStart := i
		count := 1
		for i < len(s) {
			c := s[i]
			i++
			switch c {
			case '{':
				expand = true
				count++
			case '}':
				count--
				if count == 0 {
					return name, s[specStart : i-1], conv, expand, i, nil
				}
			}
		}
		return nil, nil, 0, false, 0, valueError("unmatched '{' in format spec")
	}
	if c != '}' {
		return nil, nil, 0, false, 0, valueError("expected '}' before end of string")
	}
	return name, nil, conv, false, i, nil
}

// field renders one replacement field (CPython's output_markup).
func (f *formatter) field(name, spec []rune, conv rune, expand bool, depth int) ([]rune, error) {
	v, err := f.object(name)
	if err != nil {
		return nil, err
	}
	switch conv {
	case 0, 's':
	case 'r':
		v = pyfmt.Str(v)
	case 'a':
		v = pyfmt.ASCII(v)
	default:
		if conv > 32 && conv < 127 {
			return nil, valueError("Unknown conversion specifier %c", conv)
		}
		return nil, valueError("Unknown conversion specifier \\x%x", conv)
	}
	if expand {
		if spec, err = f.build(spec, depth-1); err != nil {
			return nil, err
		}
	}
	return formatStr([]rune(v), spec)
}

// object looks the field name up: the first part in the keyword
// arguments (a number or nothing means a positional argument, of which
// there are none), then each .attribute or [index].
func (f *formatter) object(name []rune) (string, error) {
	i := 0
	for i < len(name) && name[i] != '.' && name[i] != '[' {
		i++
	}
	first, rest := name[:i], name[i:]
	idx, isNum, err := integer(first)
	if err != nil {
		return "", err
	}
	if len(first) == 0 || isNum {
		if f.auto == 0 {
			f.auto = 2
			if len(first) == 0 {
				f.auto = 1
			}
		}
		if f.auto == 2 && len(first) == 0 {
			return "", valueError("cannot switch from manual field specification to automatic field numbering")
		}
		if f.auto == 1 && len(first) != 0 {
			return "", valueError("cannot switch from automatic field numbering to manual field specification")
		}
		if len(first) == 0 {
			idx = f.next
			f.next++
		}
		return "", &Error{"IndexError", fmt.Sprintf("Replacement index %d out of range for positional args tuple", idx)}
	}
	v, ok := f.kwargs[string(first)]
	if !ok {
		return "", &Error{"KeyError", pyfmt.Str(string(first))}
	}
	for len(rest) > 0 {
		// CPython's FieldNameIterator_next, then the lookup.
		if rest[0] != '.' && rest[0] != '[' {
			return "", valueError("Only '.' or '[' may follow ']' in format field specifier")
		}
		attr := rest[0] == '.'
		rest = rest[1:]
		j := 0
		var part []rune
		if attr {
			for j < len(rest) && rest[j] != '.' && rest[j] != '[' {
				j++
			}
			part, rest = rest[:j], rest[j:]
		} else {
			for j < len(rest) && rest[j] != ']' {
				j++
			}
			if j == len(rest) {
				return "", valueError("Missing ']' in format string")
			}
			part, rest = rest[:j], rest[j+1:]
		}
		n, isNum := 0, false
		if !attr {
			var err error
			if n, isNum, err = integer(part); err != nil {
				return "", err
			}
		}
		if len(part) == 0 {
			return "", valueError("Empty attribute in format string")
		}
		if attr {
			if strAttributes.Get()[string(part)] {
				return "", &Error{"AttributeError", "attribute access on a str ({…." + string(part) + "}) is not supported in a --runner template"}
			}
			return "", &Error{"AttributeError", "'str' object has no attribute '" + string(part) + "'"}
		}
		if !isNum {
			return "", &Error{"TypeError", "string indices must be integers, not 'str'"}
		}
		r := []rune(v)
		if n >= len(r) {
			return "", &Error{"IndexError", "string index out of range"}
		}
		v = string(r[n])
	}
	return v, nil
}

// strAttributes is dir(str) in CPython 3.11: the attribute names for which
// Python would render an object (a bound method) instead of failing.
// Built on first use: a template naming an attribute is rare, and package
// initialisation is paid by every nullius process.
var strAttributes = lazy.New(buildStrAttributes)

// buildStrAttributes builds strAttributes on first use.
func buildStrAttributes() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`__add__ __class__ __contains__ __delattr__ __dir__ __doc__ __eq__
		__format__ __ge__ __getattribute__ __getitem__ __getnewargs__ __getstate__ __gt__ __hash__
		__init__ __init_subclass__ __iter__ __le__ __len__ __lt__ __mod__ __mul__ __ne__ __new__
		__reduce__ __reduce_ex__ __repr__ __rmod__ __rmul__ __setattr__ __sizeof__ __str__
		__subclasshook__ capitalize casefold center count encode endswith expandtabs find format
		format_map index isalnum isalpha isascii isdecimal isdigit isidentifier islower isnumeric
		isprintable isspace istitle isupper join ljust lower lstrip maketrans partition
		removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split
		splitlines startswith strip swapcase title translate upper zfill`) {
		m[n] = true
	}
	return m
}

// integer is CPython's get_integer: the value of a run of decimal digits
// (any Unicode decimal digit), isNum false when s is empty or holds
// anything else.
func integer(s []rune) (int, bool, error) {
	if len(s) == 0 {
		return 0, false, nil
	}
	const max = int(^uint(0) >> 1)
	acc := 0
	for _, r := range s {
		d := decimal(r)
		if d < 0 {
			return 0, false, nil
		}
		if acc > (max-d)/10 {
			return 0, false, valueError("Too many decimal digits in format string")
		}
		acc = acc*10 + d
	}
	return acc, true, nil
}

// decimal is Py_UNICODE_TODECIMAL: the digit value of a character of
// category Nd, -1 otherwise. Unicode encodes decimal digits in runs of
// ten, zero first, so the value is the distance from the run's start.
func decimal(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	if r < 0x80 || !unicode.Is(unicode.Nd, r) {
		return -1
	}
	zero := r
	for unicode.Is(unicode.Nd, zero-1) {
		zero--
	}
	return int((r - zero) % 10)
}

// spec is a parsed standard format spec (CPython's InternalFormatSpec).
type spec struct {
	fill, align, sign rune
	alternate, noNeg0 bool
	width, precision  int
	thousands         rune
	typ               rune
}

// formatStr is format(str, spec): CPython's
// parse_internal_render_format_spec with default type 's' and alignment
// '<', then format_string_internal.
func formatStr(v, specText []rune) ([]rune, error) {
	if len(specText) == 0 {
		return v, nil
	}
	sp := spec{fill: ' ', align: '<', width: -1, precision: -1, typ: 's'}
	pos, end := 0, len(specText)
	fillSpecified := false
	isAlign := func(r rune) bool { return r == '<' || r == '>' || r == '=' || r == '^' }
	if end-pos >= 2 && isAlign(specText[pos+1]) {
		sp.align, sp.fill = specText[pos+1], specText[pos]
		fillSpecified = true
		pos += 2
	} else if end-pos >= 1 && isAlign(specText[pos]) {
		sp.align = specText[pos]
		pos++
	}
	if end-pos >= 1 && (specText[pos] == '+' || specText[pos] == '-' || specText[pos] == ' ') {
		sp.sign = specText[pos]
		pos++
	}
	if end-pos >= 1 && specText[pos] == 'z' {
		sp.noNeg0 = true
		pos++
	}
	if end-pos >= 1 && specText[pos] == '#' {
		sp.alternate = true
		pos++
	}
	if !fillSpecified && end-pos >= 1 && specText[pos] == '0' {
		sp.fill = '0' // a str's default alignment is '<', so no '=' here
		pos++
	}
	var err error
	var n int
	if n, pos, err = digits(specText, pos); err != nil {
		return nil, err
	} else if n >= 0 {
		sp.width = n
	}
	if end-pos > 0 && specText[pos] == ',' {
		sp.thousands = ','
		pos++
	}
	if end-pos > 0 && specText[pos] == '_' {
		if sp.thousands != 0 {
			return nil, valueError("Cannot specify both ',' and '_'.")
		}
		sp.thousands = '_'
		pos++
	}
	if end-pos > 0 && specText[pos] == ',' && sp.thousands == '_' {
		return nil, valueError("Cannot specify both ',' and '_'.")
	}
	if end-pos > 0 && specText[pos] == '.' {
		pos++
		if n, pos, err = digits(specText, pos); err != nil {
			return nil, err
		} else if n < 0 {
			return nil, valueError("Format specifier missing precision")
		}
		sp.precision = n
	}
	if end-pos > 1 {
		return nil, valueError("Invalid format specifier '%s' for object of type 'str'", string(specText))
	}
	if end-pos == 1 {
		sp.typ = specText[pos]
	}
	if sp.thousands != 0 {
		switch sp.typ {
		case 'd', 'e', 'f', 'g', 'E', 'G', '%', 'F', 0:
		case 'b', 'o', 'x', 'X':
			if sp.thousands != '_' {
				return nil, thousandsError(sp.thousands, sp.typ)
			}
		default:
			return nil, thousandsError(sp.thousands, sp.typ)
		}
	}
	if sp.typ != 's' {
		if sp.typ > 32 && sp.typ < 128 {
			return nil, valueError("Unknown format code '%c' for object of type 'str'", sp.typ)
		}
		return nil, valueError("Unknown format code '\\x%x' for object of type 'str'", sp.typ)
	}
	switch {
	case sp.sign == ' ':
		return nil, valueError("Space not allowed in string format specifier")
	case sp.sign != 0:
		return nil, valueError("Sign not allowed in string format specifier")
	case sp.noNeg0:
		return nil, valueError("Negative zero coercion (z) not allowed in string format specifier")
	case sp.alternate:
		return nil, valueError("Alternate form (#) not allowed in string format specifier")
	case sp.align == '=':
		return nil, valueError("'=' alignment not allowed in string format specifier")
	}
	n = len(v)
	if sp.precision >= 0 && n >= sp.precision {
		n = sp.precision
	}
	total := n
	if sp.width > n {
		total = sp.width
	}
	if total > maxLen {
		return nil, valueError("the expansion is longer than %d characters", maxLen)
	}
	lpad := 0
	switch sp.align {
	case '>':
		lpad = total - n
	case '^':
		lpad = (total - n) / 2
	}
	out := make([]rune, 0, total)
	for range lpad {
		out = append(out, sp.fill)
	}
	out = append(out, v[:n]...)
	for len(out) < total {
		out = append(out, sp.fill)
	}
	return out, nil
}

// digits reads a run of decimal digits at pos: its value (-1 for none)
// and the position after it.
func digits(s []rune, pos int) (int, int, error) {
	const max = int(^uint(0) >> 1)
	acc, n := 0, 0
	for ; pos < len(s); pos, n = pos+1, n+1 {
		d := decimal(s[pos])
		if d < 0 {
			break
		}
		if acc > (max-d)/10 {
			return 0, pos, valueError("Too many decimal digits in format string")
		}
		acc = acc*10 + d
	}
	if n == 0 {
		return -1, pos, nil
	}
	return acc, pos, nil
}

func thousandsError(sep, typ rune) error {
	if typ > 32 && typ < 128 {
		return valueError("Cannot specify '%c' with '%c'.", sep, typ)
	}
	return valueError("Cannot specify '%c' with '\\x%x'.", sep, typ)
}
