package analyzers_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/driver"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/internal/diag"
)

// GAIA507 is found twice: in the source (analyzers/readerflow, before any
// compile) and in the compiled graph (analyzers/ir). These tests hold the
// two to the same answer.
//
// No fixture ships a real gaia compile of its own source, and gaia cannot
// run in the tests, so the IR side is checked two ways: against the two
// hand-compiled pairs of fixtures/extract (road/*.py and the ir_*.json
// gaia 0.5.0a4 would write for them), and, for every fixture package, on
// the IR that Gaia's compile rules (gaia-discipline.md §0.1-0.2: labels are
// the first module variable, infer(e, hypothesis=h) stores premises [h] and
// conclusion e) give for the source graph.

// TestReaderFlowAgreesOnCompiledPairs lints each road module with its
// compiled IR beside it: the source rule and the IR rule name the same
// criteria, and lint reports each once (the IR finding at the same line is
// dropped).
func TestReaderFlowAgreesOnCompiledPairs(t *testing.T) {
	for _, pair := range []struct {
		src, ir string
		want    int // criteria disconnected (fixtures/extract/README.md)
	}{
		{"road/__init__.py", "ir_sample.json", 4},
		{"road/sentences_only.py", "ir_sentences_only.json", 5},
	} {
		t.Run(pair.src, func(t *testing.T) {
			dir := t.TempDir()
			mod := filepath.Join(dir, "src", "example_idea")
			mustMkdir(t, mod)
			mustMkdir(t, filepath.Join(dir, ".gaia"))
			write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"example-idea-gaia\"\n")
			write(t, filepath.Join(mod, "__init__.py"), readFixture(t, "../fixtures/extract/"+pair.src))
			irBytes := readFixture(t, "../fixtures/extract/"+pair.ir)
			write(t, filepath.Join(dir, ".gaia", "ir.json"), irBytes)

			doc, ds := ir.Load("ir.json", []byte(irBytes))
			if len(ds) != 0 {
				t.Fatalf("load: %v", ds)
			}
			irds, _ := ir.Check(doc, ir.CheckOptions{})
			irLabels := criterionLabels(irds)
			srcLabels := criterionLabels(lintCodes(t, dir, analyzers.Options{NoIR: true}))
			if !slices.Equal(srcLabels, irLabels) || len(irLabels) != pair.want {
				t.Errorf("source GAIA507 %v, compiled GAIA507 %v, want %d each", srcLabels, irLabels, pair.want)
			}
			both := lintCodes(t, dir, analyzers.Options{})
			if got := criterionLabels(both); !slices.Equal(got, srcLabels) {
				t.Errorf("lint with both rules: GAIA507 %v, want each of %v once", got, srcLabels)
			}
		})
	}
}

// TestReaderFlowAgreesOnEveryFixture compiles every fixture package's
// source graph into IR and runs the IR rule on it. Where every edge of the
// source graph is known (a module-level infer between claim variables) the
// two rules must name the same criteria; elsewhere the source rule, which
// stays silent when unsure, must name a subset of what the IR rule finds on
// the known edges alone.
func TestReaderFlowAgreesOnEveryFixture(t *testing.T) {
	pkgs, _, err := analyzers.Discover([]string{"../fixtures"})
	if err != nil {
		t.Fatal(err)
	}
	compared, exactly, found := 0, 0, 0
	for _, p := range pkgs {
		g := sourceGraph(t, p)
		if g == nil {
			continue // a module does not parse: neither rule runs
		}
		exact := true
		for _, e := range g.Edges {
			if !e.Certain || e.From.Unknown || e.To.Unknown {
				exact = false
			}
		}
		doc, ds := ir.Load("ir.json", compile(t, g))
		if len(ds) != 0 {
			t.Fatalf("%s: compiled IR does not load: %v", p.Dir, ds)
		}
		irds, irg := ir.Check(doc, ir.CheckOptions{})
		if irg.RootID == "" || irg.Cyclic {
			continue // the IR rule does not run: no root or a cycle
		}
		irLabels := criterionLabels(irds)
		var srcLabels []string
		for _, n := range g.Disconnected() {
			srcLabels = append(srcLabels, n.Label)
		}
		slices.Sort(srcLabels)
		compared, found = compared+1, found+len(irLabels)
		if exact {
			exactly++
		}
		switch {
		case exact && !slices.Equal(srcLabels, irLabels):
			t.Errorf("%s: source GAIA507 %v, compiled GAIA507 %v", p.Dir, srcLabels, irLabels)
		case !exact && !isSubset(srcLabels, irLabels):
			t.Errorf("%s: source GAIA507 %v is not within compiled GAIA507 %v", p.Dir, srcLabels, irLabels)
		}
	}
	t.Logf("compared %d fixture packages (%d with every edge known), %d compiled GAIA507 findings", compared, exactly, found)
	if compared < 5 || exactly < 3 || found == 0 {
		t.Fatalf("compared %d fixture packages, %d exactly, %d findings; the fixtures should give the rules more to agree on", compared, exactly, found)
	}
}

