package prior

import (
	"fmt"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchinput"
)

// BenchmarkValidateSurvey validates generated literature surveys of 1, 10
// and 50 MB as `nullius validate survey` does: parse, schema, semantic
// rules (without a project root, so the ledger pin is one finding).
func BenchmarkValidateSurvey(b *testing.B) {
	for _, mb := range benchinput.Sizes {
		src := benchinput.Survey(mb << 20)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				f, ds := ParseFile("survey.json", src)
				if len(ds) != 0 {
					b.Fatal(ds[0])
				}
				sds, err := CheckSchema(f, SchemaSurvey)
				if err != nil || len(sds) != 0 {
					b.Fatalf("schema: %v %v", err, sds)
				}
				if ds := CheckSurvey(f, ""); len(ds) != 1 {
					b.Fatalf("want the one missing-root finding, got %v", ds)
				}
			}
		})
	}
}
