package pyscan

import (
	"testing"
	"unsafe"
)

// TestParseSharesSrc holds Parse to its documented ownership rule: the
// model's strings are views of the caller's buffer, not copies. It fails if
// a copy comes back (the byte per input byte the rule saves), and it shows
// what a caller that writes to src after Parse would do to the model.
func TestParseSharesSrc(t *testing.T) {
	src := []byte("x = call(1)\n")
	m, err := ParseSource("m.py", src)
	if err != nil || len(m.Syntax) > 0 {
		t.Fatalf("parse: %v %v", err, m.Syntax)
	}
	if len(m.Calls) != 1 {
		t.Fatalf("calls = %d, want 1", len(m.Calls))
	}
	f := m.Calls[0].Func
	if f.Text != "call" {
		t.Fatalf("callee text = %q, want call", f.Text)
	}
	p, lo, hi := uintptr(unsafe.Pointer(unsafe.StringData(f.Text))), uintptr(unsafe.Pointer(&src[0])), uintptr(unsafe.Pointer(&src[len(src)-1]))
	if p < lo || p > hi {
		t.Fatal("the callee's Text is a copy, not a view of src")
	}
	src[4] = 'k' // what Parse forbids: the model changes with the buffer
	if f.Text != "kall" {
		t.Fatalf("after writing to src, callee text = %q, want kall (a view)", f.Text)
	}
}

// TestModuleEnd holds the module scope's end (read from the flat tree's
// root) to posAt's count of the lines, on the edge cases of the tree's
// extent and on a slice of the benchmark corpus.
func TestModuleEnd(t *testing.T) {
	srcs := []string{
		"", "\n", "x", "x\n", "x = 1\n\n\n", "x = 1   ", "x = 1\n# end", "# only\n",
		"\ufeff", "\ufeffx", "\ufeffx\n", "\ufeff# c", "x = 1\r\n", "x = 1\r\ny = 2\r",
		"def f():\n    pass\n    \n", "x = (\n", "if x:\n", "x = '''\n\n", "\\\n",
		"x = 1\n\f\n", "x = 1\n\t \n", "é = 'ü'\n# ñ", "\ufeffé",
	}
	for _, f := range smallSources()[:200] {
		srcs = append(srcs, string(f.Data))
	}
	p := NewParser()
	defer p.Close()
	for _, s := range srcs {
		src := []byte(s)
		m, err := p.Parse("m.py", src)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.Root.Span.End, posAt(src, len(src)); got != want {
			t.Errorf("%.40q: module end = %+v, want %+v", s, got, want)
		}
	}
}
