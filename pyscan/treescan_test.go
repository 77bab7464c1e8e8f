package pyscan

import (
	"slices"
	"testing"
)

// TestTreeScanAgrees holds what flat_parse counts while flattening (the
// expression nodes, identifiers and comments the builder sizes its slabs
// and Comments from) to the builder's own pass over the nodes
// (scanNodes), and flags exactly the trees where that pass reports a
// syntax error (the builder then takes the pass itself).
func TestTreeScanAgrees(t *testing.T) {
	srcs := []string{
		"", "x = 1\n", "# only a comment", "s = '#not a comment'\n",
		"\ufeff# BOM then comment\nx = None  # trailing\n",
		"def f(a, b=2):  # c1\n    # c2\n    return a + b\n",
		"None = 1\n", "async = 1\n", "x = await\n", "True\n", "Falsey = 1\nNone_ = 2\n",
		"x = (1,\n", "def f(:\n    # inside\n    pass\n", "if x\n    pass\n", "print 'x'\n",
		"claim('a' 'b')  # note\nfoo.bar(x=1)\n",
	}
	for _, f := range benchSources()[:40] {
		srcs = append(srcs, string(f.Data))
	}
	for _, f := range smallSources()[:200] {
		srcs = append(srcs, string(f.Data))
	}
	fp, err := newFlatParser()
	if err != nil {
		t.Fatal(err)
	}
	defer fp.close()
	flagged := 0
	for _, src := range srcs {
		var b builder
		body := b.start("m.py", []byte(src))
		if b.m.Syntax != nil {
			t.Fatalf("%q refused before parsing", src)
		}
		nodes, err := fp.parse(body)
		if err != nil {
			t.Fatal(err)
		}
		sc := fp.scanned()
		b.nodes = nodes
		exprNodes, idents := b.scanNodes()
		if sc.flagged != (len(b.m.Syntax) > 0) {
			t.Errorf("%.60q: flagged %v, the builder's pass reports %v", src, sc.flagged, b.m.Syntax)
		}
		if sc.flagged {
			flagged++
			continue
		}
		if sc.exprNodes != exprNodes || sc.idents != idents {
			t.Errorf("%.60q: flattening counted %d expression nodes, %d identifiers; the builder %d, %d", src, sc.exprNodes, sc.idents, exprNodes, idents)
		}
		var want []uint32
		for _, c := range b.m.Comments {
			i := slices.IndexFunc(nodes, func(n node) bool { return n.sym == b.t.comment && int(n.start)+int(b.base) == int(c.Span.Start.Offset) })
			want = append(want, uint32(i))
		}
		if !slices.Equal(sc.comments, want) {
			t.Errorf("%.60q: comments at nodes %v, want %v", src, sc.comments, want)
		}
	}
	if flagged < 6 {
		t.Errorf("only %d sources flagged: the cases with errors and keywords as names are not exercised", flagged)
	}
}
