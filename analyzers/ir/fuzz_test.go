package ir

import (
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// FuzzLoadAndCheck feeds arbitrary bytes as ir.json and beliefs.json: every
// outcome must be located diagnostics, never a panic.
func FuzzLoadAndCheck(f *testing.F) {
	irSample := readFixture(f, "ir_sample.json")
	beliefs := readFixture(f, "beliefs_sample.json")
	f.Add(irSample, beliefs)
	f.Add(familyIR(true).bytes(f), []byte(`{"beliefs": [{"label": "worth", "belief": 1}], "ir_hash": 3}`))
	f.Add(familyIR(false).bytes(f), []byte(`[]`))
	f.Add([]byte(`{"ir_hash": "sha256:`+string(make([]byte, 3))+`", "knowledges": [{"id": "a", "exported": true, "label": "worth", "type": "claim", "metadata": {"supported_by": [1, {"pattern": "observation"}], "prior_records": [{"value": true}]}}], "strategies": [{"type": "infer", "premises": ["a"], "conclusion": "a", "conditional_probabilities": [0.5, 0.5]}, 7], "operators": [{"variables": ["a"]}]}`), []byte(`{"beliefs": {}}`))
	f.Add([]byte("\xef\xbb\xbf{}"), []byte("\xff"))
	f.Add([]byte(`{"knowledges": [], "strategies": {"x": 1}}`), []byte(`{"beliefs": [{"label": null}, {"label": "worth", "belief": "x"}]}`))
	f.Add([]byte(`{"a": 1, "a": 2, "knowledges": [{"id": "x", "id": "y"}]}`), []byte(``))
	f.Fuzz(func(t *testing.T, irSrc, beliefsSrc []byte) {
		var all []diag.Diagnostic
		ir, ds := Load("ir.json", irSrc)
		all = append(all, ds...)
		if ir != nil {
			more, g := Check(ir, CheckOptions{SourceMap: fakeMap{}})
			all = append(all, more...)
			if g == nil {
				t.Fatal("nil graph")
			}
			CountObservations(ir)
			ConnectedEvidenceCount(ir)
		}
		b, ds := LoadBeliefs("beliefs.json", beliefsSrc)
		all = append(all, ds...)
		if b != nil {
			if _, d := ExtractWorthBelief(b, "worth"); d != nil {
				all = append(all, *d)
			}
			if ir != nil {
				all = append(all, staleBeliefs(b, ir)...)
			}
		}
		for _, d := range all {
			if d.Code == "" || d.Name == "" || d.Severity == "" || d.Path == "" || d.Line < 1 || d.Column < 1 || d.Message == "" {
				t.Fatalf("malformed diagnostic %+v", d)
			}
		}
	})
}
