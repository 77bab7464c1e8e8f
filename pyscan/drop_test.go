package pyscan

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// dropCases exercise every place the builder drops an expression (eval,
// bindTarget) or keeps one inside a dropped expression (names,
// attributes, calls, walrus values), with the misparse repairs and the
// error paths.
var dropCases = []string{
	"f(a, *b, k=c.d, **e)\n",
	"x.y[z](w)(v).u\n",
	"[g(x) for x in h(y) if p(x) for z in x]\n",
	"{k(a): v(b) for a, b in it}\n",
	"if (n := len(a)) > 1 and not (m := n) or q(*r):\n    pass\n",
	"while [y := f(x), y**2, *z]:\n    pass\n",
	"for i, (a, *b) in enumerate(xs): del a[i], b.c, (d)\n",
	"with open(p) as (f, g.h), q as r[0]: pass\n",
	"try:\n    pass\nexcept (E, F) as e:\n    raise G(e) from e\n",
	"async def f(a: int = g(1), *b: T[x], c=lambda y=z(): y.w, **d) -> R[s]:\n    return await a(b)\n",
	"@d.e(f)\n@g\nclass C(B, metaclass=M[x]):\n    x: int = 1\n    y: list[int]\n",
	"lambda a, b=c: (a, b, d(e))\n",
	"x = 1 if a(b) else c[d:e:f]\n",
	"print(f'{a!r:>{w(b)}} {c.d=}', 'x' 'y', b'z')\n",
	"'doc' 'string'\nr'raw\\n'\n",
	"match p:\n    case [a, *b] if g(a): pass\n    case Point(x=0, y=Color.RED) | {'k': v, **rest}: pass\n    case 1 | 'a' | -2: pass\n",
	"[*range(3)]\nf(*g(x), *d.keys())\n",
	"type(x).attr = v\ntype(y)[0] += 1\ntype X[T] = list[T]\n",
	"global g\nnonlocal n\nyield x\nx = yield y\nassert a(b), c(d)\n",
	"print >>f, x\nprint 'x'\n",
	"x = (\n",
	"def f(:\n    g(h)\n",
	"f(a for a in b)\nf(a for a in b, c)\n",
	"del *a\n(a, b) += 1\nf() = 1\nx + 1 = 2\n",
	"x = [1, 2, {3: 4, **y}, {5}, (6,), ()]\n",
	"a < b < c(d) != e not in f is not g\n",
	"~x; -y; +z; not w; x ** -y // z @ w\n",
	"if x:\n    pass\nelif y(z):\n    pass\nelse:\n    k = [q for q in r]\n",
	"x[1:2, ::3, ...]\n",
	"raise\nreturn\nx = None, True, False, ...\n",
	"class C:\n    def m(self):\n        def f():\n            (bar.\n        baz)\n",
	"(((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))\n",
	"f(**{'a': 1}, *[2])\n",
	"exec 'x'\n",
	"import a.b as c\nfrom . import (d, e as f)\nfrom .g import *\n",
	"__all__ = ['a', 'b']\n__all__ += ['c']\n",
}

// TestDropKeepsTheModel holds the model built with dropped expressions to
// the one built keeping every expression: nothing of the model may
// reference what eval drops.
func TestDropKeepsTheModel(t *testing.T) {
	srcs := append([]string(nil), dropCases...)
	for _, c := range cpythonCases {
		srcs = append(srcs, c.src)
	}
	for _, f := range benchSources()[:60] {
		srcs = append(srcs, string(f.Data))
	}
	for _, f := range smallSources()[:400] {
		srcs = append(srcs, string(f.Data))
	}
	// every Python file of the repository (fixtures, scripts, testdata)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "..":
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".py"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			srcs = append(srcs, string(src))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := newFlatParser()
	if err != nil {
		t.Fatal(err)
	}
	defer fp.close()
	dropped := 0
	for _, src := range srcs {
		kept, _ := buildWith(t, fp, src, true)
		m, b := buildWith(t, fp, src, false)
		if !reflect.DeepEqual(kept, m) {
			t.Errorf("%.80q: the model differs when expressions are dropped", src)
		}
		if b.void != nil {
			dropped++
		}
	}
	if dropped < len(srcs)/2 {
		t.Errorf("only %d of %d sources dropped an expression", dropped, len(srcs))
	}
}

// buildWith builds the model of src, keeping every expression when
// noDrop is set.
func buildWith(t testing.TB, fp *flatParser, src string, noDrop bool) (*Module, *builder) {
	t.Helper()
	b := new(builder)
	body := b.start("m.py", []byte(src))
	b.noDrop = noDrop
	if b.m.Syntax != nil {
		return b.m, b // refused before parsing
	}
	nodes, err := fp.parse(body)
	if err != nil {
		t.Fatal(err)
	}
	sc := fp.scanned()
	b.build(nodes, body, &sc)
	return b.m, b
}

// FuzzDrop holds TestDropKeepsTheModel on arbitrary sources.
func FuzzDrop(f *testing.F) {
	for _, s := range dropCases {
		f.Add([]byte(s))
	}
	fp, err := newFlatParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(fp.close)
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		kept, _ := buildWith(t, fp, string(src), true)
		m, _ := buildWith(t, fp, string(src), false)
		if !reflect.DeepEqual(kept, m) {
			t.Errorf("%.80q: the model differs when expressions are dropped", src)
		}
	})
}
