package render

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const fixtures = "../../fixtures/render"

func TestLoadNormalFixture(t *testing.T) {
	g, err := Load(filepath.Join(fixtures, "normal"))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 8 || len(g.Edges) != 3 {
		t.Fatalf("got %d nodes, %d edges; want 8 and 3 (the anonymous helper is not drawn)", len(g.Nodes), len(g.Edges))
	}
	if g.Root < 0 || g.Nodes[g.Root].Label != "worth" || *g.Nodes[g.Root].Posterior != 0.8499370175790979 {
		t.Fatalf("root = %d, want worth with the sample posterior", g.Root)
	}
	name := func(i int) string { return g.Nodes[i].Label }
	// Reader direction (§2.6): conclusion (evidence) -> premises[0] (hypothesis);
	// conditional_probabilities are [p_e_given_not_h, p_e_given_h].
	want := []struct {
		from, to  string
		peh, penh float64
		dir       Direction
		chip      string
	}{
		{"ev_tension", "tension_resolution", 0.9, 0.09, Raises, "substantial"},
		{"tension_resolution", "worth", 0.75, 0.25, Raises, "weak"},
		{"ev_cost", "worth", 0.25, 0.75, Lowers, "weak"},
	}
	for i, w := range want {
		e := g.Edges[i]
		if name(e.From) != w.from || name(e.To) != w.to || e.PEH != w.peh || e.PENH != w.penh || e.Grade.Direction != w.dir || e.Grade.Chip != w.chip {
			t.Errorf("edge %d = %s->%s (%v, %v) %s %s; want %+v", i, name(e.From), name(e.To), e.PEH, e.PENH, e.Grade.Direction, e.Grade.Chip, w)
		}
	}
	if !g.HasBeliefs || !strings.HasPrefix(g.IRPin, "sha256:") || len(g.IRPin) != 71 {
		t.Errorf("HasBeliefs %v, IRPin %q", g.HasBeliefs, g.IRPin)
	}
	if len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "1 knowledge node not drawn") {
		t.Errorf("notes = %q", g.Notes)
	}
	if obs := g.Nodes[6].Observations; g.Nodes[6].Label != "ev_tension" || len(obs) != 1 || !strings.Contains(obs[0], "executed-check") {
		t.Errorf("ev_tension observations = %q", obs)
	}
}

func TestLoadHostileFixtureIDs(t *testing.T) {
	g, err := Load(filepath.Join(fixtures, "hostile"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		if !safeIDRE.MatchString(strings.TrimPrefix(n.DOMID, "card-")) || seen[n.DOMID] {
			t.Errorf("unsafe or repeated DOM id %q for label %q", n.DOMID, n.Label)
		}
		seen[n.DOMID] = true
	}
	if g.Nodes[1].DOMID != "card-n1" {
		t.Errorf("hostile label got id %q, want card-n1", g.Nodes[1].DOMID)
	}
}

// writePkg creates a package directory with the given .gaia files.
func writePkg(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, ".gaia"), 0o755))
	for name, body := range files {
		must(t, os.WriteFile(filepath.Join(dir, ".gaia", name), []byte(body), 0o644))
	}
	return dir
}

const (
	okIR      = `{"knowledges": [{"id": "p::worth", "label": "worth", "type": "claim", "content": "w", "exported": true}, {"id": "p::ev", "label": "ev", "type": "claim", "content": "e", "exported": false}], "strategies": [{"type": "infer", "premises": ["p::worth"], "conclusion": "p::ev", "conditional_probabilities": [0.03, 0.9]}]}`
	okBeliefs = `{"beliefs": [{"knowledge_id": "p::worth", "label": "worth", "belief": 0.75}, {"knowledge_id": null, "label": "ev", "belief": 0.999}]}`
)

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		want    string
		noGraph bool
	}{
		{"missing ir", map[string]string{}, "does not exist; compile the package first", true},
		{"ir syntax", map[string]string{"ir.json": "{\n  \"knowledges\": [,]\n}"}, "ir.json:2:18: not valid JSON", true},
		{"ir not utf8", map[string]string{"ir.json": "{\"knowledges\": [\"\xff\"]}"}, "invalid UTF-8", true},
		{"ir array", map[string]string{"ir.json": "[]"}, "top level is a list, want a JSON object", true},
		{"ir NaN", map[string]string{"ir.json": `{"knowledges": [], "x": NaN}`}, "NaN", true},
		{"no knowledges", map[string]string{"ir.json": `{"knowledges": 5}`}, "compiled ir.json has no knowledges list (found a number)", true},
		{"beliefs syntax", map[string]string{"ir.json": okIR, "beliefs.json": `{"beliefs": [}`}, "beliefs.json:1:14: not valid JSON", false},
		{"beliefs not list", map[string]string{"ir.json": okIR, "beliefs.json": `{"beliefs": {}}`}, "beliefs is an object, want a list", false},
		{"belief string", map[string]string{"ir.json": okIR, "beliefs.json": `{"beliefs": [{"label": "worth", "belief": "0.5"}]}`}, `beliefs[0].belief is '0.5', want a number in [0, 1]`, false},
		{"belief bool", map[string]string{"ir.json": okIR, "beliefs.json": `{"beliefs": [{"label": "worth", "belief": true}]}`}, `beliefs[0].belief is True`, false},
		{"belief range", map[string]string{"ir.json": okIR, "beliefs.json": `{"beliefs": [{"label": "worth", "belief": 1.5}]}`}, `beliefs[0].belief is 1.5`, false},
		{"belief entry", map[string]string{"ir.json": okIR, "beliefs.json": `{"beliefs": [3]}`}, `beliefs[0] is a number, want an object`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writePkg(t, tc.files))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if errors.Is(err, ErrNoGraph) != tc.noGraph {
				t.Errorf("errors.Is(err, ErrNoGraph) = %v, want %v", !tc.noGraph, tc.noGraph)
			}
		})
	}
}

