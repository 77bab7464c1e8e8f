package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/coupling"
	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/analyzers/priors"
	"github.com/nullius-dev/nullius/analyzers/readerflow"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// grades are the six allowed compiled pairs [p_e_given_not_h, p_e_given_h]
// (M7 in storage order, W6).
var grades = [][2]float64{
	{0.25, 0.75}, {0.09, 0.9}, {0.03, 0.9},
	{0.75, 0.25}, {0.9, 0.09}, {0.9, 0.03},
}

// strongRaise is the compiled form of p_e_given_h=0.90, p_e_given_not_h=0.03.
var strongRaise = [2]float64{0.03, 0.9}

// Cromwell bounds Gaia applies to register_prior values.
const (
	priorMin = 0.001
	priorMax = 0.999
)

// observationPin is the prior Gaia gives an observed claim (1 − 0.001).
const observationPin = 0.999

// backstop runs the IR mirror of the static rules (GAIA150–154, W6) and the
// new IR rules GAIA501, 502, 506 and 507. Nothing here is downgradable.
func (c *checker) backstop() {
	for _, s := range c.ir.Strategies {
		if s.Type == "infer" {
			c.inferBackstop(s)
		}
	}
	for _, k := range c.ir.Knowledges {
		c.priorRecords(k)
	}
	if c.root != nil {
		c.worthPrior(c.root)
	}
	if c.root != nil && !c.g.Cyclic {
		c.ungradedCoupling()
		c.disconnectedCriteria()
	}
}

// inferBackstop is GAIA150–153 for one compiled infer.
func (c *checker) inferBackstop(s *Strategy) {
	text := c.reasoning(s)
	name := pyfmt.Str(s.Name())
	if !sentinel.AnchorTrailing(text) {
		c.atAction(codeTrailingAnchor, s.ActionLabel(), s.Ptr+"/steps",
			"compiled infer %s reasoning does not end with an 'anchor: <reference>' note on its last line", name)
	}
	if v, ok := s.Meta["p_e_given_not_h_defaulted"]; ok && v != false && v != nil {
		c.atAction(codeOffGrade, s.ActionLabel(), s.Ptr+"/metadata/p_e_given_not_h_defaulted",
			"compiled infer %s has p_e_given_not_h defaulted to 0.5 by Gaia; write both probabilities as literals of one grade: 3 (0.75/0.25), 10 (0.90/0.09), 30 (0.90/0.03), or their reversals", name)
	}
	cp, ok := c.pair(s)
	if !ok {
		return // GAIA140/508 already explain the shape
	}
	if !isGrade(cp) {
		c.atAction(codeOffGrade, s.ActionLabel(), s.Ptr+"/conditional_probabilities",
			"compiled infer %s uses off-grade pair (%s, %s) as (p_e_given_h, p_e_given_not_h); allowed grades are 3 (0.75/0.25), 10 (0.90/0.09), 30 (0.90/0.03), or their reversals",
			name, fmtProb(cp[1]), fmtProb(cp[0]))
	}
	hyp := c.ir.ByID[premise(s)]
	if hyp == nil {
		return
	}
	if cp == strongRaise && hyp.is("downstream_reach") {
		if why := sentinel.DomainsProblem(text); why != "" {
			c.atAction(codeReachDomains, s.ActionLabel(), s.Ptr+"/steps",
				"compiled infer %s: strong-grade downstream_reach update without a 'domains: <one>; <two>; <three>' clause naming at least three independently anchored phenomenon domains before its anchor (%s)", name, why)
		}
	}
	if cp[1] > cp[0] && hyp.is("tension_resolution") {
		if why := sentinel.ResolutionProblem(text); why != "" {
			c.atAction(codeTensionClass, s.ActionLabel(), s.Ptr+"/steps",
				"compiled infer %s: a raising tension_resolution update must classify idea-specific resolution evidence before its anchor with 'resolution_evidence: mechanism', 'resolution_evidence: discriminating_test' or 'resolution_evidence: demonstrated_partial_resolution' (%s); evidence that a tension exists, or that a check is planned, is not resolution", name, why)
		}
	}
}

// nonEmptyAnchor reports whether the text after the first `anchor:` is not
// blank (GAIA144). Despite the reference wording ("must end with"), the
// trailing position is checked separately (GAIA151).
func nonEmptyAnchor(s string) bool {
	_, after, ok := strings.Cut(s, sentinel.AnchorKey)
	return ok && sentinel.Strip(after) != ""
}

// is reports whether the knowledge is the named criterion by label or title
// (W3: on the IR the identity is exact, whatever the source spelled).
func (k *Knowledge) is(name string) bool { return k.Label == name || k.Title == name }

// pair returns the [nh, h] pair of a single-premise, two-probability infer
// with valid numbers; ok is false for any other shape.
func (c *checker) pair(s *Strategy) (cp [2]float64, ok bool) {
	premises, _ := s.Obj["premises"].([]any)
	probs, _ := s.Obj["conditional_probabilities"].([]any)
	if len(premises) != 1 || len(probs) != 2 {
		return cp, false
	}
	for i, v := range probs {
		f, isNum := number(v)
		if !isNum || !finiteUnit(f) {
			return cp, false
		}
		cp[i] = f
	}
	return cp, true
}

func premise(s *Strategy) string {
	premises, _ := s.Obj["premises"].([]any)
	if len(premises) == 0 {
		return ""
	}
	id, _ := premises[0].(string)
	return id
}

func isGrade(cp [2]float64) bool {
	for _, g := range grades {
		if cp == g {
			return true
		}
	}
	return false
}

