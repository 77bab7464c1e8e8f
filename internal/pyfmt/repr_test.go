package pyfmt

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"iter"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// goldenLines yields the tab-separated pairs of a golden file written by
// scripts/pyfmt_golden.py (python3 on CPython 3.11), failing on a short file.
func goldenLines(t *testing.T, name string, min int) [][2]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", name, line)
		}
		out = append(out, [2]string{in, want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < min {
		t.Fatalf("%s: only %d cases; regenerate with python3 scripts/pyfmt_golden.py", name, len(out))
	}
	return out
}

// TestStrGolden: Str and ASCII agree with CPython's repr() and ascii() on
// every boundary of the unprintable table, quotes, escapes, bytes that are
// not UTF-8 and random strings.
func TestStrGolden(t *testing.T) {
	for file, f := range map[string]func(string) string{"repr_str.golden": Str, "ascii_str.golden": ASCII} {
		for _, c := range goldenLines(t, file, 2000) {
			in := c[0]
			if in == "-" {
				in = ""
			}
			b, err := hex.DecodeString(in)
			if err != nil {
				t.Fatalf("%s: bad hex %q", file, in)
			}
			if got := f(string(b)); got != c[1] {
				t.Errorf("%s: %q gives %s, Python says %s", file, b, got, c[1])
			}
		}
	}
}

// TestStrEveryCodePoint: the repr of every code point, 4096 at a time,
// hashes to what CPython's repr() of the same characters hashes to.
func TestStrEveryCodePoint(t *testing.T) {
	cases := goldenLines(t, "repr_blocks.golden", 272)
	for _, c := range cases {
		start, err := strconv.ParseInt(c[0], 16, 32)
		if err != nil {
			t.Fatalf("bad block %q", c[0])
		}
		var b strings.Builder
		for r := rune(start); r < rune(start)+0x1000; r++ {
			if utf8.ValidRune(r) {
				b.WriteRune(r)
			}
		}
		sum := sha256.Sum256([]byte(Str(b.String())))
		if got := hex.EncodeToString(sum[:]); got != c[1] {
			t.Errorf("block U+%06X: repr differs from Python's", start)
		}
	}
}

// TestValueGolden: Value of a decoded JSON document (numbers kept as
// json.Number) agrees with repr() of Python's json.loads of it.
func TestValueGolden(t *testing.T) {
	for _, c := range goldenLines(t, "repr_value.golden", 300) {
		dec := json.NewDecoder(strings.NewReader(c[0]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", c[0], err)
		}
		if got := Value(v); got != c[1] {
			t.Errorf("Value(%s) = %s, Python says %s", c[0], got, c[1])
		}
	}
}

type ordered [][2]any

func (o ordered) PyItems() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, kv := range o {
			if !yield(kv[0].(string), kv[1]) {
				return
			}
		}
	}
}

func TestValueGoTypes(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{ordered{{"b", 1}, {"a", []string{"x", "it's"}}}, `{'b': 1, 'a': ['x', "it's"]}`},
		{map[string]any{"z": nil, "a": true}, `{'a': True, 'z': None}`},
		{[]any{0.5, 1.0, float32(0.25), int64(-3), uint(7), json.Number("1e5")}, `[0.5, 1.0, 0.25, -3, 7, 100000.0]`},
		{json.Number("-007"), "-7"}, {json.Number("-000"), "0"}, {json.Number("NaNx"), "NaNx"},
		{struct{ A int }{1}, "{1}"},
	}
	for _, tt := range tests {
		if got := Value(tt.in); got != tt.want {
			t.Errorf("Value(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := Quote(`it's "x"`, '"'); got != `"it's \"x\""` {
		t.Errorf("Quote = %s", got)
	}
}

func TestShortExcerptDescribe(t *testing.T) {
	long := strings.Repeat("é", 100)
	if got, want := Short(long), "'"+strings.Repeat("é", ShortMax)+"...'"; got != want {
		t.Errorf("Short(long string) = %s", got)
	}
	if got := Excerpt("don't stop\n here", 8); got != `"don't st..."` {
		t.Errorf("Excerpt = %s", got)
	}
	big := make([]any, 1_000_000)
	for i := range big {
		big[i] = strings.Repeat("x", 50)
	}
	got := Short(big)
	if n := utf8.RuneCountInString(got); n != ShortMax || !strings.HasPrefix(got, "['xxx") || !strings.HasSuffix(got, "...") {
		t.Errorf("Short(big list) = %s (%d chars)", got, n)
	}
	if got := Short(map[string]any{"a": 1}); got != "{'a': 1}" {
		t.Errorf("Short(small dict) = %s", got)
	}
	for in, want := range map[any]string{"x": "'x'", true: "True", json.Number("2"): "2"} {
		if got := Describe(in); got != want {
			t.Errorf("Describe(%v) = %s, want %s", in, got, want)
		}
	}
	if Describe(nil) != "None" || Describe([]any{1}) != "an array" || Describe(map[string]any{}) != "an object" || Describe(ordered{}) != "an object" {
		t.Error("Describe names containers by JSON type and None for null")
	}
}

// FuzzStr: the repr is one line of valid UTF-8 between two equal quotes,
// and reading it back as a Python literal gives the input (when the input
// is UTF-8; other bytes come back as surrogate escapes).
func FuzzStr(f *testing.F) {
	for _, s := range []string{"", "it's", `"'`, `\'"`, "\x00\x7f\u0085\u2028é😀\U000e0001", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Str(s)
		if !utf8.ValidString(r) || strings.ContainsAny(r, "\n\r") || len(r) < 2 || r[0] != r[len(r)-1] {
			t.Fatalf("Str(%q) = %s", s, r)
		}
		if !utf8.ValidString(s) {
			return
		}
		if back, ok := unrepr(r); !ok || back != s {
			t.Fatalf("Str(%q) = %s reads back as %q", s, r, back)
		}
	})
}

// unrepr reads a Python string literal as repr writes it.
func unrepr(lit string) (string, bool) {
	q, body := lit[0], lit[1:len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == q {
			return "", false // an unescaped quote would end the literal
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(body) {
			return "", false
		}
		n := 0
		switch body[i] {
		case '\\', '\'', '"':
			b.WriteByte(body[i])
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'x':
			n = 2
		case 'u':
			n = 4
		case 'U':
			n = 8
		default:
			return "", false
		}
		if n > 0 {
			if i+n >= len(body)+1 {
				return "", false
			}
			v, err := strconv.ParseUint(body[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(v))
			i += n
		}
	}
	return b.String(), true
}
