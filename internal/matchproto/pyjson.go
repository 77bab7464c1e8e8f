package matchproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Member is one key/value pair of a JSON object, in file order.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that keeps its members in file (or insertion)
// order: the reference re-serializes the commitment "in the key order read
// from the file" (§2.4, §4.1), and every file it writes has a fixed key order.
type Object []Member

// Get returns the value of key; with repeated keys the last one wins, as in
// Python's json module.
func (o Object) Get(key string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value, true
		}
	}
	return nil, false
}

// Has reports whether key is present.
func (o Object) Has(key string) bool { _, ok := o.Get(key); return ok }

// Keys returns the distinct keys in first-seen order.
func (o Object) Keys() []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range o {
		if !seen[m.Key] {
			seen[m.Key] = true
			out = append(out, m.Key)
		}
	}
	return out
}

// Set replaces key's value in place, or appends it.
func (o Object) Set(key string, v any) Object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{key, v})
}

// Decoded is a parsed JSON document: the value (Object, []any, string,
// json.Number, bool, nil) and the pointers of repeated object keys.
type Decoded struct {
	Value      any
	Duplicates []string
}

// Decode parses src strictly: invalid UTF-8, trailing data, NaN and
// Infinity are errors (Python accepts NaN; nullius does not, §8 W16).
func Decode(src []byte) (*Decoded, error) {
	if !utf8.Valid(src) {
		return nil, errors.New("input is not valid UTF-8")
	}
	if err := loneSurrogate(src); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	d := &Decoded{}
	v, err := decodeValue(dec, "", d)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: trailing data after the top-level value")
	}
	d.Value = v
	return d, nil
}

func decodeValue(dec *json.Decoder, ptr string, d *Decoded) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("invalid JSON: unexpected end of input")
		}
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("invalid JSON: %v", err)
				}
				key := kt.(string)
				kp := ptr + "/" + escapePointer(key)
				if seen[key] {
					d.Duplicates = append(d.Duplicates, kp)
				}
				seen[key] = true
				v, err := decodeValue(dec, kp, d)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{key, v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %v", err)
			}
			return obj, nil
		case '[':
			arr := []any{}
			for i := 0; dec.More(); i++ {
				v, err := decodeValue(dec, ptr+"/"+strconv.Itoa(i), d)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %v", err)
			}
			return arr, nil
		}
		return nil, fmt.Errorf("invalid JSON: unexpected %q", t)
	default:
		return t, nil
	}
}

// Ptr builds an RFC 6901 pointer from string keys and int indices.
func Ptr(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case string:
			b.WriteString(escapePointer(v))
		case int:
			b.WriteString(strconv.Itoa(v))
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// Marshal renders v the way the reference's json.dump(indent=2,
// ensure_ascii=False) does, plus one trailing newline: the byte format of
// every file the protocol shares (§9). Values: Object, []any, []string,
// string, json.Number, int, float64 (Python repr), bool, nil.
func Marshal(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, "  ", 0)
	b.WriteByte('\n')
	return b.Bytes()
}

// MarshalIndent is Marshal without the trailing newline, for values
// embedded in prompts.
func MarshalIndent(v any) string {
	var b bytes.Buffer
	writeValue(&b, v, "  ", 0)
	return b.String()
}

// MarshalCompact renders v as json.dumps(v, ensure_ascii=False,
// separators=(",", ":")): the hashed form of the criteria (§1.2).
func MarshalCompact(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, "", 0)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent string, depth int) {
	nl := func(d int) {
		if indent != "" {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(indent, d))
		}
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case string:
		b.WriteString(pyfmt.JSONString(t, false))
	case json.Number:
		b.WriteString(t.String())
	case int:
		b.WriteString(strconv.Itoa(t))
	case float64:
		b.WriteString(pyfmt.Repr(t))
	case []string:
		arr := make([]any, len(t))
		for i, s := range t {
			arr[i] = s
		}
		writeValue(b, arr, indent, depth)
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			writeValue(b, e, indent, depth+1)
		}
		nl(depth)
		b.WriteByte(']')
	case Object:
		if len(t) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			nl(depth + 1)
			b.WriteString(pyfmt.JSONString(m.Key, false))
			if indent != "" {
				b.WriteString(": ")
			} else {
				b.WriteByte(':')
			}
			writeValue(b, m.Value, indent, depth+1)
		}
		nl(depth)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("match.Marshal: unsupported type %T", v))
	}
}

// loneSurrogate refuses a \uD800-\uDFFF escape that is not half of a
// surrogate pair: encoding/json would silently turn it into U+FFFD, so a
// criterion would hash as something its author never wrote (the reference
// crashes on it, W21).
func loneSurrogate(src []byte) error {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(src) || src[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(src[i+2:i+6]), 16, 32)
		return rune(v), err == nil
	}
	for i := 0; i < len(src); i++ {
		if src[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // skip the escaped character
			continue
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if lo, ok := hex4(i + 6); ok && lo >= 0xDC00 && lo <= 0xDFFF {
				i += 11
				continue
			}
			return fmt.Errorf("invalid JSON: lone surrogate \\u%04x at byte %d; a string must hold whole characters", r, i)
		case r >= 0xDC00 && r <= 0xDFFF:
			return fmt.Errorf("invalid JSON: lone surrogate \\u%04x at byte %d; a string must hold whole characters", r, i)
		}
		i += 5
	}
	return nil
}
