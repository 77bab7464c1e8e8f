package gaiaref

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/pyscan"
)

// resolved renders everything resolveFile records for one module, in a
// form two runs can be compared by: statements, references, unresolved
// names and the claim titles.
func resolved(r *resolver, pf *pyparse.File) string {
	f := r.resolveFile(pf)
	var b strings.Builder
	for _, s := range f.Stmts {
		fmt.Fprintf(&b, "stmt %s %d %v\n", s.Verb, s.Call.Span.Start.Offset, f.StmtOf(s.Call) == s)
	}
	for _, x := range f.Refs {
		fmt.Fprintf(&b, "ref %s %q %v %v\n", x.Verb, x.Text, x.Span, x.Call != nil)
	}
	for _, x := range f.Unresolved {
		fmt.Fprintf(&b, "unresolved %s %q %v %v\n", x.Verb, x.Text, x.Span, x.Call != nil)
	}
	fmt.Fprintf(&b, "titles %v %v %v\n", f.Titles.titles, f.Titles.reassigned, f.Titles.aliases)
	return b.String()
}

// checkSkip resolves every module of a package with and without the
// filter and fails on any difference. It also checks the filter's
// premise directly: every name an import or a simple alias binds, in any
// scope, is among the module's rebinders.
func checkSkip(t *testing.T, srcs map[string]string) {
	t.Helper()
	var mods []*pyscan.Module
	var pfs []*pyparse.File
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for p := range srcs {
			if !yield(p) {
				return
			}
		}
	}) {
		m, err := pyscan.ParseSource(path, []byte(srcs[path]))
		if err != nil {
			return // not a module pyscan takes (too large, NUL...): nothing to compare
		}
		mods = append(mods, m)
		pfs = append(pfs, &pyparse.File{Path: path, Src: m.Src, Module: m, BadByte: -1})
	}
	filtered, full := newResolver(mods), newResolver(mods)
	full.full = true
	for _, pf := range pfs {
		if got, want := resolved(filtered, pf), resolved(full, pf); got != want {
			t.Fatalf("%s: filtered resolution differs from the full one\nfiltered:\n%s\nfull:\n%s\nsources: %q", pf.Path, got, want, srcs)
		}
		rb := rebindersOf(pf.Module, nil)
		for _, s := range pf.Module.Scopes {
			for name, bs := range s.Bindings {
				for _, b := range bs {
					if (b.Kind == pyscan.BindImport || alias(b)) && !rb.mayRebind(name) {
						t.Fatalf("%s: %q is bound by an import or alias (kind %d) but is not a rebinder\nsources: %q", pf.Path, name, b.Kind, srcs)
					}
				}
			}
		}
	}
}

// alias reports whether b is a simple alias, which resolveName follows.
func alias(b *pyscan.Binding) bool {
	if b.Kind != pyscan.BindAssign || !b.Simple || b.Assign == nil || b.Assign.Value == nil {
		return false
	}
	k := b.Assign.Value.Kind
	return k == pyscan.ExprName || k == pyscan.ExprAttr
}

// TestSkipIsSound holds the filter to the full resolution on every Python
// file of the fixtures (each fixture package resolved as one package) and
// on TestResolve's and TestResolveAcrossModules' sources.
func TestSkipIsSound(t *testing.T) {
	pkgs := map[string]map[string]string{}
	root := filepath.Join("..", "..", "fixtures")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		pkg := strings.Join(strings.SplitN(filepath.ToSlash(rel), "/", 4)[:2], "/")
		if pkgs[pkg] == nil {
			pkgs[pkg] = map[string]string{}
		}
		pkgs[pkg][filepath.ToSlash(rel)] = string(src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d fixture packages, want the fixtures tree", len(pkgs))
	}
	for _, srcs := range pkgs {
		checkSkip(t, srcs)
	}
	for _, src := range skipSeeds {
		checkSkip(t, map[string]string{"pkg/__init__.py": src, "pkg/helpers.py": skipHelpers})
	}
}

// skipHelpers is the sibling module the seeds' relative imports name.
const skipHelpers = "from gaia.engine.lang import infer, observe as seen\nfrom gaia.engine.lang import *\nupdate = infer\nalias = seen\nfrom mylib import register_prior\n"

