package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// Graph is the drawable view of a compiled package: the claims, the infer
// updates between them in reader direction, the posteriors, and notes about
// whatever could not be drawn.
type Graph struct {
	Package string  // package_name of the IR, or the directory name
	Nodes   []*Node // drawn knowledge, in IR order
	Edges   []*Edge // one per drawable infer strategy, in IR order
	Root    int     // index of the worth root in Nodes, -1 when none
	// HasBeliefs is false when .gaia/beliefs.json does not exist (the graph
	// was compiled but inference has not run).
	HasBeliefs bool
	Notes      []string // things not drawn, in the order found
	// Relations are the IR's operators (exclusive, equal, contradict, ...):
	// asserted relations that carry no likelihood, listed on the page
	// rather than drawn as arrows.
	Relations []*Relation
	// IRPin is "sha256:" + the hex sha256 of the exact ir.json bytes drawn,
	// the pin extraction binds gaia_package_ref to.
	IRPin string

	moreNotes int // notes beyond maxNotes, summarised by closeNotes
}

// Node is one drawn knowledge.
type Node struct {
	ID        string   // qualified IR id
	Label     string   // module variable name; "" for anonymous nodes
	DOMID     string   // "card-<label>", or "card-n<i>" when the label is unsafe as an id
	Type      string   // claim, note, ...
	Role      string   // metadata.reader_role, if a string
	Statement string   // content
	Exported  bool     // exported is JSON true
	Posterior *float64 // from beliefs.json; nil when not computed
	Prior     *float64 // metadata.prior, if a number
	// Observations are the rationales of the observe() records on this node
	// (metadata.supported_by entries with pattern "observation").
	Observations []string
	// Disconnected marks a criterion with no reader-flow path to worth:
	// the compiled-IR check GAIA507 reports it, and it cannot move the
	// posterior.
	Disconnected bool

	kIndex int // index in the IR's knowledges array
}

// Relation is one operator of the compiled graph.
type Relation struct {
	Operator string // as the IR names it: complement, equivalence, contradiction, ...
	Verb     string // the DSL verb that writes it (exclusive, equal, contradict), "" for others
	Meaning  string // what it asserts, in words, over the member names
	Members  []Member
	Helper   string // the helper claim the relation is asserted on (its name)
	Action   string // metadata.action_label
}

// Member is one claim a relation relates.
type Member struct {
	Name string
	Node int // index into Graph.Nodes, -1 when the claim is not drawn
}

// Edge is one infer strategy drawn from the evidence (the IR's conclusion)
// to the hypothesis it updates (premises[0]).
type Edge struct {
	StrategyID string
	From, To   int     // indices into Graph.Nodes: evidence, hypothesis
	PEH, PENH  float64 // P(e|h), P(e|not h)
	Rationale  string  // steps[*].reasoning joined with spaces
	Grade      Grade
}

// Name is the node's display name: its label or, for anonymous nodes, its id.
func (n *Node) Name() string {
	if n.Label != "" {
		return n.Label
	}
	if n.ID != "" {
		return n.ID
	}
	return "(unlabelled)"
}

// safeIDRE is what a label must look like to appear verbatim in an HTML id
// (and in the CSS and selectors derived from it).
var safeIDRE = lazyre.New(`^[A-Za-z_][A-Za-z0-9_-]{0,80}$`)

// ErrNoGraph wraps every failure that leaves nothing to draw.
var ErrNoGraph = errors.New("cannot read the compiled graph")

