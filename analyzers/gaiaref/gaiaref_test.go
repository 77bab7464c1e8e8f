package gaiaref

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/pyscan"
)

// view parses src and renders what resolution found: statements as
// "verb@line", references as "ref:text@line", unresolved as "?text@line".
func view(t *testing.T, src string) []string {
	t.Helper()
	p := pyscan.NewParser()
	defer p.Close()
	m, err := p.Parse("m.py", []byte(src))
	if err != nil || len(m.Syntax) > 0 {
		t.Fatalf("parse: %v %v", err, m.Syntax)
	}
	f := newResolver([]*pyscan.Module{m}).resolveFile(&pyparse.File{Path: "m.py", Src: []byte(src), Module: m, BadByte: -1})
	var out []string
	for _, s := range f.Stmts {
		out = append(out, fmt.Sprintf("%s@%d", s.Verb, s.Call.Span.Start.Line))
	}
	for _, r := range f.Refs {
		out = append(out, fmt.Sprintf("ref:%s@%d", r.Text, r.Span.Start.Line))
	}
	for _, r := range f.Unresolved {
		out = append(out, fmt.Sprintf("?%s@%d", r.Text, r.Span.Start.Line))
	}
	slices.Sort(out)
	return out
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"from import alias", "from gaia.engine.lang import infer as i\ni(1)\n", []string{"infer@2"}},
		{"module alias", "import gaia.engine.lang as lang\nlang.observe(1)\n", []string{"observe@2"}},
		{"dotted module", "import gaia.engine.lang\ngaia.engine.lang.register_prior(1)\n", []string{"register_prior@2"}},
		{"from package", "from gaia.engine import lang\nlang.claim('x')\n", []string{"claim@2"}},
		{"star", "from gaia.engine.lang import *\nexclusive(a, b)\n", []string{"exclusive@2"}},
		{"star from elsewhere", "from mylib import *\ninfer(1)\n", []string{"?infer@2"}},
		{"no import", "infer(1)\nobserve\n", []string{"?infer@1", "?observe@2"}},
		{"other module", "from mylib import infer\ninfer(1)\nx = infer\n", nil},
		{"relative module", "from .gaia.engine.lang import infer\ninfer(1)\n", nil},
		{"local def shadows", "from gaia.engine.lang import infer\ndef infer(x):\n    return x\ninfer(1)\n", nil},
		{"nested scope sees import", "from gaia.engine.lang import infer\ndef build():\n    infer(1)\n", []string{"infer@3"}},
		{"nested scope, later rebinding", "from gaia.engine.lang import infer\ndef build():\n    infer(1)\ninfer = None\n", []string{"infer@3"}},
		{"local parameter", "from gaia.engine.lang import observe\ndef f(observe):\n    observe(1)\n    return observe\n", nil},
		{"self method", "class T:\n    def observe(self, e):\n        return e\n    def run(self):\n        self.observe(1)\n", nil},
		{"call receiver", "make().infer(1)\n", []string{"?make().infer@1"}},
		{"simple alias call", "from gaia.engine.lang import infer\ni = infer\ni(1)\n", []string{"infer@3", "ref:infer@2"}},
		{"module alias of alias", "import gaia.engine.lang as lang\nl2 = lang\nl2.infer(1)\n", []string{"infer@3"}},
		{"use before import", "infer(1)\nfrom gaia.engine.lang import infer\n", []string{"infer@1"}},
		{"loop rebinding", "from gaia.engine.lang import infer as i\nfor i in range(2):\n    i(1)\n", nil},
		{"class scope skipped", "from gaia.engine.lang import infer\nclass C:\n    infer = 3\n    def m(self):\n        return infer(1)\n", []string{"infer@5"}},
		{"decorator reference", "from gaia.engine.lang import observe\n@observe\ndef f():\n    pass\n", []string{"ref:observe@2"}},
		{"attribute of verb", "import gaia.engine.lang as lang\nn = lang.infer.__name__\n", []string{"ref:lang.infer@2"}},
		{"store and del", "from gaia.engine.lang import infer\nclass O:\n    pass\no = O()\no.infer = 1\ndel infer\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := view(t, tt.src)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q\n%s", got, want, tt.src)
			}
		})
	}
}

