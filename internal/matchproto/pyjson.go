package matchproto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Member is one key/value pair of a JSON object, in file order.
type Member = jsonloc.Member

// Object is a JSON object that keeps its members in file (or insertion)
// order: the reference re-serializes the commitment "in the key order read
// from the file" (§2.4, §4.1), and every file it writes has a fixed key order.
// It is jsonloc's ordered object, so one parse gives both the model and the
// positions (issue 14).
type Object = jsonloc.Object

// Decoded is a parsed JSON document: the value (Object, []any, string,
// json.Number, bool, nil) and the pointers of repeated object keys.
type Decoded struct {
	Value      any
	Duplicates []string
}

// DecodeOptions are the parse options of the protocol's files: ordered
// objects, and a lone surrogate escape refused (encoding/json would
// silently turn it into U+FFFD, so a criterion would hash as something its
// author never wrote; the reference crashes on it, W21). Invalid UTF-8,
// trailing data, NaN and Infinity are errors (Python accepts NaN; nullius
// does not, §8 W16).
var DecodeOptions = jsonloc.Options{Ordered: true, StrictSurrogates: true}

// Decode parses src strictly (DecodeOptions).
func Decode(src []byte) (*Decoded, error) {
	doc, err := jsonloc.Parse(src, DecodeOptions)
	if err != nil {
		return nil, err
	}
	return &Decoded{Value: doc.Value, Duplicates: doc.Duplicates}, nil
}

// Ptr builds an RFC 6901 pointer from string keys and int indices.
func Ptr(tokens ...any) string { return jsonloc.Pointer(tokens...) }

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
