package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

// fixturesDir is fixtures/ir at the repository root.
func fixturesDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "fixtures", "ir")
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixturesDir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decode parses JSON keeping numbers exact, for mutation.
func decode(t testing.TB, src []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// encode writes JSON the way Gaia does: sorted keys, 2-space indent.
func encode(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sampleWith returns ir_sample.json after mutate.
func sampleWith(t testing.TB, mutate func(m map[string]any)) []byte {
	t.Helper()
	m := decode(t, readFixture(t, "ir_sample.json"))
	if mutate != nil {
		mutate(m)
	}
	return encode(t, m)
}

// knowledge returns the knowledge object labelled label in m.
func knowledge(m map[string]any, label string) map[string]any {
	for _, k := range m["knowledges"].([]any) {
		if km := k.(map[string]any); km["label"] == label {
			return km
		}
	}
	panic("no knowledge " + label)
}

func strategy(m map[string]any, i int) map[string]any {
	return m["strategies"].([]any)[i].(map[string]any)
}

func meta(obj map[string]any) map[string]any {
	m, ok := obj["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		obj["metadata"] = m
	}
	return m
}

// run loads and checks src as "ir.json" and returns sorted diagnostics.
func run(t testing.TB, src []byte) ([]diag.Diagnostic, *Graph) {
	t.Helper()
	ir, ds := Load("ir.json", src)
	if ir == nil {
		return diag.SortDedup(ds), nil
	}
	more, g := Check(ir, CheckOptions{})
	return diag.SortDedup(append(ds, more...)), g
}

// codes lists the codes of ds with the given severity, sorted.
func codes(ds []diag.Diagnostic, sev diag.Severity) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == sev {
			out = append(out, d.Code)
		}
	}
	slices.Sort(out)
	return out
}

func errorCodes(ds []diag.Diagnostic) []string { return codes(ds, diag.Error) }

// find returns the first diagnostic with code, failing the test if none.
func find(t testing.TB, ds []diag.Diagnostic, code string) diag.Diagnostic {
	t.Helper()
	for _, d := range ds {
		if d.Code == code {
			return d
		}
	}
	t.Fatalf("no %s in:\n%s", code, dump(ds))
	return diag.Diagnostic{}
}

func dump(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %s [%s %s]\n", d.String(), d.Severity, d.Pointer)
	}
	return b.String()
}

// builder assembles synthetic compiled IRs in Gaia's shape.
type builder struct {
	ks []any
	ss []any
}

const ns = "github:family_idea"

func id(label string) string { return ns + "::" + label }

func (b *builder) claim(label, content string, exported bool) map[string]any {
	k := map[string]any{"id": id(label), "label": label, "type": "claim", "content": content, "exported": exported}
	b.ks = append(b.ks, k)
	return k
}

func (b *builder) observe(label, rationale string) map[string]any {
	k := b.claim(label, "Observed fact "+label+".", false)
	k["metadata"] = map[string]any{"prior": json.Number("0.999"), "supported_by": []any{map[string]any{
		"action_label": id("action::observe_" + label), "pattern": "observation", "rationale": rationale,
	}}}
	return k
}

func (b *builder) infer(ev, hyp string, nh, h string, reasoning string) map[string]any {
	s := map[string]any{
		"type": "infer", "premises": []any{id(hyp)}, "conclusion": id(ev),
		"conditional_probabilities": []any{json.Number(nh), json.Number(h)},
		"steps":                     []any{map[string]any{"reasoning": reasoning}},
		"strategy_id":               "lcs_" + ev + "_" + hyp,
		"metadata":                  map[string]any{"pattern": "inference", "action_label": id("action::infer_" + ev + "_" + hyp)},
	}
	b.ss = append(b.ss, s)
	return s
}

func (b *builder) bytes(t testing.TB) []byte {
	return encode(t, map[string]any{
		"ir_hash": "sha256:" + strings.Repeat("ab", 32), "namespace": ns, "package_name": "family-idea-gaia",
		"knowledges": b.ks, "strategies": b.ss,
	})
}

// okReasoning passes every reasoning rule, including the tension class, so
// builders can reuse it on any edge.
const okReasoning = "reader_reasoning: the result moves the hypothesis for a stated reason. resolution_evidence: mechanism. anchor: report.md"

// criteria adds worth and the five criteria with idea-specific content.
func (b *builder) criteria() {
	b.claim("worth", "The family idea deserves sustained checking.", true)
	for _, l := range reasoningLabels[1:] {
		b.claim(l, "Idea-specific statement for "+l+".", false)
	}
}

// familyIR is the reference test helper evidence_family_ir(modeled_shared):
// two observations of family reused-result, either on separate criterion
// paths or merged through shared_input.
func familyIR(modeledShared bool) *builder {
	b := &builder{}
	b.criteria()
	fam := "evidence_family: reused-result; correlation_model: single; anchor: shared report"
	b.observe("ev_one", fam)
	b.observe("ev_two", fam)
	b.infer("tension_resolution", "worth", "0.25", "0.75", okReasoning)
	b.infer("mechanism_insight", "worth", "0.25", "0.75", okReasoning)
	if modeledShared {
		b.claim("shared_input", "A shared intermediate result.", false)
		b.infer("ev_one", "shared_input", "0.09", "0.9", okReasoning)
		b.infer("ev_two", "shared_input", "0.09", "0.9", okReasoning)
		b.infer("shared_input", "tension_resolution", "0.09", "0.9", okReasoning)
	} else {
		b.infer("ev_one", "tension_resolution", "0.09", "0.9", okReasoning)
		b.infer("ev_two", "mechanism_insight", "0.09", "0.9", okReasoning)
	}
	return b
}
