package jsonloc

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseValues(t *testing.T) {
	doc, err := Parse([]byte(`{"a": [1, 2.5e3, -0.1], "b": {"c~d/e": "x\u00e9\n"}, "t": true, "n": null}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": []any{json.Number("1"), json.Number("2.5e3"), json.Number("-0.1")},
		"b": map[string]any{"c~d/e": "xé\n"},
		"t": true,
		"n": nil,
	}
	if !reflect.DeepEqual(doc.Value, want) {
		t.Fatalf("got %#v", doc.Value)
	}
}

func TestLocate(t *testing.T) {
	src := "{\n  \"a\": [\n    1,\n    {\"k/x\": \"v\"}\n  ],\n  \"é\": 2\n}\n"
	doc, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ptr       string
		line, col int
	}{
		{"", 1, 1},
		{"/a", 2, 8},
		{"/a/0", 3, 5},
		{"/a/1", 4, 5},
		{Pointer("a", 1, "k/x"), 4, 13},
		{"/a/1/missing", 4, 5}, // nearest ancestor
		{"/é", 6, 9},           // byte columns: "é" is two bytes
		{"/nope/deeper", 1, 1},
	}
	for _, c := range cases {
		l, col := doc.Locate(c.ptr)
		if l != c.line || col != c.col {
			t.Errorf("Locate(%q) = %d:%d, want %d:%d", c.ptr, l, col, c.line, c.col)
		}
	}
	if s, e, ok := doc.Range("/a/1"); !ok || src[s:e] != `{"k/x": "v"}` {
		t.Errorf("Range(/a/1) = %q", src[s:e])
	}
	if l, c := doc.LocateKey("/a"); l != 2 || c != 3 {
		t.Errorf("LocateKey(/a) = %d:%d, want 2:3", l, c)
	}
}

func TestPointerEscaping(t *testing.T) {
	if got := Pointer("a/b", 3, "m~n"); got != "/a~1b/3/m~0n" {
		t.Fatalf("Pointer = %q", got)
	}
	if Pointer() != "" {
		t.Fatal("empty pointer must be the whole document")
	}
}

func TestDuplicates(t *testing.T) {
	doc, err := Parse([]byte(`{"a": 1, "a": 2, "b": {"c": 1, "c": 3}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc.Duplicates, []string{"/a", "/b/c"}) {
		t.Fatalf("Duplicates = %v", doc.Duplicates)
	}
	if doc.Value.(map[string]any)["a"] != json.Number("2") {
		t.Fatal("last duplicate must win")
	}
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"", 1, 1, "empty document"},
		{"{\"a\": NaN}", 1, 7, "NaN and Infinity"},
		{"[-Infinity]", 1, 2, "NaN and Infinity"},
		{"{\"a\": 1", 1, 8, "truncated"},
		{"{\"a\": 1} x", 1, 10, "after the top-level value"},
		{"[01]", 1, 2, "leading zeros"},
		{"\"a\x01\"", 1, 3, "control character"},
		{"\"\\q\"", 1, 2, "invalid escape"},
		{"{\n  \"a\": \xff}", 2, 8, "invalid UTF-8 byte 0xff"},
		{"\xef\xbb\xbf{}", 1, 1, "byte-order mark"},
		{"{'a': 1}", 1, 2, "expected a quoted member name"},
		{"[1,]", 1, 4, "expected a value"},
		{strings.Repeat("[", MaxDepth+2), 1, MaxDepth + 2, "nesting deeper"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.src), Options{})
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want *SyntaxError", c.src, err)
			continue
		}
		if se.Line != c.line || se.Col != c.col || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("Parse(%q) = %d:%d %q, want %d:%d containing %q", c.src, se.Line, se.Col, se.Msg, c.line, c.col, c.msg)
		}
	}
}

func TestBOMAllowed(t *testing.T) {
	doc, err := Parse([]byte("\xef\xbb\xbf{\"a\": 1}"), Options{AllowBOM: true})
	if err != nil {
		t.Fatal(err)
	}
	if l, c := doc.Locate("/a"); l != 1 || c != 10 {
		t.Fatalf("positions must count the BOM bytes: got %d:%d", l, c)
	}
}