// Load reads <pkg>/.gaia/ir.json and, when present, <pkg>/.gaia/beliefs.json.
// It fails only when ir.json is missing or unreadable as a graph, or when
// beliefs.json exists but is malformed; anything else it cannot draw is
// recorded in Graph.Notes.
func Load(pkg string) (*Graph, error) {
	irPath := filepath.Join(pkg, ".gaia", "ir.json")
	irSrc, err := readlimit.ReadFile(irPath, readlimit.JSON)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %q does not exist; compile the package first (gaia build compile, then gaia run infer)", ErrNoGraph, irPath)
		}
		if readlimit.Refused(err) {
			return nil, fmt.Errorf("%w: %v", ErrNoGraph, err)
		}
		return nil, fmt.Errorf("%w: could not read %q: %v", ErrNoGraph, irPath, err)
	}
	g, err := ParseIR(irPath, irSrc)
	if err != nil {
		return nil, err
	}
	g.IRPin = digest.Of(irSrc)
	if g.Package == "" {
		g.Package = filepath.Base(filepath.Clean(pkg))
	}
	bPath := filepath.Join(pkg, ".gaia", "beliefs.json")
	bSrc, err := readlimit.ReadFile(bPath, readlimit.JSON)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.Notes = append(g.Notes, "no .gaia/beliefs.json: posteriors are not shown (run gaia run infer)")
		return g, nil
	case readlimit.Refused(err):
		return nil, err
	case err != nil:
		return nil, fmt.Errorf("could not read %q: %v", bPath, err)
	}
	if err := g.ApplyBeliefs(bPath, bSrc); err != nil {
		return nil, err
	}
	return g, nil
}

// parseJSON parses src strictly and names the file and position on failure.
func parseJSON(path string, src []byte) (*jsonloc.Doc, map[string]any, error) {
	doc, err := jsonloc.Parse(src, jsonloc.Options{})
	if err != nil {
		var se *jsonloc.SyntaxError
		if errors.As(err, &se) {
			return nil, nil, fmt.Errorf("%s:%d:%d: not valid JSON: %s", path, se.Line, se.Col, se.Msg)
		}
		return nil, nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
	}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("%s: top level is %s, want a JSON object", path, kind(doc.Value))
	}
	return doc, top, nil
}

// ParseIR builds the graph from the bytes of a compiled ir.json. path only
// names the file in messages.
func ParseIR(path string, src []byte) (*Graph, error) {
	doc, top, err := parseJSON(path, src)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoGraph, err)
	}
	ks, ok := top["knowledges"].([]any)
	if !ok {
		return nil, fmt.Errorf("%w: %s: compiled ir.json has no knowledges list (found %s)", ErrNoGraph, path, kind(top["knowledges"]))
	}
	g := &Graph{Root: -1}
	g.Package, _ = top["package_name"].(string)
	all := g.collectKnowledge(ks)
	g.collectInfers(top["strategies"], all)
	g.keepDrawn(all)
	g.collectRelations(top["operators"], all)
	if v, ok := top["composes"].([]any); ok && len(v) > 0 {
		g.notef("%s not drawn: a composition carries no likelihood", plural.N(len(v), "composition"))
	}
	g.markDisconnected(path, doc)
	g.closeNotes()
	return g, nil
}

// relationVerbs names each relation operator by the verb that writes it and
// says what it asserts (ok false for another operator).
func relationVerb(operator string) (rv relationDoc, ok bool) {
	switch operator {
	case "complement":
		return relationDoc{"exclusive", "exactly one of %s and %s is true"}, true
	case "equivalence":
		return relationDoc{"equal", "%s and %s are both true or both false"}, true
	case "contradiction":
		return relationDoc{"contradict", "%s and %s are not both true"}, true
	}
	return rv, false
}

// relationDoc is a relation operator's verb and what it asserts.
type relationDoc struct{ verb, meaning string }

