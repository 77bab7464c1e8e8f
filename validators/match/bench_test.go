package match

import (
	"fmt"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchinput"
)

// BenchmarkValidateMatch validates generated pairwise_match_v1 artifacts of
// 1, 10 and 50 MB (valid, so every stage runs: parse, semantic rules,
// schema), as `nullius validate match` does.
func BenchmarkValidateMatch(b *testing.B) {
	c, err := NewChecker("match")
	if err != nil {
		b.Fatal(err)
	}
	for _, mb := range benchinput.Sizes {
		src := benchinput.Match(mb << 20)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if ds := c.File("match.json", src); len(ds) != 0 {
					b.Fatalf("generated artifact has findings: %v", ds[0])
				}
			}
		})
	}
}
