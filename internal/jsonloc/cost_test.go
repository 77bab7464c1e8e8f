package jsonloc

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchinput"
	"github.com/nullius-dev/nullius/internal/testrace"
)

// shapes are documents of about size bytes: the realistic artifacts of
// the memory benchmarks, with and without whitespace, and the crafted
// shapes of tiny values.
func shapes(size int) map[string][]byte {
	out := map[string][]byte{
		"escapes": []byte("[" + strings.Repeat(`"\u00e9\n\"",`, size/12) + "0]"),
		"deep":    []byte(strings.Repeat(`{"k":[`, MaxDepth/2) + "1" + strings.Repeat("]}", MaxDepth/2)),
	}
	for kind, gen := range benchinput.Crafted {
		out[kind] = gen(size)
	}
	for kind, gen := range benchinput.Kinds {
		out[kind] = gen(size)
		out[kind+" minified"] = benchinput.Minify(gen(size))
	}
	return out
}

// The estimate the density guard keeps is an upper bound of what Parse
// allocates (and, for the ordered model, of Plain's copy too), up to a
// constant for the tables of shared text: the guard refuses a document
// before its memory is spent, not after.
func TestCostBoundsAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of megabytes")
	}
	if testrace.Enabled {
		t.Skip("the race detector's runtime allocates differently; make test checks the bound")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const size = 1 << 20
	const slack = 256 << 10 // the sharing tables' growth
	for name, src := range shapes(size) {
		for _, opts := range []Options{{}, {Ordered: true}} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			doc, err := Parse(src, opts)
			if err == nil && opts.Ordered {
				_ = Plain(doc.Value)
			}
			runtime.ReadMemStats(&after)
			runtime.GC()
			alloc := int64(after.TotalAlloc - before.TotalAlloc)
			if err != nil {
				if !strings.Contains(err.Error(), "too dense") {
					t.Errorf("%s: %v", name, err)
				}
				t.Logf("%-22s ordered=%-5v refused, allocated %.1fx", name, opts.Ordered, float64(alloc)/float64(len(src)))
				if alloc > Budget(len(src))+slack {
					t.Errorf("%s: refused after allocating %d bytes, over the budget %d", name, alloc, Budget(len(src)))
				}
				continue
			}
			t.Logf("%-22s ordered=%-5v cost %.2fx, allocated %.2fx", name, opts.Ordered, float64(doc.Cost())/float64(len(src)), float64(alloc)/float64(len(src)))
			if alloc > doc.Cost()+slack {
				t.Errorf("%s (ordered %v): allocated %d bytes, charged %d", name, opts.Ordered, alloc, doc.Cost())
			}
		}
	}
}

// Real artifacts pass the density guard with room to spare: generated
// with and without whitespace, each decodes to at most 5 times its size
// (beyond the tables of shared text, a constant) in the model its readers
// use (the protocol's ordered model for a match artifact), where the
// guard allows 6, at any size.
func TestRealisticArtifactsPassTheGuard(t *testing.T) {
	size := 2 << 20
	if s := os.Getenv("JSONLOC_GUARD_MB"); s != "" { // a run at scale
		mb, _ := strconv.Atoi(s)
		size = mb << 20
	}
	for kind, gen := range benchinput.Kinds {
		for _, minify := range []bool{false, true} {
			src := gen(size)
			if minify {
				src = benchinput.Minify(src)
			}
			models := []Options{{}}
			if kind == "match" {
				models = append(models, Options{Ordered: true})
			}
			for _, opts := range models {
				doc, err := Parse(src, opts)
				if err != nil {
					t.Fatalf("%s (minified %v, ordered %v): %v", kind, minify, opts.Ordered, err)
				}
				if limit := 5*int64(len(src)) + 3<<20; doc.Cost() > limit {
					t.Errorf("%s (minified %v, ordered %v): decodes to %d bytes, %.1f times its size: too close to the guard's %d",
						kind, minify, opts.Ordered, doc.Cost(), float64(doc.Cost())/float64(len(src)), DensityFactor)
				}
			}
		}
	}
}