// collectRelations reads the IR's operators ({operator, variables,
// conclusion, metadata}) into Relations, after keepDrawn has fixed the
// drawn nodes.
func (g *Graph) collectRelations(v any, all []*Node) {
	if v == nil {
		return
	}
	ops, ok := v.([]any)
	if !ok {
		g.notef("operators is %s, not a list; no relations listed", kind(v))
		return
	}
	byID := map[string]*Node{}
	for _, n := range all {
		byID[n.ID] = n
	}
	drawn := map[*Node]int{}
	for i, n := range g.Nodes {
		drawn[n] = i
	}
	name := func(id string) (string, int) {
		n, ok := byID[id]
		if !ok {
			return id, -1
		}
		if i, ok := drawn[n]; ok {
			return n.Name(), i
		}
		return n.Name(), -1
	}
	for i, o := range ops {
		m, ok := o.(map[string]any)
		if !ok {
			g.notef("operators[%d] is %s, not an object; not listed", i, kind(o))
			continue
		}
		r := &Relation{}
		r.Operator, _ = m["operator"].(string)
		vars, _ := m["variables"].([]any)
		for _, x := range vars {
			id, _ := x.(string)
			nm, idx := name(id)
			r.Members = append(r.Members, Member{Name: nm, Node: idx})
		}
		if c, ok := m["conclusion"].(string); ok && c != "" {
			r.Helper, _ = name(c)
		}
		if md, ok := m["metadata"].(map[string]any); ok {
			r.Action, _ = md["action_label"].(string)
		}
		if rv, ok := relationVerb(r.Operator); ok && len(r.Members) == 2 {
			r.Verb = rv.verb
			r.Meaning = fmt.Sprintf(rv.meaning, r.Members[0].Name, r.Members[1].Name)
		} else {
			names := make([]string, len(r.Members))
			for j, mb := range r.Members {
				names[j] = mb.Name
			}
			r.Meaning = fmt.Sprintf("%s over %s", cmpOr(r.Operator, "an unnamed operator"), strings.Join(names, ", "))
		}
		g.Relations = append(g.Relations, r)
	}
}

// markDisconnected marks the criteria the compiled-IR check GAIA507 finds
// without a reader-flow path to worth, by running that check (one
// implementation: the badge says exactly what nullius lint says).
func (g *Graph) markDisconnected(path string, parsed *jsonloc.Doc) {
	doc, _ := ir.FromDoc(path, parsed)
	if doc == nil || !doc.HasKnowledges {
		return
	}
	diags, _ := ir.Check(doc, ir.CheckOptions{})
	byIndex := map[int]*Node{}
	for _, n := range g.Nodes {
		byIndex[n.kIndex] = n
	}
	for _, d := range diags {
		if d.Code != readerflow.GAIA507.Code {
			continue
		}
		idx, err := strconv.Atoi(strings.TrimPrefix(d.Pointer, "/knowledges/"))
		if err != nil || !strings.HasPrefix(d.Pointer, "/knowledges/") {
			continue
		}
		if n, ok := byIndex[idx]; ok {
			n.Disconnected = true
		}
	}
}

// collectKnowledge reads every knowledge object into a node, keyed by id.
func (g *Graph) collectKnowledge(ks []any) []*Node {
	var all []*Node
	seen := map[string]bool{}
	for i, v := range ks {
		m, ok := v.(map[string]any)
		if !ok {
			g.notef("knowledges[%d] is %s, not an object; not drawn", i, kind(v))
			continue
		}
		id, _ := m["id"].(string)
		if id == "" {
			g.notef("knowledges[%d] has no string id; not drawn", i)
			continue
		}
		if seen[id] {
			g.notef("knowledge id %s repeats; only its first record is drawn", pyfmt.Str(id))
			continue
		}
		seen[id] = true
		n := &Node{ID: id, kIndex: i}
		n.Label, _ = m["label"].(string)
		n.Type, _ = m["type"].(string)
		n.Statement, _ = m["content"].(string)
		n.Exported = m["exported"] == true
		if md, ok := m["metadata"].(map[string]any); ok {
			n.Role, _ = md["reader_role"].(string)
			if p, ok := number(md["prior"]); ok {
				n.Prior = &p
			}
			n.Observations = observations(md["supported_by"])
		}
		all = append(all, n)
	}
	return all
}

// observations returns the rationales of the observation records.
func observations(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, s := range list {
		m, ok := s.(map[string]any)
		if !ok || m["pattern"] != "observation" {
			continue
		}
		r, _ := m["rationale"].(string)
		out = append(out, r)
	}
	return out
}