func TestSurrogates(t *testing.T) {
	doc, err := Parse([]byte(`["\ud83d\ude00", "\ud800x"]`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	arr := doc.Value.([]any)
	if arr[0] != "😀" || arr[1] != "\uFFFDx" {
		t.Fatalf("got %q", arr)
	}
}

// FuzzParse checks that Parse never panics, agrees with encoding/json on
// which valid-UTF-8 inputs are JSON, and decodes to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2,{"b":null}]}`, `"x\u0041"`, `-0.5e+3`, `{"a":1,"a":2}`, "[1,\n2", `NaN`, `{"k":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src, Options{})
		if !utf8.Valid(src) {
			if err == nil {
				t.Fatal("accepted invalid UTF-8")
			}
			return
		}
		if (err == nil) != json.Valid(src) {
			t.Fatalf("Parse err=%v but json.Valid=%v for %q", err, json.Valid(src), src)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		var want any
		dec := json.NewDecoder(strings.NewReader(string(src)))
		dec.UseNumber()
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(doc.Value, want) {
			t.Fatalf("value mismatch for %q: %#v vs %#v", src, doc.Value, want)
		}
		checkRanges(t, doc, "", doc.Value)
		ordered, err := Parse(src, Options{Ordered: true})
		if err != nil || !reflect.DeepEqual(Plain(ordered.Value), doc.Value) || !reflect.DeepEqual(ordered.Duplicates, doc.Duplicates) {
			t.Fatalf("the ordered model differs: %v", err)
		}
	})
}

// checkRanges walks the decoded value: every pointer in it resolves, and
// the byte range it maps to decodes to that very value.
func checkRanges(t *testing.T, doc *Doc, ptr string, v any) {
	t.Helper()
	start, end, ok := doc.Range(ptr)
	if !ok {
		t.Fatalf("Range(%q) does not resolve", ptr)
	}
	sub, err := Parse(doc.Src[start:end], Options{})
	if err != nil || !reflect.DeepEqual(sub.Value, v) {
		t.Fatalf("Range(%q) = %q, which decodes to %#v (%v), not %#v", ptr, doc.Src[start:end], sub, err, v)
	}
	if l, c := doc.Locate(ptr); l < 1 || c < 1 {
		t.Fatalf("Locate(%q) = %d:%d", ptr, l, c)
	}
	switch t2 := v.(type) {
	case map[string]any:
		for k, e := range t2 {
			checkRanges(t, doc, ptr+"/"+Escape(k), e)
		}
	case []any:
		for i, e := range t2 {
			checkRanges(t, doc, ptr+"/"+strconv.Itoa(i), e)
		}
	}
}

// Containers larger than the walk threshold are looked up through their
// index, with the same answers as small ones: the last of repeated names,
// escaped tokens, indices without leading zeros.
func TestLocateLargeContainers(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%q: [%s],\n", fmt.Sprintf("k%d", i), strings.Repeat("0, ", 30)+"1")
	}
	b.WriteString(`"a/b~c": 1, "k3": "last"` + "\n}")
	doc, err := Parse([]byte(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ptr       string
		line, col int
		exact     bool
	}{
		{"/k0/30", 2, 98, true},
		{"/k39/0", 41, 9, true},
		{"/k39/31", 41, 8, false}, // past the end: the array
		{"/k39/01", 41, 8, false}, // not an index
		{"/k3", 42, 19, true},     // the last "k3" wins
		{"/a~1b~0c", 42, 10, true},
		{"/a~2b", 1, 1, false},
	} {
		l, col := doc.Locate(c.ptr)
		_, _, ok := doc.Range(c.ptr)
		if l != c.line || col != c.col || ok != c.exact {
			t.Errorf("Locate(%q) = %d:%d (exact %v), want %d:%d (exact %v)", c.ptr, l, col, ok, c.line, c.col, c.exact)
		}
	}
	if l, c := doc.LocateKey("/k3"); l != 42 || c != 13 {
		t.Errorf("LocateKey(/k3) = %d:%d", l, c)
	}
}

