package match

import (
	"fmt"
	"github.com/nullius-dev/nullius/internal/digest"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// The key sets of pairwise_match_v1 (§6.5 rules 2, 3 and 18).
func artifactRequired() []string {
	return []string{"match_id", "campaign_id", "idea_a_node_id", "idea_b_node_id", "criteria_commitment",
		"panel", "panel_independence", "independent_runners", "outcome", "observation_write"}
}

func artifactOptional() []string { return []string{"rationale", "statement_binding"} }

func panelEntryKeys() []string {
	return []string{"reviewer_family", "model", "vote", "anchored_arguments", "unanchored_arguments_discarded"}
}

// artifactCheck accumulates problems for one pairwise_match_v1 document.
type artifactCheck struct {
	ps problems
}

func (c *artifactCheck) add(code *diag.Rule, ptr, format string, args ...any) {
	c.ps.add(code, ptr, format, args...)
}

// ValidateMatch applies every rule of §6.5, in the reference's order, and
// returns all problems (rule 1 alone stops early).
func ValidateMatch(v any) []Problem {
	obj, ok := v.(matchproto.Object)
	if !ok {
		return []Problem{{CodeArtifactShape, "", "artifact is not a JSON object"}}
	}
	c := &artifactCheck{}
	if unk := unknownKeys(obj, append(artifactRequired(), artifactOptional()...)); len(unk) > 0 {
		c.add(CodeArtifactShape, "", "unknown top-level keys: %s", pyfmt.Value(unk))
	}
	missing := []string{}
	for _, k := range artifactRequired() {
		if !obj.Has(k) {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	for _, k := range missing {
		c.add(CodeArtifactShape, "", "missing top-level key: %s", k)
	}
	for _, k := range []string{"match_id", "campaign_id", "idea_a_node_id", "idea_b_node_id"} {
		if val, ok := obj.Get(k); ok && !isShortID(val) {
			c.add(CodeShortID, matchproto.Ptr(k), "%s is not an engine short id (%s): %s", k, matchproto.ShortIDRE.String(), pyfmt.Short(val))
		}
	}
	ia, _ := obj.Get("idea_a_node_id")
	ib, _ := obj.Get("idea_b_node_id")
	if isShortID(ia) && ia == ib {
		c.add(CodeSameNode, matchproto.Ptr("idea_b_node_id"), "idea_a_node_id equals idea_b_node_id (%s); a match compares two different ideas", pyfmt.Short(ia))
	}
	var committedAt *time.Time
	if cc, ok := obj.Get("criteria_commitment"); ok {
		cps := ValidateCommitment(cc, matchproto.Ptr("criteria_commitment"))
		for _, p := range cps {
			c.ps.put(p)
		}
		if len(cps) == 0 {
			t, _ := matchproto.ParseTime(mustGet(cc.(matchproto.Object), "committed_at"))
			committedAt = &t
		}
	}
	mode, present := c.independence(obj)
	votes := c.panel(obj, mode, present)
	if ir, ok := obj.Get("independent_runners"); ok {
		b, isBool := ir.(bool)
		if !isBool {
			c.add(CodeRunners, matchproto.Ptr("independent_runners"), "independent_runners must be a boolean, got %s", pyfmt.Short(ir))
		} else if b && mode == "single_family" {
			c.add(CodeRunners, matchproto.Ptr("independent_runners"), "a single_family panel cannot record independent_runners=true; native subagent seats are never independent runners")
		}
	}
	c.outcome(obj, votes, committedAt)
	c.observation(obj)
	if r, ok := obj.Get("rationale"); ok && !nonBlank(r) {
		c.add(CodeRationale, matchproto.Ptr("rationale"), "rationale, when present, must be a non-empty string")
	}
	c.binding(obj)
	return c.ps.all()
}

func mustGet(o matchproto.Object, k string) any { v, _ := o.Get(k); return v }

// independence checks rules 7-16 and returns the mode ("" when invalid) and
// the valid families_present list (nil when invalid).
func (c *artifactCheck) independence(obj matchproto.Object) (string, []string) {
	raw, ok := obj.Get("panel_independence")
	if !ok {
		return "", nil
	}
	pi, isObj := raw.(matchproto.Object)
	if !isObj {
		c.add(CodeIndependence, matchproto.Ptr("panel_independence"), "panel_independence must be an object")
		return "", nil
	}
	keys := []string{"mode", "families_present", "families_absent"}
	if unk := unknownKeys(pi, keys); len(unk) > 0 {
		c.add(CodeIndependence, matchproto.Ptr("panel_independence"), "panel_independence has unknown keys: %s", pyfmt.Value(unk))
	}
	for _, k := range keys {
		if !pi.Has(k) {
			c.add(CodeIndependence, matchproto.Ptr("panel_independence"), "panel_independence is missing key: %s", k)
		}
	}
	mode := ""
	if m, ok := pi.Get("mode"); ok {
		if m == "cross_family" || m == "single_family" {
			mode = m.(string)
		} else {
			c.add(CodeIndependence, matchproto.Ptr("panel_independence", "mode"), "panel_independence.mode must be one of cross_family, single_family, got %s", pyfmt.Short(m))
		}
	}
	var present []string
	if fp, ok := pi.Get("families_present"); ok {
		list, isList := fp.([]any)
		switch {
		case !isList || len(list) == 0:
			c.add(CodeIndependence, matchproto.Ptr("panel_independence", "families_present"), "panel_independence.families_present must be a non-empty array")
		case !slices.ContainsFunc(list, func(v any) bool { return !isLabel(v) }):
			seen := map[string]bool{}
			dup := false
			for _, v := range list {
				s := v.(string)
				if seen[s] {
					dup = true
					c.add(CodeIndependence, matchproto.Ptr("panel_independence", "families_present"), "panel_independence.families_present lists a family twice: %s", pyfmt.Str(s))
				}
				seen[s] = true
				present = append(present, s)
			}
			if dup {
				present = nil
			}
		default:
			c.add(CodeIndependence, matchproto.Ptr("panel_independence", "families_present"), "panel_independence.families_present entries must be family labels matching %s", matchproto.LabelPattern)
		}
	}
	if fa, ok := pi.Get("families_absent"); ok {
		list, isList := fa.([]any)
		if !isList {
			c.add(CodeIndependence, matchproto.Ptr("panel_independence", "families_absent"), "panel_independence.families_absent must be an array")
		}
		for i, it := range list {
			p := matchproto.Ptr("panel_independence", "families_absent", i)
			item, isObj := it.(matchproto.Object)
			if !isObj {
				c.add(CodeIndependence, p, "panel_independence.families_absent[%d] must be an object", i)
				continue
			}
			if unk := unknownKeys(item, []string{"family", "reason"}); len(unk) > 0 {
				c.add(CodeIndependence, p, "panel_independence.families_absent[%d] has unknown keys: %s", i, pyfmt.Value(unk))
			}
			fam, _ := item.Get("family")
			if !isLabel(fam) {
				c.add(CodeIndependence, p+"/family", "panel_independence.families_absent[%d].family must be a family label matching %s", i, matchproto.LabelPattern)
			} else if slices.Contains(present, fam.(string)) {
				c.add(CodeIndependence, p+"/family", "panel_independence lists %s as both present and absent", fam)
			}
			if r, _ := item.Get("reason"); !nonBlank(r) {
				c.add(CodeIndependence, p, "panel_independence.families_absent[%d].reason must be a non-empty string", i)
			}
		}
	}
	return mode, present
}

// panel checks rules 17-26 and returns the valid votes.
func (c *artifactCheck) panel(obj matchproto.Object, mode string, present []string) []string {
	raw, ok := obj.Get("panel")
	if !ok {
		return nil
	}
	list, isList := raw.([]any)
	if !isList || len(list) == 0 {
		c.add(CodePanelEntry, matchproto.Ptr("panel"), "panel must be a non-empty array")
		return nil
	}
	t := &panelTally{mode: mode, famIdx: map[string]int{}, seats: map[int64]bool{}}
	for i, it := range list {
		c.entry(t, i, it)
	}
	c.composition(mode, len(list), t.fams, present)
	return t.votes
}

// panelTally is what the entry checks accumulate across the panel.
type panelTally struct {
	mode        string
	votes, fams []string
	famIdx      map[string]int
	seats       map[int64]bool
}

// entry checks one panel entry (rules 18-24 and the per-entry parts of 25
// and 26).
func (c *artifactCheck) entry(t *panelTally, i int, it any) {
	p := matchproto.Ptr("panel", i)
	e, isObj := it.(matchproto.Object)
	if !isObj {
		c.add(CodePanelEntry, p, "panel[%d] must be an object", i)
		return
	}
	if unk := unknownKeys(e, append(panelEntryKeys(), "seat")); len(unk) > 0 {
		c.add(CodePanelEntry, p, "panel[%d] has unknown keys: %s", i, strings.Join(unk, ", "))
	}
	for _, k := range panelEntryKeys() {
		if !e.Has(k) {
			c.add(CodePanelEntry, p, "panel[%d] is missing key: %s", i, k)
		}
	}
	fam, _ := e.Get("reviewer_family")
	if !isLabel(fam) {
		c.add(CodePanelEntry, p+"/reviewer_family", "panel[%d].reviewer_family must be a family label matching %s, got %s", i, matchproto.LabelPattern, pyfmt.Short(fam))
	} else if f := fam.(string); t.famIdx[f] > 0 {
		if t.mode == "cross_family" {
			c.add(CodeComposition, p+"/reviewer_family", "reviewer_family %s appears more than once (one vote per family on a cross-family panel)", f)
		}
	} else {
		t.famIdx[f] = i + 1
		t.fams = append(t.fams, f)
	}
	c.seat(t, i, e)
	if m, _ := e.Get("model"); !nonBlank(m) {
		c.add(CodePanelEntry, p+"/model", "panel[%d].model must be a non-empty string", i)
	}
	vote, _ := e.Get("vote")
	if vote == "a" || vote == "b" || vote == "tie" {
		t.votes = append(t.votes, vote.(string))
	} else if e.Has("vote") {
		c.add(CodePanelEntry, p+"/vote", "panel[%d].vote must be one of a, b, tie, got %s", i, pyfmt.Short(vote))
	}
	if aa, ok := e.Get("anchored_arguments"); ok {
		validateAnchoredArguments(&c.ps, CodePanelEntry, aa, p+"/anchored_arguments", fmt.Sprintf("panel[%d].anchored_arguments", i), true)
	}
	if d, ok := e.Get("unanchored_arguments_discarded"); ok {
		if n, isInt := asInt(d); !isInt || n < 0 {
			c.add(CodePanelEntry, p+"/unanchored_arguments_discarded", "panel[%d].unanchored_arguments_discarded must be an integer >= 0, got %s", i, pyfmt.Short(d))
		}
	}
}

// seat checks an entry's seat number against the panel mode (rules 20,
// 25 and 26).
func (c *artifactCheck) seat(t *panelTally, i int, e matchproto.Object) {
	p := matchproto.Ptr("panel", i)
	seat, hasSeat := e.Get("seat")
	if !hasSeat {
		if t.mode == "single_family" {
			c.add(CodeComposition, p, "panel[%d] is missing its seat number; single-family seats are numbered from 1", i)
		}
		return
	}
	n, isInt := asInt(seat)
	if !isInt || n < 1 {
		c.add(CodePanelEntry, p+"/seat", "panel[%d].seat must be an integer >= 1, got %s", i, pyfmt.Short(seat))
	} else if t.mode == "single_family" {
		if t.seats[n] {
			c.add(CodeComposition, p+"/seat", "panel seat %d appears more than once", n)
		}
		t.seats[n] = true
	}
	if t.mode == "cross_family" {
		c.add(CodeComposition, p+"/seat", "panel[%d] carries a seat number; cross-family panels do not number seats", i)
	}
}

func (c *artifactCheck) composition(mode string, n int, fams, present []string) {
	sortedFams := slices.Sorted(slices.Values(fams))
	sortedPresent := slices.Sorted(slices.Values(present))
	switch mode {
	case "cross_family":
		if len(fams) < 3 {
			c.add(CodeComposition, matchproto.Ptr("panel"), "panel has %d distinct families; a valid match needs at least 3", len(fams))
		}
		if present != nil && !slices.Equal(sortedFams, sortedPresent) {
			c.add(CodeComposition, matchproto.Ptr("panel_independence", "families_present"), "panel families %s do not match panel_independence.families_present %s", pyfmt.Value(sortedFams), pyfmt.Value(sortedPresent))
		}
	case "single_family":
		if n < 3 {
			c.add(CodeComposition, matchproto.Ptr("panel"), "a single-family panel has %d seats; a valid degraded match needs at least 3", n)
		}
		if len(fams) > 1 {
			c.add(CodeComposition, matchproto.Ptr("panel"), "a single-family panel mixes families %s", pyfmt.Value(sortedFams))
		}
		if present != nil && (len(present) != 1 || !slices.Equal(sortedFams, sortedPresent)) {
			c.add(CodeComposition, matchproto.Ptr("panel_independence", "families_present"), "panel_independence.families_present %s does not match the single panel family %s", pyfmt.Value(sortedPresent), pyfmt.Value(sortedFams))
		}
	}
}

func (c *artifactCheck) outcome(obj matchproto.Object, votes []string, committedAt *time.Time) {
	raw, ok := obj.Get("outcome")
	if !ok {
		return
	}
	o, isObj := raw.(matchproto.Object)
	if !isObj {
		c.add(CodeOutcome, matchproto.Ptr("outcome"), "outcome must be an object")
		return
	}
	keys := []string{"winner", "vote_margin", "decided_at"}
	if unk := unknownKeys(o, keys); len(unk) > 0 {
		c.add(CodeOutcome, matchproto.Ptr("outcome"), "outcome has unknown keys: %s", pyfmt.Value(unk))
	}
	for _, k := range keys {
		if !o.Has(k) {
			c.add(CodeOutcome, matchproto.Ptr("outcome"), "outcome is missing key: %s", k)
		}
	}
	winner, hasW := o.Get("winner")
	validWinner := winner == "a" || winner == "b" || winner == "tie"
	if hasW && !validWinner {
		c.add(CodeOutcome, matchproto.Ptr("outcome", "winner"), "outcome.winner must be one of a, b, tie, got %s", pyfmt.Short(winner))
	}
	margin, marginOK := 0.0, false
	if m, ok := o.Get("vote_margin"); ok {
		f, isNum := asFloat(m)
		switch {
		case !isNum:
			c.add(CodeOutcome, matchproto.Ptr("outcome", "vote_margin"), "outcome.vote_margin must be a number, got %s", pyfmt.Short(m))
		case !(f >= 0 && f <= 1):
			c.add(CodeOutcome, matchproto.Ptr("outcome", "vote_margin"), "outcome.vote_margin must lie in [0, 1], got %s", pyfmt.Short(m))
		default:
			margin, marginOK = f, true
		}
	}
	var decided *time.Time
	if d, ok := o.Get("decided_at"); ok {
		t, err := matchproto.ParseTime(d)
		if err != nil {
			c.add(CodeOutcome, matchproto.Ptr("outcome", "decided_at"), "outcome.decided_at is invalid: %v", err)
		} else {
			decided = &t
		}
	}
	if len(votes) > 0 && validWinner {
		t, _ := matchproto.Tally(votes)
		if winner != t.Winner {
			c.add(CodeTally, matchproto.Ptr("outcome", "winner"), "outcome.winner %s does not match the panel tally %s", winner, t.Winner)
		}
		if marginOK && math.Abs(margin-t.Margin) > 1e-9 {
			c.add(CodeTally, matchproto.Ptr("outcome", "vote_margin"), "outcome.vote_margin %s does not match the panel tally %s", pyfmt.Repr(margin), pyfmt.Repr(t.Margin))
		}
	}
	if decided != nil && committedAt != nil && decided.Before(*committedAt) {
		c.add(CodeStageOrder, matchproto.Ptr("outcome", "decided_at"), "outcome.decided_at precedes criteria_commitment.committed_at; criteria must be committed before the match is decided")
	}
}

func (c *artifactCheck) observation(obj matchproto.Object) {
	raw, ok := obj.Get("observation_write")
	if !ok {
		return
	}
	o, isObj := raw.(matchproto.Object)
	if !isObj {
		c.add(CodeObservation, matchproto.Ptr("observation_write"), "observation_write must be an object")
		return
	}
	if unk := unknownKeys(o, []string{"written", "gaia_package_ref"}); len(unk) > 0 {
		c.add(CodeObservation, matchproto.Ptr("observation_write"), "observation_write has unknown keys: %s", pyfmt.Value(unk))
	}
	if w, _ := o.Get("written"); !isBool(w) {
		c.add(CodeObservation, matchproto.Ptr("observation_write", "written"), "observation_write.written must be a boolean, got %s", pyfmt.Short(w))
	}
	if r, ok := o.Get("gaia_package_ref"); ok && !nonBlank(r) {
		c.add(CodeObservation, matchproto.Ptr("observation_write", "gaia_package_ref"), "observation_write.gaia_package_ref must be a non-empty string")
	}
}

func isBool(v any) bool { _, ok := v.(bool); return ok }

func (c *artifactCheck) binding(obj matchproto.Object) {
	raw, ok := obj.Get("statement_binding")
	if !ok {
		return
	}
	b, isObj := raw.(matchproto.Object)
	if !isObj {
		c.add(CodeBinding, matchproto.Ptr("statement_binding"), "statement_binding must be an object")
		return
	}
	if unk := unknownKeys(b, []string{"a", "b"}); len(unk) > 0 {
		c.add(CodeBinding, matchproto.Ptr("statement_binding"), "statement_binding has unknown sides: %s", pyfmt.Value(unk))
	}
	for _, side := range []string{"a", "b"} {
		sv, ok := b.Get(side)
		if !ok {
			c.add(CodeBinding, matchproto.Ptr("statement_binding"), "statement_binding is missing side %s", pyfmt.Str(side))
			continue
		}
		so, isObj := sv.(matchproto.Object)
		if !isObj {
			c.add(CodeBinding, matchproto.Ptr("statement_binding", side), "statement_binding.%s must be an object", side)
			continue
		}
		if unk := unknownKeys(so, []string{"idea_node_id", "content_sha256"}); len(unk) > 0 {
			c.add(CodeBinding, matchproto.Ptr("statement_binding", side), "statement_binding.%s has unknown keys: %s", side, pyfmt.Value(unk))
		}
		want, _ := obj.Get("idea_" + side + "_node_id")
		if got, _ := so.Get("idea_node_id"); got != want || got == nil {
			c.add(CodeBinding, matchproto.Ptr("statement_binding", side, "idea_node_id"), "statement_binding.%s.idea_node_id %s does not match idea_%s_node_id %s", side, pyfmt.Short(got), side, pyfmt.Short(want))
		}
		// Full match: the reference's $-anchored match accepts a trailing
		// newline after the hex (W25); nullius does not.
		if h, _ := so.Get("content_sha256"); !isHash(h) {
			c.add(CodeBinding, matchproto.Ptr("statement_binding", side, "content_sha256"), "statement_binding.%s.content_sha256 must be sha256:<64 hex>, got %s", side, pyfmt.Short(h))
		}
	}
}

func isHash(v any) bool {
	s, ok := v.(string)
	return ok && digest.IsSHA256(s)
}