// collectInfers turns every well-shaped infer strategy into an edge whose
// endpoints index all (remapped by keepDrawn).
func (g *Graph) collectInfers(v any, all []*Node) {
	if v == nil {
		return
	}
	ss, ok := v.([]any)
	if !ok {
		g.notef("strategies is %s, not a list; no updates drawn", kind(v))
		return
	}
	index := map[string]int{}
	for i, n := range all {
		index[n.ID] = i
	}
	other := map[string]int{}
	for i, s := range ss {
		m, ok := s.(map[string]any)
		if !ok {
			g.notef("strategies[%d] is %s, not an object; not drawn", i, kind(s))
			continue
		}
		typ, _ := m["type"].(string)
		if typ != "infer" {
			other[typ]++
			continue
		}
		if e, why := inferEdge(m, index); why != "" {
			g.notef("infer strategy %s %s; not drawn", pyfmt.Str(strategyName(m, i)), why)
		} else {
			g.Edges = append(g.Edges, e)
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(other)) {
		name := typ
		if name == "" {
			name = "(untyped)"
		}
		g.notef("%s not drawn: only infer updates carry a likelihood", plural.N(other[typ], name+" strategy", name+" strategies"))
	}
}

// inferEdge reads one infer strategy: exactly one known premise, a known
// conclusion and two finite probabilities in [0, 1] ordered
// [p_e_given_not_h, p_e_given_h] (gaia-discipline.md §0.2). The reason is
// non-empty when the strategy cannot be drawn.
func inferEdge(m map[string]any, index map[string]int) (*Edge, string) {
	prem, _ := m["premises"].([]any)
	if len(prem) != 1 {
		return nil, fmt.Sprintf("has %d premises (a given= infer carries a conditional table, not one likelihood pair)", len(prem))
	}
	h, _ := prem[0].(string)
	ev, _ := m["conclusion"].(string)
	hi, okH := index[h]
	ei, okE := index[ev]
	if !okH || !okE {
		return nil, "names a premise or conclusion that is not a known knowledge id"
	}
	cp, _ := m["conditional_probabilities"].([]any)
	if len(cp) != 2 {
		return nil, "does not carry exactly two conditional probabilities"
	}
	nh, ok1 := number(cp[0])
	ph, ok2 := number(cp[1])
	if !ok1 || !ok2 || !isProb(nh) || !isProb(ph) {
		return nil, "has conditional probabilities that are not finite numbers in [0, 1]"
	}
	e := &Edge{From: ei, To: hi, PEH: ph, PENH: nh, Rationale: reasoning(m["steps"])}
	e.StrategyID, _ = m["strategy_id"].(string)
	e.Grade = GradeOf(ph, nh)
	return e, ""
}

// reasoning joins the non-blank steps[*].reasoning strings with single
// spaces, as the reference does for GAIA130.
func reasoning(v any) string {
	steps, _ := v.([]any)
	var parts []string
	for _, s := range steps {
		m, _ := s.(map[string]any)
		if r, ok := m["reasoning"].(string); ok && strings.TrimSpace(r) != "" {
			parts = append(parts, strings.TrimSpace(r))
		}
	}
	return strings.Join(parts, " ")
}

// keepDrawn keeps the labelled claims plus every node an edge touches, and
// remaps edge endpoints onto the kept nodes.
func (g *Graph) keepDrawn(all []*Node) {
	used := make([]bool, len(all))
	for _, e := range g.Edges {
		used[e.From], used[e.To] = true, true
	}
	remap := make([]int, len(all))
	hidden := 0
	for i, n := range all {
		if !used[i] && (n.Label == "" || (n.Type != "claim" && n.Type != "")) {
			remap[i] = -1
			hidden++
			continue
		}
		remap[i] = len(g.Nodes)
		g.Nodes = append(g.Nodes, n)
	}
	for _, e := range g.Edges {
		e.From, e.To = remap[e.From], remap[e.To]
	}
	if hidden > 0 {
		g.notef("%s not drawn (notes, questions and unlabelled helper nodes outside any infer update)", plural.N(hidden, "knowledge node"))
	}
	g.assignDOMIDs()
	g.Root = g.findRoot()
}

// assignDOMIDs gives every node a unique, selector-safe element id.
func (g *Graph) assignDOMIDs() {
	taken := map[string]bool{}
	for i, n := range g.Nodes {
		id := fmt.Sprintf("card-n%d", i)
		if safeIDRE.MatchString(n.Label) && !taken["card-"+n.Label] {
			id = "card-" + n.Label
		}
		for taken[id] {
			id += "_"
		}
		taken[id] = true
		n.DOMID = id
	}
}

// findRoot picks the exported worth claim, else the first exported node,
// else the node labelled worth.
func (g *Graph) findRoot() int {
	first := -1
	for i, n := range g.Nodes {
		if n.Exported && n.Label == "worth" {
			return i
		}
		if n.Exported && first < 0 {
			first = i
		}
	}
	if first >= 0 {
		return first
	}
	for i, n := range g.Nodes {
		if n.Label == "worth" {
			return i
		}
	}
	return -1
}

// ApplyBeliefs sets the posteriors from the bytes of a beliefs.json
// ({beliefs: [{knowledge_id, label, belief}]}, §0.3). Entries are matched by
// knowledge_id, else by label. A malformed file is an error: a page that
// silently dropped posteriors would mislead.
func (g *Graph) ApplyBeliefs(path string, src []byte) error {
	_, top, err := parseJSON(path, src)
	if err != nil {
		return err
	}
	list, ok := top["beliefs"].([]any)
	if !ok {
		return fmt.Errorf("%s: beliefs is %s, want a list of {knowledge_id, label, belief}", path, kind(top["beliefs"]))
	}
	byID, byLabel := map[string]float64{}, map[string]float64{}
	for i, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: beliefs[%d] is %s, want an object", path, i, kind(v))
		}
		b, ok := number(m["belief"])
		if !ok || !isProb(b) {
			return fmt.Errorf("%s: beliefs[%d].belief is %s, want a number in [0, 1]", path, i, pyfmt.Describe(m["belief"]))
		}
		if id, ok := m["knowledge_id"].(string); ok && id != "" {
			byID[id] = b
		}
		if l, ok := m["label"].(string); ok && l != "" {
			byLabel[l] = b
		}
	}
	g.HasBeliefs = true
	for _, n := range g.Nodes {
		b, ok := byID[n.ID]
		if !ok && n.Label != "" {
			b, ok = byLabel[n.Label]
		}
		if ok {
			n.Posterior = &b
		}
	}
	return nil
}

// maxNotes bounds the notes a hostile or broken IR can produce; the rest
// are counted in one closing note.
const maxNotes = 100

func (g *Graph) notef(format string, args ...any) {
	if len(g.Notes) >= maxNotes {
		g.moreNotes++
		return
	}
	g.Notes = append(g.Notes, fmt.Sprintf(format, args...))
}

// closeNotes appends the count of notes left out, once.
func (g *Graph) closeNotes() {
	if g.moreNotes > 0 {
		g.Notes = append(g.Notes, fmt.Sprintf("... and %d more notes like these", g.moreNotes))
		g.moreNotes = 0
	}
}

// number accepts JSON numbers only (never booleans or numeric strings).
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	case float64:
		return x, !math.IsInf(x, 0) && !math.IsNaN(x)
	}
	return 0, false
}

func isProb(f float64) bool { return f >= 0 && f <= 1 }

// kind names a decoded JSON value's type for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null or missing"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

func strategyName(m map[string]any, i int) string {
	if id, ok := m["strategy_id"].(string); ok && id != "" {
		return id
	}
	return fmt.Sprintf("infer[%d]", i)
}