func TestOrderedAndPlain(t *testing.T) {
	doc, err := Parse([]byte(`{"b": 1, "a": [{"x": true}], "b": 2}`), Options{Ordered: true})
	if err != nil {
		t.Fatal(err)
	}
	want := Object{{"b", json.Number("1")}, {"a", []any{Object{{"x", true}}}}, {"b", json.Number("2")}}
	if !reflect.DeepEqual(doc.Value, want) || !reflect.DeepEqual(doc.Duplicates, []string{"/b"}) {
		t.Fatalf("got %#v %v", doc.Value, doc.Duplicates)
	}
	if v, _ := doc.Value.(Object).Get("b"); v != json.Number("2") {
		t.Fatalf("Get(b) = %v", v)
	}
	plain := Plain(doc.Value)
	if !reflect.DeepEqual(plain, map[string]any{"b": json.Number("2"), "a": []any{map[string]any{"x": true}}}) {
		t.Fatalf("Plain = %#v", plain)
	}
	if l, c := doc.Locate("/a/0/x"); l != 1 || c != 22 {
		t.Fatalf("Locate = %d:%d", l, c)
	}
}

func TestStrictSurrogates(t *testing.T) {
	for _, src := range []string{`["ok \ud800"]`, `{"\udc00": 1}`, `["\ud800\u0041"]`} {
		_, err := Parse([]byte(src), Options{StrictSurrogates: true})
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "lone surrogate") || se.Line != 1 {
			t.Errorf("%s: %v", src, err)
		}
	}
	if _, err := Parse([]byte(`["\ud83d\ude00"]`), Options{StrictSurrogates: true}); err != nil {
		t.Error(err)
	}
}

func TestUnescape(t *testing.T) {
	for tok, want := range map[string]string{"a": "a", "a~1b": "a/b", "~0~1": "~/", "~01": "~1"} {
		if got, ok := Unescape(tok); !ok || got != want || Escape(got) != tok {
			t.Errorf("Unescape(%q) = %q %v", tok, got, ok)
		}
	}
	for _, tok := range []string{"~", "a~2", "~x"} {
		if _, ok := Unescape(tok); ok {
			t.Errorf("Unescape(%q) accepted", tok)
		}
	}
}

// Positions cost a fixed 16 bytes per value: nesting depth adds nothing
// (the old pointer-keyed maps held a pointer string per value, as long as
// its depth, so a deep document cost the square of its size).
func TestDeepDocumentMemory(t *testing.T) {
	src := []byte(strings.Repeat(`{"k":[`, 3000) + "1" + strings.Repeat("]}", 3000))
	doc, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.nodes) != 6001 || cap(doc.nodes) > 2*len(doc.nodes)+8 {
		t.Fatalf("%d nodes, capacity %d", len(doc.nodes), cap(doc.nodes))
	}
	ptr := strings.Repeat("/k/0", 3000)
	if s, e, ok := doc.Range(ptr); !ok || string(src[s:e]) != "1" {
		t.Fatalf("Range of the deepest value: %d %d %v", s, e, ok)
	}
}

// A document of tiny values, whose decoded form would be tens of times its
// size, is refused while it is parsed; real shapes pass.
func TestDensity(t *testing.T) {
	for _, c := range []struct {
		name, src string
		ok        bool
	}{
		{"tiny objects", "[" + strings.Repeat(`{"a":1},`, 1<<20) + "{}]", false},
		{"zeros", "[" + strings.Repeat("0,", 5<<20) + "0]", false},
		{"empty objects", "[" + strings.Repeat("{},", 3<<20) + "{}]", false},
		{"small file of tiny values", "[" + strings.Repeat(`{"a":1},`, 1000) + "{}]", true},
		{"records", "[" + strings.Repeat(`{"argument": "the pilot bounds the verification cost of the scheme", "anchor_type": "computation", "anchor_ref": "artifact://campaign/toy/computations/pilot.json"},`, 100000) + "{}]", true},
	} {
		_, err := Parse([]byte(c.src), Options{Ordered: true})
		if c.ok != (err == nil) {
			t.Errorf("%s: %v", c.name, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "document too dense")) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{{`1`, 0}, {`[]`, 0}, {`[1]`, 1}, {`{"a":[{}]}`, 2}, {`{"a":[{"b":null}]}`, 3}, {strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), MaxDepth}} {
		d, err := Parse([]byte(tc.src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Depth() != tc.want {
			t.Errorf("Depth(%.20s) = %d, want %d", tc.src, d.Depth(), tc.want)
		}
	}
}