func TestLoadWithoutBeliefs(t *testing.T) {
	g, err := Load(writePkg(t, map[string]string{"ir.json": okIR}))
	if err != nil {
		t.Fatal(err)
	}
	if g.HasBeliefs || g.Nodes[0].Posterior != nil || !strings.Contains(strings.Join(g.Notes, "\n"), "no .gaia/beliefs.json") {
		t.Fatalf("HasBeliefs %v, notes %q", g.HasBeliefs, g.Notes)
	}
}

func TestBeliefsMatchByIDThenLabel(t *testing.T) {
	g, err := Load(writePkg(t, map[string]string{"ir.json": okIR, "beliefs.json": okBeliefs}))
	if err != nil {
		t.Fatal(err)
	}
	if *g.Nodes[0].Posterior != 0.75 || *g.Nodes[1].Posterior != 0.999 {
		t.Fatalf("posteriors %v %v", *g.Nodes[0].Posterior, *g.Nodes[1].Posterior)
	}
	if g.Edges[0].Grade.Chip != "strong" || g.Edges[0].Grade.Direction != Raises {
		t.Fatalf("edge grade %+v", g.Edges[0].Grade)
	}
}

// Anything that cannot be drawn is a note, never an error (§3.5: rendering
// never gates).
func TestUndrawableStrategiesAreNotes(t *testing.T) {
	ir := `{"package_name": "p", "knowledges": [
	  {"id": "p::worth", "label": "worth", "type": "claim", "exported": true},
	  {"id": "p::a", "label": "a", "type": "claim"},
	  {"id": "p::a", "label": "a2", "type": "claim"},
	  {"id": "p::n", "label": "n", "type": "note"},
	  {"label": "noid"},
	  7
	], "strategies": [
	  {"type": "infer", "strategy_id": "given", "premises": ["p::worth", "p::a"], "conclusion": "p::a", "conditional_probabilities": [0.1, 0.2, 0.3, 0.4]},
	  {"type": "infer", "strategy_id": "unknown", "premises": ["p::zzz"], "conclusion": "p::a", "conditional_probabilities": [0.1, 0.9]},
	  {"type": "infer", "strategy_id": "strprob", "premises": ["p::worth"], "conclusion": "p::a", "conditional_probabilities": ["0.9", 0.1]},
	  {"type": "infer", "strategy_id": "boolprob", "premises": ["p::worth"], "conclusion": "p::a", "conditional_probabilities": [true, 0.1]},
	  {"type": "infer", "strategy_id": "range", "premises": ["p::worth"], "conclusion": "p::a", "conditional_probabilities": [1.1, 0.1]},
	  {"type": "infer", "premises": ["p::worth"], "conclusion": "p::a", "conditional_probabilities": [0.1]},
	  {"type": "deduction"}, {"type": "deduction"}, {"type": "equivalence"}, "x"
	]}`
	g, err := ParseIR("ir.json", []byte(ir))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Edges) != 0 || len(g.Nodes) != 2 || g.Package != "p" {
		t.Fatalf("edges %d nodes %d package %q", len(g.Edges), len(g.Nodes), g.Package)
	}
	notes := strings.Join(g.Notes, "\n")
	for _, want := range []string{
		"knowledges[4] has no string id",
		"knowledges[5] is a number, not an object",
		`knowledge id 'p::a' repeats`,
		`infer strategy 'given' has 2 premises`,
		`infer strategy 'unknown' names a premise or conclusion that is not a known knowledge id`,
		`infer strategy 'strprob' has conditional probabilities that are not finite numbers`,
		`infer strategy 'boolprob' has conditional probabilities`,
		`infer strategy 'range' has conditional probabilities`,
		`infer strategy 'infer[5]' does not carry exactly two conditional probabilities`,
		"strategies[9] is a string, not an object",
		"2 deduction strategies not drawn",
		"1 equivalence strategy not drawn",
		"1 knowledge node not drawn",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

func FuzzBeliefs(f *testing.F) {
	b, err := os.ReadFile(filepath.Join(fixtures, "normal", ".gaia", "beliefs.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(okBeliefs))
	f.Add([]byte(`{"beliefs": [{"label": "worth", "belief": 1e-400}]}`))
	f.Add([]byte(`{"beliefs": [{"label": "worth", "belief": -0}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := ParseIR("ir.json", []byte(okIR))
		if err != nil {
			t.Fatal(err)
		}
		if err := g.ApplyBeliefs("beliefs.json", src); err != nil {
			if g.HasBeliefs {
				t.Fatal("a rejected beliefs.json must not count as read")
			}
			return
		}
		for _, n := range g.Nodes {
			if p := n.Posterior; p != nil && (*p < 0 || *p > 1 || !regexp.MustCompile(`^[01]\.[0-9]{3}$`).MatchString(Prob(*p))) {
				t.Fatalf("posterior %v accepted", *p)
			}
		}
	})
}

func TestNotesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"knowledges": [`)
	for i := range 500 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"label": "no id"}`)
	}
	b.WriteString(`]}`)
	g, err := ParseIR("ir.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Notes) != maxNotes+1 || g.Notes[maxNotes] != "... and 400 more notes like these" {
		t.Fatalf("%d notes, last %q", len(g.Notes), g.Notes[len(g.Notes)-1])
	}
}

// The badge marks exactly the criteria the compiled-IR check GAIA507 finds
// disconnected: on the sample, the four criteria with no infer path to worth.
func TestDisconnectedCriteria(t *testing.T) {
	g, err := Load(filepath.Join(fixtures, "normal"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range g.Nodes {
		if n.Disconnected {
			got = append(got, n.Label)
		}
	}
	want := []string{"downstream_reach", "mechanism_insight", "testability_timing", "verification_cost"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("disconnected = %v, want %v", got, want)
	}
	larger, err := Load(filepath.Join(fixtures, "larger"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range larger.Nodes {
		if n.Disconnected {
			t.Errorf("%s marked disconnected in a graph where every criterion reaches worth", n.Label)
		}
	}
}

// Operators are listed with what they assert, never dropped: the verb
// that writes them, their members (drawn or not), helper and action.
func TestRelationsAreListed(t *testing.T) {
	ir := `{"package_name": "p", "knowledges": [
	  {"id": "p::worth", "label": "worth", "type": "claim", "exported": true},
	  {"id": "p::a", "label": "a", "type": "claim"},
	  {"id": "p::b", "label": "b", "type": "claim"},
	  {"id": "p::_anon_0001", "type": "claim", "content": "exactly one of [@a] and [@b] is true."}
	], "strategies": [], "operators": [
	  {"operator": "complement", "variables": ["p::a", "p::b"], "conclusion": "p::_anon_0001", "metadata": {"action_label": "exclusive_1"}},
	  {"operator": "equivalence", "variables": ["p::a", "p::gone"], "conclusion": "p::x"},
	  {"operator": "disjunction", "variables": ["p::a", "p::b", "p::worth"]},
	  "junk"
	], "composes": [{}]}`
	g, err := ParseIR("ir.json", []byte(ir))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Relations) != 3 {
		t.Fatalf("%d relations, want 3", len(g.Relations))
	}
	r := g.Relations[0]
	if r.Verb != "exclusive" || r.Meaning != "exactly one of a and b is true" || r.Helper != "p::_anon_0001" || r.Action != "exclusive_1" ||
		r.Members[0].Node < 0 || g.Nodes[r.Members[0].Node].Label != "a" {
		t.Errorf("exclusive: %+v", r)
	}
	if r := g.Relations[1]; r.Verb != "equal" || r.Members[1].Node != -1 || r.Members[1].Name != "p::gone" {
		t.Errorf("equal over an unknown id: %+v", r)
	}
	if r := g.Relations[2]; r.Verb != "" || r.Meaning != "disjunction over a, b, worth" {
		t.Errorf("other operator: %+v", r)
	}
	notes := strings.Join(g.Notes, "\n")
	for _, want := range []string{"operators[3] is a string, not an object; not listed", "1 composition not drawn"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}
