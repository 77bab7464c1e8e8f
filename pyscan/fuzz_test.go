package pyscan

import (
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic or fail, and
// the model invariants must hold (spans inside the source, Start <= End,
// lines and columns consistent with offsets, source order).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"infer(evidence=e, hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale=\"r\\n\")\n",
		"from gaia.engine.lang import infer as i\ni = infer\n@observe\ndef f(observe=None): pass\n",
		"x = (\n 'a' r'\\n' \"\"\"b\"\"\"\n)\n",
		"\xef\xbb\xbfx = 1\n",
		"x = 'a\xffb'\n",
		"x\x00 = 1",
		"def f(:\n",
		"s = f'{a!r:>{w}}' b'\\x00'\n",
		"match p:\n    case [a, *b] if a: pass\n",
		"class C:\n    global g\n    def m(self):\n        nonlocal x\n",
		"[(y := n) for n in range(2)]\n",
		"print 'x'\n",
		"x = 1_000.5e-1_0j + 0x_F + 0o7 + 0b1\n",
		"t = \"héllo\\N{EM DASH}\"; é = 1\n",
		"\\\n\\\n",
		"(((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))\n",
	} {
		f.Add([]byte(s))
	}
	p := NewParser()
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := p.Parse("fuzz.py", src)
		if err != nil {
			t.Fatal(err)
		}
		if m.Root == nil || len(m.Scopes) == 0 || m.Scopes[0] != m.Root {
			t.Fatal("no root scope")
		}
		if !utf8.Valid(src) && len(m.Syntax) == 0 {
			t.Fatal("invalid UTF-8 accepted")
		}
		checkInvariants(t, m)
		for _, c := range m.Calls {
			if c.Scope == nil || c.Func == nil {
				t.Fatal("call without scope or callee")
			}
			for _, k := range c.Keywords {
				if k.Value == nil {
					t.Fatal("keyword without value")
				}
			}
		}
		for _, s := range m.Scopes {
			for name := range s.Bindings {
				s.Lookup(name)
			}
		}
	})
}
