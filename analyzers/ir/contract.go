package ir

import (
	"fmt"
	"slices"
	"strings"

	gradesrules "github.com/nullius-dev/nullius/analyzers/grades"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// RootLabel is the label of the exported conclusion.
const RootLabel = "worth"

// ReasoningLabels are the labels that must each name exactly one knowledge,
// in the order the reference checks them (§2.4).
var reasoningLabels = []string{"worth", "tension_resolution", "downstream_reach", "mechanism_insight", "testability_timing", "verification_cost"}

// ReasoningLabels returns the required reasoning-claim labels in check order.
func ReasoningLabels() []string { return slices.Clone(reasoningLabels) }

// checker runs the contract checks of one loaded IR.
type checker struct {
	*reporter
	ir   *IR
	g    *Graph
	root *Knowledge // the worth root used for graph analysis, nil if none
	// texts caches each strategy's joined reasoning so type findings about
	// its steps are reported once.
	texts map[*Strategy]string
}

// exportedRoot is GAIA110 (§2.3). It returns the root to analyse the graph
// against: the valid exported root, or else the one knowledge labelled
// worth so the remaining checks still run.
func (c *checker) exportedRoot() *Knowledge {
	var exported []*Knowledge
	for _, k := range c.ir.All {
		if k.Exported {
			exported = append(exported, k)
		}
	}
	if len(exported) == 1 && exported[0].Label == RootLabel && exported[0].Type == "claim" {
		return exported[0]
	}
	names := make([]string, len(exported))
	for i, k := range exported {
		names[i] = cmpOr(k.Label, cmpOr(k.ID, "(unlabelled)"))
	}
	worths := c.ir.labelled(RootLabel)
	var at *Knowledge
	ptr := "/knowledges"
	switch {
	case len(exported) == 0 && len(worths) > 0:
		at, ptr = worths[0], worths[0].Ptr+"/exported"
	case len(exported) == 1 && exported[0].Label == RootLabel:
		at, ptr = exported[0], exported[0].Ptr+"/type"
	case len(exported) > 0:
		// Point at the first exported node that should not be exported.
		at = exported[len(exported)-1]
		for _, k := range exported {
			if k.Label != RootLabel {
				at = k
				break
			}
		}
		ptr = at.Ptr + "/exported"
	}
	c.atKnowledge(codeExportedRoot, at, ptr,
		"idea-posterior package contract violation: expected exactly one exported conclusion labelled 'worth', but found exported nodes %s. Migrate the package module to __all__ = [\"worth\"], then recompile",
		pyfmt.Value(names))
	if len(worths) == 1 {
		return worths[0]
	}
	return nil
}

// reasoningClaims is GAIA120–122 (§2.4), with the W10 normalization.
func (c *checker) reasoningClaims() {
	for _, label := range reasoningLabels {
		ks := c.ir.labelled(label)
		if len(ks) != 1 {
			ptr := "/knowledges"
			var at *Knowledge
			if len(ks) > 1 {
				at, ptr = ks[1], ks[1].Ptr+"/label"
			}
			c.atKnowledge(codeCardinality, at, ptr,
				"expected exactly one reasoning claim labelled %s, found %d; bind it to a module variable of that name (title= does not set the label)", pyfmt.Str(label), len(ks))
			continue
		}
		k := ks[0]
		content, isStr := k.Obj["content"].(string)
		if _, present := k.Obj["content"]; present && !isStr && k.Obj["content"] != nil {
			c.at(codeWrongType, k.Ptr+"/content", "content must be a string, found %s", pyfmt.Describe(k.Obj["content"]))
		}
		if sentinel.Strip(content) == "" {
			c.atKnowledge(codeEmptyClaim, k, k.Ptr+"/content",
				"reasoning claim %s has empty content; state its idea-specific proposition", pyfmt.Str(label))
			continue
		}
		if stock, ok := sentinel.StockSentence(sentinel.Strip(content)); ok {
			c.atKnowledge(codeScaffoldText, k, k.Ptr+"/content",
				"reasoning claim %s still carries generic axis text %s (scaffold stock sentence %s, compared ignoring case, spacing and final punctuation); replace it with an idea-specific statement",
				pyfmt.Str(label), pyfmt.Str(sentinel.Strip(content)), pyfmt.Str(stock))
		}
	}
}

// reasoning joins the non-blank, stripped `steps[*].reasoning` strings of a
// strategy with single spaces (reference `require_authored_infer_rationales`).
func (c *checker) reasoning(s *Strategy) string {
	if text, ok := c.texts[s]; ok {
		return text
	}
	var parts []string
	for j, step := range c.optList(s.Obj, s.Ptr, "steps") {
		obj, ok := step.(map[string]any)
		if !ok {
			c.at(codeWrongType, fmt.Sprintf("%s/steps/%d", s.Ptr, j), "step must be an object, found %s", jsonType(step))
			continue
		}
		text := c.optString(obj, fmt.Sprintf("%s/steps/%d", s.Ptr, j), "reasoning")
		if t := sentinel.Strip(text); t != "" {
			parts = append(parts, t)
		}
	}
	c.texts[s] = strings.Join(parts, " ")
	return c.texts[s]
}

// readerReasoning is GAIA130 (§2.5).
func (c *checker) readerReasoning(s *Strategy, text string) {
	if _, ok := sentinel.ReaderReasoning(text); ok {
		return
	}
	ptr := s.Ptr + "/steps"
	if _, ok := s.Obj["steps"]; !ok {
		ptr = s.Ptr
	}
	name := s.ID
	if name == "" {
		name = fmt.Sprintf("infer[%d]", s.Index)
	}
	c.atAction(codeReaderReasoning, s.ActionLabel(), ptr,
		"idea-posterior package contract violation: infer strategy %s has no explicit authored reader reasoning. Migrate its literal rationale to 'reader_reasoning: <why the evidence changes the hypothesis> anchor: <source>', then recompile",
		pyfmt.Str(name))
}

// inferShape is GAIA140 and GAIA508 (§2.6 step 1, W13). It returns the
// hypothesis and evidence ids and the [nh, h] pair when the shape is valid.
func (c *checker) inferShape(s *Strategy) (hyp, ev string, cp [2]float64, ok bool) {
	name := cmpOr(s.ID, "(unlabelled infer)")
	bad := func(ptr, detail string, args ...any) {
		c.atAction(codeInferShape, s.ActionLabel(), ptr,
			"compiled infer strategy %s must contain one known string premise, one known string conclusion, and two finite conditional probabilities in [0, 1]; %s",
			pyfmt.Str(name), fmt.Sprintf(detail, args...))
	}
	premises, isList := s.Obj["premises"].([]any)
	if isList && len(premises) > 1 {
		c.atAction(gradesrules.GAIA508, s.ActionLabel(), s.Ptr+"/premises",
			"compiled infer strategy %s conditions on %d given= premises; conditional likelihoods are not supported by the idea-posterior contract (one hypothesis, two graded probabilities): fold the condition into the hypothesis claim or drop given=",
			pyfmt.Str(name), len(premises)-1)
		return "", "", cp, false
	}
	if !isList || len(premises) != 1 {
		bad(s.Ptr+"/premises", "premises is %s", describeMember(s.Obj, "premises"))
		return "", "", cp, false
	}
	hyp, isStr := premises[0].(string)
	if !isStr || c.ir.ByID[hyp] == nil {
		bad(s.Ptr+"/premises/0", "premise %s is not a known knowledge id", pyfmt.Describe(premises[0]))
		return "", "", cp, false
	}
	ev, isStr = s.Obj["conclusion"].(string)
	if !isStr || c.ir.ByID[ev] == nil {
		bad(s.Ptr+"/conclusion", "conclusion %s is not a known knowledge id", describeMember(s.Obj, "conclusion"))
		return "", "", cp, false
	}
	probs, isList := s.Obj["conditional_probabilities"].([]any)
	if !isList || len(probs) != 2 {
		bad(s.Ptr+"/conditional_probabilities", "conditional_probabilities is %s", describeMember(s.Obj, "conditional_probabilities"))
		return "", "", cp, false
	}
	for i, v := range probs {
		f, isNum := number(v)
		if !isNum || !finiteUnit(f) {
			bad(fmt.Sprintf("%s/conditional_probabilities/%d", s.Ptr, i), "conditional_probabilities[%d] is %s", i, pyfmt.Describe(v))
			return "", "", cp, false
		}
		cp[i] = f
	}
	return hyp, ev, cp, true
}

// buildGraph runs GAIA130/140/508 over every infer and adds the edges of the
// well-formed ones, then GAIA141 and the path counts.
func (c *checker) buildGraph() {
	for _, s := range c.ir.Strategies {
		if s.Type != "infer" {
			continue
		}
		c.readerReasoning(s, c.reasoning(s))
		if !c.ir.HasKnowledges {
			continue // GAIA102 already explains why no id can be known
		}
		if hyp, ev, _, ok := c.inferShape(s); ok {
			c.g.Edges[ev] = append(c.g.Edges[ev], Edge{To: hyp, Strategy: s})
		}
	}
	order := make([]string, len(c.ir.Knowledges))
	for i, k := range c.ir.Knowledges {
		order[i] = k.ID
	}
	back, cycle, post := c.g.findCycle(order)
	if back != nil {
		c.g.Cyclic = true
		c.atAction(codeCycle, back.Strategy.ActionLabel(), back.Strategy.Ptr,
			"compiled reader evidence-flow graph contains a cycle %s (closed by infer strategy %s); evidence must flow one way toward worth: remove one of these infers",
			strings.Join(cycle, " -> "), pyfmt.Str(back.Strategy.Name()))
		return
	}
	if c.root != nil {
		c.g.countPaths(post)
	}
}

// observationSupports returns the observation supports of k with their
// pointers, reporting wrongly typed entries.
func (c *checker) observationSupports(k *Knowledge) (sups []map[string]any, ptrs []string) {
	if k.Meta == nil {
		return nil, nil
	}
	mptr := k.Ptr + "/metadata"
	for j, v := range c.optList(k.Meta, mptr, "supported_by") {
		ptr := fmt.Sprintf("%s/supported_by/%d", mptr, j)
		obj, ok := v.(map[string]any)
		if !ok {
			c.at(codeWrongType, ptr, "supported_by entry must be an object, found %s", jsonType(v))
			continue
		}
		if obj["pattern"] == "observation" {
			sups = append(sups, obj)
			ptrs = append(ptrs, ptr)
		}
	}
	return sups, ptrs
}

// auditObservations is GAIA142–147 (§2.6 steps 4–5) plus the observation
// half of GAIA151.
func (c *checker) auditObservations() {
	var records []Observation
	recordPtr := map[string]string{}
	for _, k := range c.ir.Knowledges {
		sups, ptrs := c.observationSupports(k)
		if len(sups) == 0 {
			continue
		}
		if len(sups) > 1 {
			c.atAction(codeAmbiguousObs, actionOf(sups[1]), ptrs[1],
				"observed knowledge %s must carry exactly one observation record so its evidence family is unambiguous, found %d; merge the observations into one composite observation",
				pyfmt.Str(k.ID), len(sups))
			continue
		}
		sup, ptr := sups[0], ptrs[0]
		text := c.optString(sup, ptr, "rationale")
		fam, famOK := sentinel.ParseFamily(text)
		if !famOK {
			c.atAction(codeObsFamily, actionOf(sup), ptr+"/rationale",
				"observed knowledge %s: every observe rationale must declare exactly one 'evidence_family: <stable-token>' and exactly one 'correlation_model: single' before its anchor. Gaia 0.5.0a4 does not encode a joint likelihood for correlated observations; collapse a correlated family into one composite observation",
				pyfmt.Str(k.ID))
		}
		if !nonEmptyAnchor(text) {
			c.atAction(codeObsAnchor, actionOf(sup), ptr+"/rationale",
				"observed knowledge %s: every observe rationale must end with a non-empty anchor: clause naming its source", pyfmt.Str(k.ID))
		} else if !sentinel.AnchorTrailing(text) {
			c.atAction(codeTrailingAnchor, actionOf(sup), ptr+"/rationale",
				"observed knowledge %s rationale does not end with an 'anchor: <reference>' note on its last line", pyfmt.Str(k.ID))
		}
		rec := Observation{ID: k.ID, Family: fam.Token, CorrelationModel: fam.Model}
		if c.g.PathCount != nil {
			c.fanout(k, &rec)
		}
		if famOK {
			records = append(records, rec)
			recordPtr[k.ID] = ptr + "/rationale"
		}
	}
	c.familyReuse(records, recordPtr)
}

// actionOf returns a support's action_label, "" when absent.
func actionOf(sup map[string]any) string { s, _ := sup["action_label"].(string); return s }

// fanout is GAIA145 then GAIA146 for one observed knowledge.
func (c *checker) fanout(k *Knowledge, rec *Observation) {
	var toRoot []Edge
	for _, e := range c.g.Edges[k.ID] {
		if c.g.reachesRoot(e.To) {
			toRoot = append(toRoot, e)
		}
	}
	if len(toRoot) > 0 {
		rec.RootTarget = toRoot[0].To
	}
	rec.PathCount = c.g.pathCount(k.ID)
	if len(toRoot) > 1 {
		s := toRoot[1].Strategy
		c.atAction(codeFanout, s.ActionLabel(), s.Ptr,
			"observed knowledge %s supplies %d independent likelihood updates on paths to worth. Model one shared dependency update, then propagate that claim to criteria",
			pyfmt.Str(k.ID), len(toRoot))
		return
	}
	if rec.PathCount > 1 {
		c.atKnowledge(codeMultipath, k, k.Ptr,
			"observed knowledge %s reaches worth through more than one likelihood-bearing path. Collapse the evidence into one criterion path; branching one observation into several worth updates counts the same evidence more than once",
			pyfmt.Str(k.ID))
	}
}

// familyReuse is GAIA147 and fills the records' reuse counts.
func (c *checker) familyReuse(records []Observation, ptrs map[string]string) {
	var families []string
	members := map[string][]int{}
	for i, r := range records {
		if _, seen := members[r.Family]; !seen {
			families = append(families, r.Family)
		}
		members[r.Family] = append(members[r.Family], i)
	}
	for _, fam := range families {
		var connected []string
		for _, i := range members[fam] {
			records[i].ReuseCount = len(members[fam])
			if records[i].Connected() {
				connected = append(connected, records[i].ID)
			}
		}
		if len(connected) > 1 {
			k := c.ir.ByID[connected[1]]
			c.atKnowledge(codeFamilyReused, k, ptrs[connected[1]],
				"evidence family %s is reused by observed nodes %s on paths to worth. Gaia 0.5.0a4 would multiply those likelihoods even if the arrows meet at one claim; collapse the correlated material into one composite observation with one likelihood update",
				pyfmt.Str(fam), pyfmt.Value(connected))
		}
	}
	c.g.Observations = records
}

// Check runs every IR check on a loaded document: the reference contract
// (GAIA110, 120–122, 130, 140–147), the backstop (GAIA150–154) and the new
// IR rules (GAIA501, 502, 506, 507, 508). Diagnostics are sorted and
// deduplicated; the Graph is never nil.
func Check(ir *IR, opts CheckOptions) ([]diag.Diagnostic, *Graph) {
	c := &checker{
		reporter: &reporter{path: ir.Path, doc: ir.Doc, src: opts.SourceMap},
		ir:       ir,
		g:        &Graph{Edges: map[string][]Edge{}},
		texts:    map[*Strategy]string{},
	}
	if ir.HasKnowledges {
		c.root = c.exportedRoot()
		if c.root != nil && c.ir.ByID[c.root.ID] != c.root {
			c.root = nil // an invalid or repeated id (GAIA103): no graph root
		}
		if c.root != nil {
			c.g.RootID = c.root.ID
		}
		c.reasoningClaims()
	}
	c.buildGraph()
	c.auditObservations()
	c.backstop()
	return diag.SortDedup(c.out), c.g
}