// TestReaderFlowCases pins the cases the source rule must not guess.
func TestReaderFlowCases(t *testing.T) {
	const head = "from gaia.engine.lang import claim, infer\n\n__all__ = [\"worth\"]\n\n" +
		"worth = claim(\"W.\")\nmechanism_insight = claim(\"M.\")\nverification_cost = claim(\"V.\")\n"
	const tail = ", p_e_given_h=0.75, p_e_given_not_h=0.25, rationale=\"reader_reasoning: it bears on worth here. anchor: idea card\")\n"
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"nothing wired", "", []string{"mechanism_insight", "verification_cost"}},
		{"direct", "infer(mechanism_insight, hypothesis=worth" + tail, []string{"verification_cost"}},
		{"through a criterion", "infer(verification_cost, hypothesis=mechanism_insight" + tail + "infer(mechanism_insight, hypothesis=worth" + tail, nil},
		{"evidence keyword and alias", "m = mechanism_insight\ninfer(evidence=m, hypothesis=worth" + tail, []string{"verification_cost"}},
		{"wrong direction", "infer(worth, hypothesis=mechanism_insight" + tail, []string{"mechanism_insight", "verification_cost"}},
		{"given= draws no edge", "infer(mechanism_insight, hypothesis=worth, given=[verification_cost]" + tail, []string{"mechanism_insight", "verification_cost"}},
		{"inside a function: unsure", "def wire():\n    infer(mechanism_insight, hypothesis=worth" + tail, []string{"verification_cost"}},
		{"loop variable evidence: unsure of every criterion", "for c in [mechanism_insight]:\n    infer(c, hypothesis=worth" + tail, nil},
		{"hypothesis not a variable: unsure", "ns = {\"w\": worth}\ninfer(mechanism_insight, hypothesis=ns[\"w\"]" + tail, []string{"verification_cost"}},
		{"cycle: left to GAIA141", "infer(mechanism_insight, hypothesis=verification_cost" + tail + "infer(verification_cost, hypothesis=mechanism_insight" + tail, nil},
		{"no worth: left to GAIA110/120", "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := head + tt.src
			if strings.HasPrefix(tt.name, "no worth") {
				src = strings.Replace(src, "worth = claim", "other = claim", 1)
			}
			var got []string
			for _, d := range lintSource(t, src) {
				if d.Code == "GAIA507" {
					got = append(got, strings.Split(d.Message, "'")[1])
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("GAIA507 for %v, want %v\n%s", got, tt.want, src)
			}
		})
	}
}

// TestReaderFlowLabels pins where GAIA507 names a criterion: its first
// module-level variable (an alias after it, a nested or tuple target, an
// earlier plain value bound to the same name), at that variable's first
// module-level assignment.
func TestReaderFlowLabels(t *testing.T) {
	src := "from gaia.engine.lang import claim\n\n__all__ = [\"worth\"]\n\n" +
		"worth = claim(\"W.\")\n" + // 5
		"mechanism_insight = 1\n" + // 6: the first assignment of mechanism_insight
		"def f():\n    verification_cost = 2\n" + // 7-8: not module-level
		"mechanism_insight = claim(\"M.\")\n" + // 9
		"verification_cost = alias = claim(\"V.\")\n" + // 10
		"a, b = claim(\"T.\")\n" + // 11: no bare name, no label
		"x = (testability_timing := claim(\"T.\"))\n" // 12: the walrus binds it
	var got []string
	for _, d := range lintSource(t, src) {
		if d.Code == "GAIA507" {
			got = append(got, fmt.Sprintf("%d:%d %s", d.Line, d.Column, strings.Split(d.Message, "'")[1]))
		}
	}
	want := []string{"6:1 mechanism_insight", "10:1 verification_cost", "12:6 testability_timing"}
	if !slices.Equal(got, want) {
		t.Errorf("GAIA507 at %q, want %q", got, want)
	}
}