// skipSeeds exercise every way a name can come to resolve to a verb.
var skipSeeds = []string{
	"from gaia.engine.lang import infer as i\ni(1)\nx = [i]\n",
	"import gaia.engine.lang as lang\nlang.observe(1)\ny = lang.observe\nz = y\nz(2)\n",
	"from gaia.engine.lang import *\nexclusive(a, b)\nq = [infer, observe, claim]\n",
	"from .helpers import *\nupdate(1)\nalias\nv = [update, seen, unknown]\n",
	"from .helpers import update as u, alias\nu(1)\nw = (u, alias)\n",
	"from gaia.engine.lang import infer\ndef f():\n    global g\n    g = infer\n    g(1)\nclass C:\n    h = infer\n    def m(self):\n        return h(1)\n",
	"from gaia.engine.lang import infer as i\nfor i in range(2):\n    i(1)\ni\n",
	"def f(infer):\n    return infer\nobserve\nmake().infer(1)\nnp.linalg.norm(x)\n",
	"import gaia.engine\nk = gaia.engine.lang.infer\nk(1)\n(m := k)\nm(2)\nn: int = k\nn(3)\n",
}

// FuzzSkipIsSound builds modules from statements that bind, alias, star
// import, shadow and use verbs in nested scopes, picked by the fuzzer's
// bytes, and holds the filtered resolution to the full one.
func FuzzSkipIsSound(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{12, 40, 3, 77, 5, 200, 9, 31, 18, 250, 44})
	for _, s := range skipSeeds {
		f.Add([]byte(s[:min(len(s), 24)]))
	}
	names := []string{"infer", "observe", "claim", "i", "lang", "x", "update", "alias", "seen", "register_prior", "note"}
	stmts := []string{
		"from gaia.engine.lang import %s",
		"from gaia.engine.lang import infer as %s",
		"from gaia.engine import lang as %s",
		"import gaia.engine.lang as %s",
		"import gaia.engine.lang",
		"from gaia.engine.lang import *",
		"from mylib import %s",
		"from .helpers import %s",
		"from .helpers import update as %s",
		"from .helpers import *",
		"%s = %s",
		"%s = lang.%s",
		"%s = %s.infer",
		"%s: int = %s",
		"%s += %s",
		"(%s := %s)",
		"%s, y = %s, 1",
		"%s(1)",
		"%s.%s(2)",
		"x = [%s, %s]",
		"def %s(%s):",
		"class %s:",
		"for %s in %s:",
		"global %s",
		"nonlocal %s",
		"lambda %s: %s",
		"[%s for %s in y]",
		"del %s",
		"pass",
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b strings.Builder
		indent := 0
		for k := 0; k+2 < len(data) && k < 90; k += 3 {
			s := stmts[int(data[k])%len(stmts)]
			a, c := names[int(data[k+1])%len(names)], names[int(data[k+2])%len(names)]
			line := s
			switch strings.Count(s, "%s") {
			case 1:
				line = fmt.Sprintf(s, a)
			case 2:
				line = fmt.Sprintf(s, a, c)
			}
			b.WriteString(strings.Repeat("    ", indent) + line + "\n")
			switch {
			case strings.HasSuffix(line, ":"):
				indent++
				b.WriteString(strings.Repeat("    ", indent) + "pass\n")
			case data[k+2]&0x80 != 0 && indent > 0:
				indent--
			}
		}
		checkSkip(t, map[string]string{"pkg/__init__.py": b.String(), "pkg/helpers.py": skipHelpers})
	})
}

// TestRebindersAllocateNothing: a module's rebinders fit the buffer
// resolveFile keeps on its stack.
func TestRebindersAllocateNothing(t *testing.T) {
	m, err := pyscan.ParseSource("m.py", []byte(skipSeeds[5]+skipHelpers))
	if err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		var buf [16]string
		if rb := rebindersOf(m, buf[:0]); !rb.mayRebind("alias") || rb.mayRebind("x") {
			t.Fatal("alias must be a rebinder, x not")
		}
	})
	if n != 0 {
		t.Errorf("collecting a module's rebinders allocates %v times", n)
	}
}
