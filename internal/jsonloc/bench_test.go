package jsonloc

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchinput"
)

// BenchmarkParse parses generated match artifacts of 1, 10 and 50 MB;
// with -benchmem, B/op over the input size is the allocation ratio
// (make bench prints it).
func BenchmarkParse(b *testing.B) {
	for _, mb := range benchinput.Sizes {
		src := benchinput.Match(mb << 20)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseCrafted parses the crafted documents of tiny values (10
// MB each) in the protocol's ordered model: what it allocates before it
// accepts or refuses them (the "refused" metric is 1 when it refuses) stays
// within the density budget, 6 times the input plus 8 MiB.
func BenchmarkParseCrafted(b *testing.B) {
	for _, kind := range slices.Sorted(maps.Keys(benchinput.Crafted)) {
		src := benchinput.Crafted[kind](10 << 20)
		b.Run(kind+"/10MB", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			refused := 0.0
			for b.Loop() {
				_, err := Parse(src, Options{Ordered: true})
				if err != nil && !strings.Contains(err.Error(), "too dense") {
					b.Fatal(err)
				}
				if err != nil {
					refused = 1
				}
			}
			b.ReportMetric(refused, "refused")
		})
	}
}