// fmtProb prints a probability the way Python's repr would (0.9, 0.09, 1e-05).
func fmtProb(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// priorRecords is GAIA154 and the IR side of GAIA501 for one knowledge.
func (c *checker) priorRecords(k *Knowledge) {
	if k.Meta == nil {
		return
	}
	mptr := k.Ptr + "/metadata"
	for j, v := range c.optList(k.Meta, mptr, "prior_records") {
		ptr := fmt.Sprintf("%s/prior_records/%d", mptr, j)
		rec, ok := v.(map[string]any)
		if !ok {
			c.at(codeWrongType, ptr, "prior record must be an object, found %s", jsonType(v))
			continue
		}
		source := c.optString(rec, ptr, "source_id")
		if source == "claim_inline" {
			c.atKnowledge(priors.GAIA501, k, ptr+"/source_id",
				"knowledge %s carries an inline prior (claim(prior=...), recorded as source 'claim_inline') with no authored justification or anchor; use register_prior(..., justification=\"... anchor: <source>\") instead", pyfmt.Str(k.Name()))
		} else if !sentinel.AnchorTrailing(c.optString(rec, ptr, "justification")) {
			c.atKnowledge(codePriorRecord, k, ptr+"/justification",
				"register_prior justification of %s does not end with an 'anchor: <reference>' note", pyfmt.Str(k.Name()))
		}
		val, isNum := number(rec["value"])
		if _, isBool := rec["value"].(bool); isBool || !isNum || !(val >= priorMin && val <= priorMax) {
			c.atKnowledge(codePriorRecord, k, ptr+"/value",
				"register_prior value of %s is %s; it must be a number within Gaia's Cromwell bounds [0.001, 0.999]", pyfmt.Str(k.Name()), describeMember(rec, "value"))
		}
	}
}

// worthPrior is the IR side of GAIA506 (W8): the root gets no prior.
func (c *checker) worthPrior(k *Knowledge) {
	if k.Meta == nil {
		return
	}
	if recs, _ := k.Meta["prior_records"].([]any); len(recs) > 0 {
		c.atKnowledge(priors.GAIA506, k, k.Ptr+"/metadata/prior_records",
			"the exported root %s carries %d prior record(s); worth gets no prior, its belief must come from graded evidence only", pyfmt.Str(k.Name()), len(recs))
		return
	}
	v, present := k.Meta["prior"]
	if !present || v == nil {
		return
	}
	if f, ok := number(v); ok && f == observationPin {
		if sups, _ := c.observationSupports(k); len(sups) > 0 {
			return // the observation pin, not an authored prior
		}
	}
	c.atKnowledge(priors.GAIA506, k, k.Ptr+"/metadata/prior",
		"the exported root %s carries prior %s; worth gets no prior, its belief must come from graded evidence only", pyfmt.Str(k.Name()), pyfmt.Describe(v))
}

// ungradedCoupling is the IR side of GAIA502 (W2): a non-infer strategy or
// an operator touching worth or a knowledge with a reader-flow path to
// worth moves the posterior with no likelihood grade, invisibly to the
// evidence-family audit.
func (c *checker) ungradedCoupling() {
	for _, s := range c.ir.Strategies {
		if s.Type == "infer" {
			continue
		}
		if id, ok := c.connectedRef(s.Obj); ok {
			c.atAction(coupling.GAIA502, s.ActionLabel(), s.Ptr,
				"compiled %s strategy %s couples %s to worth without a likelihood grade; only graded infer updates may move worth: replace it with an infer at one of the three grades or keep it off every path to worth",
				cmpOr(s.Type, "untyped"), pyfmt.Str(s.Name()), pyfmt.Str(id))
		}
	}
	// Gaia's LocalCanonicalGraph also holds operators (equivalence,
	// contradiction, complement, ...: `operator`, `variables`, `conclusion`)
	// and composes (`inputs`, `conclusion`).
	for _, list := range []string{"operators", "composes"} {
		items, _ := c.ir.Root[list].([]any)
		for i, v := range items {
			op, ok := v.(map[string]any)
			if !ok {
				continue
			}
			if id, ok := c.connectedRef(op); ok {
				typ, _ := op["operator"].(string)
				if typ == "" {
					typ, _ = op["type"].(string)
				}
				meta, _ := op["metadata"].(map[string]any)
				action, _ := meta["action_label"].(string)
				c.atAction(coupling.GAIA502, action, fmt.Sprintf("/%s/%d", list, i),
					"compiled %s %s couples %s to worth without a likelihood grade; only graded infer updates may move worth: keep structural relations off every path to worth",
					cmpOr(typ, "untyped"), strings.TrimSuffix(list, "s"), pyfmt.Str(id))
			}
		}
	}
}

// connectedRef returns the first knowledge id referenced by an element's
// conclusion, premises, variables or inputs that is worth or reaches it.
func (c *checker) connectedRef(obj map[string]any) (string, bool) {
	var ids []any
	for _, key := range []string{"conclusion", "premises", "variables", "inputs"} {
		switch v := obj[key].(type) {
		case string:
			ids = append(ids, v)
		case []any:
			ids = append(ids, v...)
		}
	}
	for _, v := range ids {
		if id, ok := v.(string); ok && c.g.reachesRoot(id) {
			return id, true
		}
	}
	return "", false
}

// disconnectedCriteria is GAIA507 (W10): each required criterion should
// have a reader-flow path to worth.
func (c *checker) disconnectedCriteria() {
	for _, label := range reasoningLabels[1:] {
		ks := c.ir.labelled(label)
		if len(ks) != 1 || c.g.reachesRoot(ks[0].ID) {
			continue
		}
		c.atKnowledge(readerflow.GAIA507, ks[0], ks[0].Ptr,
			"criterion %s has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth (or a criterion that reaches worth)", pyfmt.Str(label))
	}
}
