package writeback

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
)

// FuzzIRValue holds irValue to what VerifyPackage decoded before it
// reused the IR's one parse: encoding/json's first value and error, for
// every input. Where the parse is reused, encoding/json must accept the
// bytes and decode the same value.
func FuzzIRValue(f *testing.F) {
	deep := func(n int, inner string) string {
		return strings.Repeat(`{"a":[`, n) + inner + strings.Repeat(`]}`, n)
	}
	for _, s := range []string{
		`{"ir_hash": "sha256:00", "knowledges": [{"exported": true, "label": "worth", "type": "claim"}]}`,
		`{"a": 1, "a": 2, "b": {"c": [1, 2.5e10, -0, 1E400, null, true, false]}}`,
		`{"a": {"x": 1}, "a": [2]}`,
		`{"s": "\ud800", "t": "\ud800\u0041", "u": "\udc00\ud800", "v": "\u00e9\t\"\\\/"}`,
		`{"": "", " ": " "}`,
		"\xef\xbb\xbf{\"a\": 1}",
		`{"a": 1} {"b": 2}`,
		`{"a": 1} trailing`,
		"{\"a\": \"\xff\"}",
		`{"a": NaN}`,
		`[1, 2]`,
		`"str"`,
		` {"a":1}` + "\n\t\r ",
		`{"a":01}`,
		`{"a":1,}`,
		"",
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat("[", 9999) + "1" + strings.Repeat("]", 9999),
		strings.Repeat("[", 10000) + "1" + strings.Repeat("]", 10000),
		deep(4999, `{}`),
		deep(5000, `1`),
		deep(5000, ``),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var want any
		wantErr := dec.Decode(&want)
		c := ir.ParseCompiled(b, nil)
		got, err := irValue(b, c)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("irValue error %v, encoding/json %v", err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("irValue decoded %#v, encoding/json %#v", got, want)
		}
	})
}