func TestTitles(t *testing.T) {
	src := strings.Join([]string{
		"from gaia.engine.lang import claim as C",
		"reach = C('R.', title='downstream_reach')",
		"t = claim('T.', title='tension_resolution')",
		"again = claim('A.', title='worth')",
		"again = claim('B.', title='worth')",
		"r2 = reach",
		"r3 = r2",
		"x: int = claim('X.', title='worth')",
		"def f():",
		"    t = 1",
		"",
	}, "\n")
	p := pyscan.NewParser()
	defer p.Close()
	m, err := p.Parse("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f := newResolver([]*pyscan.Module{m}).resolveFile(&pyparse.File{Path: "m.py", Module: m, BadByte: -1})
	name := func(n string) *pyscan.Expr { return &pyscan.Expr{Kind: pyscan.ExprName, Name: n} }
	for _, tt := range []struct {
		hyp, x string
		want   bool
	}{
		{"reach", "downstream_reach", true}, // claim through an alias of the import
		{"r3", "downstream_reach", true},    // alias chain (W3)
		{"downstream_reach", "downstream_reach", true},
		{"t", "tension_resolution", false}, // reassigned by a function-local `t = 1` (M6)
		{"again", "worth", false},          // reassigned
		{"x", "worth", false},              // annotated assignments are not recorded
		{"reach", "tension_resolution", false},
	} {
		if got := f.Titles.Is(name(tt.hyp), tt.x); got != tt.want {
			t.Errorf("Is(%s, %s) = %v, want %v", tt.hyp, tt.x, got, tt.want)
		}
	}
}

// Relative imports are followed into the package's own modules (W6).
func TestResolveAcrossModules(t *testing.T) {
	p := pyscan.NewParser()
	defer p.Close()
	srcs := map[string]string{
		"pkg/helpers.py":       "from gaia.engine.lang import infer, observe\nupdate = infer\nfrom mylib import register_prior\n",
		"pkg/sub/__init__.py":  "from ..helpers import observe as record\n",
		"pkg/__init__.py":      "from .helpers import infer as I, update, register_prior\nfrom .sub import record\nfrom .missing import infer as J\nI(1)\nupdate(2)\nrecord(3)\nregister_prior(4)\nJ(5)\n",
		"pkg/star/__init__.py": "from ..helpers import *\ninfer(1)\nregister_prior(2)\nunknown_fn(3)\nobserve\n",
	}
	var mods []*pyscan.Module
	files := map[string]*pyparse.File{}
	for path, src := range srcs {
		m, err := p.Parse(path, []byte(src))
		if err != nil || len(m.Syntax) > 0 {
			t.Fatalf("%s: %v %v", path, err, m.Syntax)
		}
		mods = append(mods, m)
		files[path] = &pyparse.File{Path: path, Src: []byte(src), Module: m, BadByte: -1}
	}
	r := newResolver(mods)
	for path, want := range map[string][]string{
		"pkg/__init__.py":      {"infer@4", "infer@5", "observe@6"}, // mylib's register_prior and a missing module are not Gaia
		"pkg/star/__init__.py": {"infer@2", "ref:observe@5"},
	} {
		f := r.resolveFile(files[path])
		var got []string
		for _, s := range f.Stmts {
			got = append(got, fmt.Sprintf("%s@%d", s.Verb, s.Call.Span.Start.Line))
		}
		for _, ref := range f.Refs {
			got = append(got, fmt.Sprintf("ref:%s@%d", ref.Text, ref.Span.Start.Line))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
	}
}

// BenchmarkResolveFile resolves one module of the good fixture, the
// per-module cost every package pays before a rule runs. Its allocations
// guard that resolution builds no qualified names (only the last part,
// the verb, is ever asked for) and no Ref it does not keep, and that a
// module without aliases or relative imports makes no map for them.
func BenchmarkResolveFile(b *testing.B) {
	path := filepath.Join("..", "..", "fixtures", "lint", "good", "src", "sterile_neutrino", "__init__.py")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	m, err := pyscan.ParseSource(path, src)
	if err != nil || len(m.Syntax) > 0 {
		b.Fatalf("parse: %v %v", err, m.Syntax)
	}
	pf := &pyparse.File{Path: path, Src: src, Module: m, BadByte: -1}
	b.ReportAllocs()
	for b.Loop() {
		if f := newResolver([]*pyscan.Module{m}).resolveFile(pf); len(f.Stmts) == 0 {
			b.Fatal("no statement resolved")
		}
	}
}
