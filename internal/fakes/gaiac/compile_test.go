package gaiac

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
)

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return m
}

// The road fixture compiles to the reconstructed reference IR
// (fixtures/extract/ir_sample.json): the same knowledges, metadata,
// observation records and infer strategies. The sample's extra operator
// helper node (no operator produces it) and the claims' titles, which the
// reconstruction leaves out, are the only differences.
func TestCompileRoadMatchesSample(t *testing.T) {
	src, err := os.ReadFile("../../../fixtures/extract/road/__init__.py")
	if err != nil {
		t.Fatal(err)
	}
	out, err := CompileModule("src/example_idea/__init__.py", "example_idea", src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../../fixtures/extract/ir_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	got, exp := decode(t, out), decode(t, want)
	for _, k := range got["knowledges"].([]any) {
		delete(k.(map[string]any), "title")
	}
	ks := exp["knowledges"].([]any)
	exp["knowledges"] = ks[:len(ks)-1] // _anon_0001
	for _, key := range []string{"knowledges", "strategies", "namespace", "package_name"} {
		if !reflect.DeepEqual(got[key], exp[key]) {
			g, _ := json.MarshalIndent(got[key], "", " ")
			e, _ := json.MarshalIndent(exp[key], "", " ")
			t.Errorf("%s differs:\ngot  %s\nwant %s", key, g, e)
		}
	}
	if !strings.HasPrefix(string(out), "{\n  \"ir_hash\": \"sha256:") || strings.HasSuffix(string(out), "\n") {
		t.Errorf("not Gaia's layout (sorted keys, 2-space indent, no final newline):\n%.80s", out)
	}
	// nullius's own IR contract accepts it: only the four GAIA507 review
	// flags of the criteria left unwired, as on the sample.
	doc, diags := ir.Load("ir.json", out)
	if len(diags) > 0 {
		t.Fatalf("load: %v", diags)
	}
	found, _ := ir.Check(doc, ir.CheckOptions{})
	for _, d := range found {
		if d.Code != "GAIA507" || d.Severity != diag.Warning {
			t.Errorf("unexpected finding on the compiled IR: %s %s", d.Code, d.Message)
		}
	}
	if len(found) != 4 {
		t.Errorf("%d findings, want the 4 GAIA507 flags: %v", len(found), found)
	}
}

const header = "from gaia.engine.lang import claim, contradict, equal, exclusive, infer, note, observe, register_prior\n\n"

// Everything else the subset writes: titles and metadata keywords, notes,
// register_prior and claim(prior=) records, relations with their helper
// claims and operators, defaulted p_e_given_not_h, labels, exports, and
// the hash over the graph without the exported flags.
func TestCompileSubset(t *testing.T) {
	src := header + `__all__ = ["worth"]
worth = claim("Worth it.", title="worth", reader_role="conclusion")
a = claim("A holds.", prior=0.3)
b = claim(("B " "holds."))
n = note("A note.")
register_prior(b, 0.6, justification="survey. anchor: s.md")
x = exclusive(a, b, rationale="one or the other")
equal(a, worth, label="same")
observe(a, rationale="seen. anchor: r.md", label="obs_a")
infer(a, hypothesis=worth, p_e_given_h=0.75, label="a_to_worth")
infer(b, hypothesis=worth, p_e_given_h=0.9)
`
	out, err := CompileModule("m/__init__.py", "demo", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g := decode(t, out)
	byLabel := map[string]map[string]any{}
	var anon []map[string]any
	for _, v := range g["knowledges"].([]any) {
		k := v.(map[string]any)
		if l, ok := k["label"].(string); ok {
			byLabel[l] = k
		} else {
			anon = append(anon, k)
		}
	}
	if byLabel["worth"]["exported"] != true || byLabel["a"]["exported"] != false {
		t.Error("exported flags wrong")
	}
	if byLabel["b"]["content"] != "B holds." || byLabel["n"]["type"] != "note" || byLabel["worth"]["title"] != "worth" {
		t.Errorf("content/type/title wrong: %v %v", byLabel["b"], byLabel["n"])
	}
	recA := byLabel["a"]["metadata"].(map[string]any)
	if recA["prior"] != 0.999 || recA["prior_records"].([]any)[0].(map[string]any)["source_id"] != "claim_inline" {
		t.Errorf("a's metadata: %v", recA)
	}
	if s := recA["supported_by"].([]any)[0].(map[string]any); s["action_label"] != "obs_a" || s["rationale"] != "seen. anchor: r.md" {
		t.Errorf("observation record: %v", s)
	}
	recB := byLabel["b"]["metadata"].(map[string]any)["prior_records"].([]any)[0].(map[string]any)
	if recB["value"] != 0.6 || recB["source_id"] != "user_priors" || recB["justification"] != "survey. anchor: s.md" {
		t.Errorf("b's prior record: %v", recB)
	}
	x := byLabel["x"]
	if x["content"] != "exactly one of [@a] and [@b] is true." || x["metadata"].(map[string]any)["helper_kind"] != "complement_result" {
		t.Errorf("exclusive helper: %v", x)
	}
	if len(anon) != 1 || anon[0]["id"] != "github:demo::_anon_0001" || anon[0]["content"] != "[@a] and [@worth] are equivalent." {
		t.Errorf("anonymous helper: %v", anon)
	}
	ops := g["operators"].([]any)
	op0 := ops[0].(map[string]any)
	if op0["operator"] != "complement" || op0["conclusion"] != "github:demo::x" ||
		!reflect.DeepEqual(op0["variables"], []any{"github:demo::a", "github:demo::b"}) ||
		op0["metadata"].(map[string]any)["action_label"] != "exclusive_1" {
		t.Errorf("operator 0: %v", op0)
	}
	if ops[1].(map[string]any)["metadata"].(map[string]any)["action_label"] != "same" {
		t.Errorf("operator 1: %v", ops[1])
	}
	ss := g["strategies"].([]any)
	s0, s1 := ss[0].(map[string]any), ss[1].(map[string]any)
	if s0["strategy_id"] != "lcs_a_to_worth" || !reflect.DeepEqual(s0["conditional_probabilities"], []any{0.5, 0.75}) ||
		s0["metadata"].(map[string]any)["p_e_given_not_h_defaulted"] != true || s0["steps"] != nil {
		t.Errorf("strategy 0: %v", s0)
	}
	if s1["strategy_id"] != "lcs_infer_1" || s1["conclusion"] != "github:demo::b" {
		t.Errorf("strategy 1: %v", s1)
	}
	// The hash ignores the exported flags, and changes with the graph.
	flipped, err := CompileModule("m/__init__.py", "demo", []byte(strings.Replace(src, `__all__ = ["worth"]`, `__all__ = ["a"]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if decode(t, flipped)["ir_hash"] != g["ir_hash"] {
		t.Error("ir_hash depends on the exported flags")
	}
	other, _ := CompileModule("m/__init__.py", "demo", []byte(strings.Replace(src, "0.9)", "0.75)", 1)))
	if decode(t, other)["ir_hash"] == g["ir_hash"] {
		t.Error("ir_hash did not change with a probability")
	}
}

// Whatever the subset cannot compile faithfully is refused at its line.
func TestCompileRefusals(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"function body", "worth = claim(\"W.\")\ndef f():\n    observe(worth)\n", ":5:5: observe() inside a function or class"},
		{"if block", "if True:\n    worth = claim(\"W.\")\n", ":4:5: the fake gaia compiles module-level statements only"},
		{"two on a line", "w = claim(\"W.\"); v = claim(\"V.\")\n", ":3:18: the fake gaia compiles module-level statements only"},
		{"python call", "import os\nworth = claim(os.getcwd())\n", ":4:15: the fake gaia does not run Python: os.getcwd(...)"},
		{"unknown name", "observe(ev)\n", `:3:9: NameError: name "ev" is not defined`},
		{"rebound", "w = claim(\"W.\")\nw = claim(\"V.\")\n", ":4:1: w is bound twice"},
		{"given", "w = claim(\"W.\")\ne = claim(\"E.\")\ninfer(e, hypothesis=w, given=[w], p_e_given_h=0.9)\n", ":5:24: infer(given=...) is outside"},
		{"second positional", "w = claim(\"W.\")\ne = claim(\"E.\")\ninfer(e, w, p_e_given_h=0.9)\n", ":5:10: TypeError: infer() takes 1 positional argument but 2 were given"},
		{"missing p", "w = claim(\"W.\")\ne = claim(\"E.\")\ninfer(e, hypothesis=w)\n", "TypeError: infer() missing required argument 'p_e_given_h'"},
		{"prior bounds", "w = claim(\"W.\")\nregister_prior(w, 1.0, justification=\"x\")\n", ":4:19: ValueError: register_prior value 1 is outside the Cromwell bounds"},
		{"blank justification", "w = claim(\"W.\")\nregister_prior(w, 0.5, justification=\" \")\n", "ValueError: register_prior() justification must not be blank"},
		{"unknown keyword", "w = claim(\"W.\")\nobserve(w, value=3)\n", "observe(value=...) is outside the fake gaia's subset"},
		{"other verb", "from gaia.engine.lang import derive\nw = claim(\"W.\")\nderive(w)\n", ":5:1: derive() is outside the fake gaia's subset"},
		{"string evidence", "w = claim(\"W.\")\ninfer(\"E.\", hypothesis=w, p_e_given_h=0.9)\n", "infer(evidence=...) must be a claim"},
		{"bad __all__", "__all__ = [\"worth\"]\nw = claim(\"W.\")\n", `__all__ names "worth", which is not a knowledge labelled "worth"`},
		{"syntax", "w = claim(\"W.\"\n", "SyntaxError"},
	}
	for _, c := range cases {
		_, err := CompileModule("m/__init__.py", "demo", []byte(header+c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// Compile finds the module as Gaia does and refuses a second module.
func TestCompilePackage(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pyproject.toml", "[project]\nname = \"my-idea-gaia\"\nversion = \"0.1.0\"\n")
	write("src/my_idea/__init__.py", header+"w = claim(\"W.\")\n")
	out, err := Compile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g := decode(t, out); g["package_name"] != "my_idea" {
		t.Errorf("package_name %v", g["package_name"])
	}
	write("src/my_idea/helpers.py", "")
	if _, err := Compile(dir); err == nil || !strings.Contains(err.Error(), "compiles one module") {
		t.Errorf("second module: %v", err)
	}
}
