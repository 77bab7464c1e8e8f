package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/golden"
	"github.com/nullius-dev/nullius/pipeline/pairs"
)

// portfolioProject writes a package (the reference's sample IR and beliefs)
// at <root>/ideas/graphs/<dir> and returns root, the nodes file and the ref.
func portfolioProject(t *testing.T, dir string, editIR func(string) string) (root, ref string) {
	t.Helper()
	root = t.TempDir()
	pkg := filepath.Join(root, "ideas", "graphs", dir)
	if err := os.MkdirAll(filepath.Join(pkg, ".gaia"), 0o755); err != nil {
		t.Fatal(err)
	}
	irb, err := os.ReadFile("../../fixtures/ir/ir_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	if editIR != nil {
		irb = []byte(editIR(string(irb)))
	}
	bel, _ := os.ReadFile("../../fixtures/ir/beliefs_sample.json")
	for name, b := range map[string][]byte{".gaia/ir.json": irb, ".gaia/beliefs.json": bel, "argument-graph.html": []byte("<html></html>")} {
		if err := os.WriteFile(filepath.Join(pkg, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ref = "project://ideas/graphs/" + strings.ReplaceAll(dir, " ", "%20") + "#" + pinOf(irb)
	return root, ref
}

func pinOf(b []byte) string { return irPin(b) }

func nodeJSON(id, ref string, value any) map[string]any {
	var post any
	if value != nil {
		post = map[string]any{"value": value, "evidence_count": 3, "status": "current", "gaia_package_ref": ref}
	}
	return map[string]any{"node_id": id, "lifecycle_state": "admission_review",
		"literature_coverage": map[string]any{"status": "saturated"}, "posterior": post,
		"idea_card": map[string]any{"thesis_statement": "  A controlled comparison separates two explanations.  "}}
}

func runPortfolio(t *testing.T, root string, nodes any) (*Portfolio, string) {
	t.Helper()
	b, _ := json.Marshal(nodes)
	np := filepath.Join(root, "nodes_latest.json")
	if err := os.WriteFile(np, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := BuildPortfolio(PortfolioOptions{NodesPath: np, ProjectRoot: root, OutMD: filepath.Join(root, "reports", "portfolio.md")})
	if err != nil {
		t.Fatal(err)
	}
	return p, p.Markdown()
}

const sampleWorth = 0.8499370175790979

func TestPortfolioPS1DriversLinksRounding(t *testing.T) {
	root, ref := portfolioProject(t, "idea-one", nil)
	p, md := runPortfolio(t, root, map[string]any{"nd000001": nodeJSON("nd000001", ref, sampleWorth)})
	for _, want := range []string{
		"| `nd000001` | admission_review | saturated | 0.850 | current | [graph](../ideas/graphs/idea-one/argument-graph.html) |",
		"- Machine ref: `" + ref + "`",
		"  - +0.81 → tension_resolution: The executed comparison demonstrates",
		"  - -0.50 → worth: ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	for _, bad := range []string{"[" + ref + "]", "reader_reasoning:", "resolution_evidence:", "0.850 ⚠"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown has %q", bad)
		}
	}
	r := p.Rows[0]
	if len(p.Warnings) != 0 || r.GraphRootBelief == nil || *r.GraphRootBelief != sampleWorth || *r.PosteriorValue != sampleWorth || r.StoreGraphMismatch || *r.PackageDir != "ideas/graphs/idea-one" {
		t.Fatalf("row %+v warnings %v", r, p.Warnings)
	}
	j, _ := p.JSON()
	if !strings.Contains(string(j), `"posterior_value": 0.8499370175790979`) {
		t.Fatalf("JSON loses the exact value:\n%s", j)
	}
}

func TestPortfolioPS2MultiPremiseNotScored(t *testing.T) {
	if _, ok := StrategyEffect(map[string]any{"premises": []any{"a", "b"}, "conditional_probabilities": []any{0.1, 0.2, 0.3, 0.4}}); ok {
		t.Fatal("multi-premise table scored")
	}
}

func TestPortfolioPS3StoreGraphMismatch(t *testing.T) {
	root, ref := portfolioProject(t, "idea-one", nil)
	p, md := runPortfolio(t, root, map[string]any{"nd000001": nodeJSON("nd000001", ref, 0.401)})
	if !p.Rows[0].StoreGraphMismatch || !strings.Contains(md, "0.401 ⚠ stale?") || !strings.Contains(md, "store/graph mismatch — re-extract before allocation") ||
		len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "historical evidence") {
		t.Fatalf("%v\n%s", p.Warnings, md)
	}
}

func TestPortfolioPS4PS5Placeholders(t *testing.T) {
	root, _ := portfolioProject(t, "idea-one", nil)
	p, md := runPortfolio(t, root, map[string]any{"campaign_id": "c0ffee12", "nodes": []any{nodeJSON("nd000003", "", nil)}})
	if len(p.Rows) != 1 || !strings.Contains(md, "| `nd000003` | admission_review | saturated | — | — | — |") || strings.Contains(md, "Top support") {
		t.Fatalf("%s", md)
	}
}

func TestPortfolioWithheldGraphs(t *testing.T) {
	for _, tc := range []struct {
		id    string
		setup func(t *testing.T) (root, ref string)
		warn  []string
		stale bool
		dir   bool
	}{
		{"PS6 missing package", func(t *testing.T) (string, string) {
			root, _ := portfolioProject(t, "idea-one", nil)
			return root, "project://ideas/graphs/nope#sha256:" + strings.Repeat("a", 64)
		}, []string{"does not resolve"}, false, false},
		{"PS8 stale pin", func(t *testing.T) (string, string) {
			root, _ := portfolioProject(t, "idea-one", nil)
			return root, "project://ideas/graphs/idea-one#sha256:" + strings.Repeat("e", 64)
		}, []string{"exact compiled ir.json"}, true, true},
		{"PS9 unexported worth", func(t *testing.T) (string, string) {
			return portfolioProject(t, "idea-one", func(s string) string { return strings.Replace(s, `"exported": true`, `"exported": false`, 1) })
		}, []string{`__all__ = ["worth"]`, "cannot read"}, false, true},
		{"PS10 escaping ref", func(t *testing.T) (string, string) {
			root, _ := portfolioProject(t, "idea-one", nil)
			return root, "project://../outside-pkg#sha256:" + strings.Repeat("a", 64)
		}, []string{"does not resolve"}, false, false},
		{"PS11 symlinked package dir", func(t *testing.T) (string, string) {
			outside, ref := portfolioProject(t, "idea-one", nil)
			root := t.TempDir()
			if err := os.Symlink(filepath.Join(outside, "ideas"), filepath.Join(root, "ideas")); err != nil {
				t.Skip("symlinks unsupported")
			}
			return root, ref
		}, []string{"does not resolve"}, false, false},
		{"PS12 beliefs symlinked out", func(t *testing.T) (string, string) {
			root, ref := portfolioProject(t, "idea-one", nil)
			other := filepath.Join(t.TempDir(), "beliefs.json")
			bel := filepath.Join(root, "ideas/graphs/idea-one/.gaia/beliefs.json")
			b, _ := os.ReadFile(bel)
			_ = os.WriteFile(other, b, 0o644)
			_ = os.Remove(bel)
			if err := os.Symlink(other, bel); err != nil {
				t.Skip("symlinks unsupported")
			}
			return root, ref
		}, []string{"cannot read", "beliefs.json"}, false, true},
	} {
		t.Run(tc.id, func(t *testing.T) {
			root, ref := tc.setup(t)
			p, md := runPortfolio(t, root, map[string]any{"nd000001": nodeJSON("nd000001", ref, sampleWorth)})
			r := p.Rows[0]
			if len(r.SupportDrivers) != 0 || r.GraphRootBelief != nil || strings.Contains(md, "+0.81 →") {
				t.Fatalf("graph data not withheld: %+v", r)
			}
			if (r.PackageDir != nil) != tc.dir || r.Stale != tc.stale {
				t.Fatalf("package_dir %v stale %v", r.PackageDir, r.Stale)
			}
			all := strings.Join(p.Warnings, "\n")
			for _, w := range tc.warn {
				if !strings.Contains(all, w) {
					t.Errorf("warnings lack %q: %s", w, all)
				}
			}
			if tc.stale && !strings.Contains(md, "⚠ stale?") {
				t.Errorf("stale row not flagged (W-14b):\n%s", md)
			}
		})
	}
}

func TestPortfolioPS7PercentEncodedRef(t *testing.T) {
	root, ref := portfolioProject(t, "idea one", nil)
	p, md := runPortfolio(t, root, map[string]any{"nd000001": nodeJSON("nd000001", ref, sampleWorth)})
	if len(p.Warnings) != 0 || !strings.Contains(md, "+0.81 →") {
		t.Fatalf("%v\n%s", p.Warnings, md)
	}
}

func FuzzLoadNodes(f *testing.F) {
	f.Add([]byte(`{"nd000001": {"posterior": null}}`))
	f.Add([]byte(`{"campaign_id": "c", "nodes": [{"node_id": "a"}, 5]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		nodes, err := LoadNodes("nodes.json", b)
		if err == nil {
			for _, n := range nodes {
				if n == nil {
					t.Fatal("nil node accepted")
				}
			}
		}
	})
}

// The portfolio reads nodes_latest.json as `match pairs` does, so both name
// the same package for a node: a node of a wrapper takes the wrapper's
// campaign_id for its binding (two packages bound to nd000001 in two
// campaigns are not ambiguous), and a repeated key is refused with pairs'
// message instead of letting the last node win.
func TestPortfolioReadsNodesAsPairsDoes(t *testing.T) {
	root := t.TempDir()
	for dir, campaign := range map[string]string{"a": "c0ffee12", "b": "c0ffee13"} {
		pkg := filepath.Join(root, "ideas", dir)
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		toml := "[project]\nname = \"" + dir + "\"\n\n[tool.nullius]\ncampaign-id = \"" + campaign + "\"\nnode-id = \"nd000001\"\n"
		if err := os.WriteFile(filepath.Join(pkg, "pyproject.toml"), []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wrapper := map[string]any{"campaign_id": "c0ffee13", "nodes": []any{nodeJSON("nd000001", "", nil)}}
	p, _ := runPortfolio(t, root, wrapper)
	if len(p.Rows) != 1 || p.Rows[0].Package == nil || *p.Rows[0].Package != "ideas/b" || len(p.Warnings) != 0 {
		t.Fatalf("package %v, warnings %q; want ideas/b (bound in the wrapper's campaign) and no warning", p.Rows[0].Package, p.Warnings)
	}
	ns, err := pairs.LoadNodes(filepath.Join(root, "nodes_latest.json"))
	if err != nil || len(ns) != 1 || ns[0].Campaign != "c0ffee13" {
		t.Fatalf("pairs reads %+v, %v", ns, err)
	}

	np := filepath.Join(root, "dup.json")
	if err := os.WriteFile(np, []byte("{\"nd000001\": {\"lifecycle_state\": \"admitted\"},\n \"nd000001\": {\"lifecycle_state\": \"archived\"}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = BuildPortfolio(PortfolioOptions{NodesPath: np, ProjectRoot: root, OutMD: filepath.Join(root, "out.md")})
	_, perr := pairs.LoadNodes(np)
	want := np + ":2:2: key \"nd000001\" appears twice in one object; the last one would silently win"
	if err == nil || err.Error() != want || perr == nil || perr.Error() != want {
		t.Fatalf("portfolio: %v\npairs:     %v\nwant:      %s", err, perr, want)
	}
}

// TestNodeCampaignFallback pins the campaign_id a node of a nodes file is
// looked up under, in both readers (`report portfolio` and `match pairs`):
// its own when that is a non-empty string, else a wrapper's when that is
// a string, else none. The portfolio's node keeps its own value unless
// the wrapper gives one.
func TestNodeCampaignFallback(t *testing.T) {
	const absent = "<absent>"
	values := map[string]string{absent: "", "set": `"c0ffee12"`, "empty": `""`, "number": `5`, "null": `null`, "list": `["c0ffee12"]`}
	wrappers := map[string]string{absent: "", "set": `"c0ffee13"`, "empty": `""`, "number": `5`, "null": `null`}
	member := func(key, v string) string {
		if v == "" {
			return ""
		}
		return `"` + key + `": ` + v + `, `
	}
	dir := t.TempDir()
	var got []string
	for _, own := range []string{absent, "set", "empty", "number", "null", "list"} {
		node := `{` + member("campaign_id", values[own]) + `"node_id": "nd000001"}`
		shapes := map[string]string{"native": `{"nd000001": ` + node + `}`}
		for _, w := range []string{absent, "set", "empty", "number", "null"} {
			shapes["list/"+w] = `{` + member("campaign_id", wrappers[w]) + `"nodes": [` + node + `]}`
			shapes["map/"+w] = `{` + member("campaign_id", wrappers[w]) + `"nodes": {"nd000001": ` + node + `}}`
		}
		for _, shape := range slices.Sorted(maps.Keys(shapes)) {
			path := filepath.Join(dir, "nodes.json")
			if err := os.WriteFile(path, []byte(shapes[shape]), 0o644); err != nil {
				t.Fatal(err)
			}
			ns, err := pairs.LoadNodes(path)
			if err != nil || len(ns) != 1 {
				t.Fatalf("own %s, %s: pairs read %v, %v", own, shape, ns, err)
			}
			ps, err := LoadNodes(path, []byte(shapes[shape]))
			if err != nil || len(ps) != 1 {
				t.Fatalf("own %s, %s: portfolio read %v, %v", own, shape, ps, err)
			}
			kept, ok := ps[0]["campaign_id"]
			keptS := fmt.Sprint(kept)
			if !ok {
				keptS = absent
			}
			if sval(ps[0]["campaign_id"]) != ns[0].Campaign {
				t.Errorf("own %s, %s: portfolio looks up %q, pairs %q", own, shape, sval(ps[0]["campaign_id"]), ns[0].Campaign)
			}
			got = append(got, fmt.Sprintf("%s %s: %q %s", own, shape, ns[0].Campaign, keptS))
		}
	}
	golden.Check(t, "testdata/node_campaign.golden", []byte(strings.Join(got, "\n")+"\n"))
}