// TestReaderFlowAcrossModules follows claims through relative imports.
func TestReaderFlowAcrossModules(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "src", "conf")
	mustMkdir(t, mod)
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"conf-gaia\"\n")
	write(t, filepath.Join(mod, "claims.py"), "from gaia.engine.lang import claim\n\nworth = claim(\"W.\")\n"+
		"mechanism_insight = claim(\"M.\")\ntestability_timing = claim(\"T.\")\n")
	write(t, filepath.Join(mod, "__init__.py"), "from gaia.engine.lang import infer\nfrom . import claims\n"+
		"from .claims import worth, mechanism_insight as mi\n\n__all__ = [\"worth\"]\n\n"+
		"infer(mi, hypothesis=worth, p_e_given_h=0.75, p_e_given_not_h=0.25, rationale=\"reader_reasoning: it bears on worth. anchor: card\")\n"+
		"infer(claims.testability_timing, hypothesis=claims.worth, p_e_given_h=0.75, p_e_given_not_h=0.25, rationale=\"reader_reasoning: it bears on worth. anchor: card\")\n")
	for _, d := range lintCodes(t, dir, analyzers.Options{NoIR: true}) {
		if d.Code == "GAIA507" {
			t.Errorf("unexpected %s", d)
		}
	}
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func readFixture(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lintCodes(t *testing.T, dir string, opts analyzers.Options) []diag.Diagnostic {
	t.Helper()
	res, err := analyzers.Lint([]string{dir}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res.Diagnostics
}

// criterionLabels returns the sorted criteria the GAIA507 findings name.
func criterionLabels(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if d.Code == readerflow.GAIA507.Code {
			out = append(out, strings.Split(d.Message, "'")[1])
		}
	}
	slices.Sort(out)
	return out
}

func isSubset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// sourceGraph builds the reader-flow graph of a package through the real
// driver; nil when a module does not parse.
func sourceGraph(t *testing.T, p analyzers.Package) *readerflow.Graph {
	t.Helper()
	var g *readerflow.Graph
	probe := &analysis.Analyzer{
		Name: "probe", Doc: "record the reader-flow graph", Requires: []*analysis.Analyzer{gaiaref.Analyzer},
		ResultType: reflect.TypeFor[*readerflow.Graph](),
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[gaiaref.Analyzer].(*gaiaref.Result)
			g = readerflow.Build(res)
			return g, nil
		},
	}
	_, parsed, err := driver.RunParsed(p.Dir, p.Files, []*analysis.Analyzer{probe}, driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range parsed.Files {
		if !f.Parsed() {
			return nil
		}
	}
	return g
}

// compile writes the IR Gaia 0.5.0a4 would compile from the known part of
// a source graph: one knowledge per claim (labelled by its variable, worth
// exported), one infer strategy per certain edge between known claims.
func compile(t *testing.T, g *readerflow.Graph) []byte {
	t.Helper()
	id := map[*readerflow.Node]string{}
	var ks, ss []map[string]any
	for i, n := range g.Nodes {
		label := n.Label
		k := map[string]any{"type": "claim", "content": fmt.Sprintf("Claim %d.", i), "exported": label == "worth"}
		if label == "" {
			label = fmt.Sprintf("_anon_%03d", i)
		} else {
			k["label"] = label
		}
		k["id"] = "github:pkg::" + label
		id[n] = k["id"].(string)
		ks = append(ks, k)
	}
	for i, e := range g.Edges {
		if !e.Certain || e.From.Node == nil || e.To.Node == nil {
			continue
		}
		ss = append(ss, map[string]any{
			"type": "infer", "strategy_id": fmt.Sprintf("lcs_%d", i),
			"premises": []string{id[e.To.Node]}, "conclusion": id[e.From.Node],
			"conditional_probabilities": []float64{0.25, 0.75},
			"steps":                     []map[string]string{{"reasoning": "reader_reasoning: compiled for the agreement test. anchor: test"}},
		})
	}
	b, err := json.Marshal(map[string]any{
		"ir_hash": "sha256:" + strings.Repeat("0", 64), "knowledges": ks, "strategies": ss,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
