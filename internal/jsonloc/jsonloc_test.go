package jsonloc

import (
	"encoding/json"
	"errors"
	"reflect"
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
		for p := range doc.offsets {
			doc.Locate(p)
		}
	})
}
