package jsonloc

import (
	"fmt"
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
