package pairs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchinput"
)

// BenchmarkPairs loads generated nodes files of 1, 10 and 50 MB and plans a
// round, as `nullius match pairs --nodes` does.
func BenchmarkPairs(b *testing.B) {
	dir := b.TempDir()
	for _, mb := range benchinput.Sizes {
		p := filepath.Join(dir, fmt.Sprintf("nodes-%d.json", mb))
		src := benchinput.Nodes(mb << 20)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				ns, err := LoadNodes(p)
				if err != nil {
					b.Fatal(err)
				}
				if plan := Propose(ns, nil, false); len(plan.Pairs) == 0 {
					b.Fatal("no pairs")
				}
			}
		})
	}
}
