package matchproto

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// Card is an idea card reduced to what the protocol reads (§2.2).
type Card struct {
	NodeID, Title, Gist, Status string
	Claims                      []Claim
	// Raw is the card as given, re-serialized into the statement request.
	Raw Object
}

// Claim is one card claim.
type Claim struct {
	Text, SupportType string
	Evidence          []string
}

// ParseCard reads an idea card for side label ("a" or "b"). It accepts the
// shape the reference's examples use (node_id, title, gist, status,
// claims[{claim, support_type, evidence_uris}]), the engine's idea_node_v1
// record (node_id, lifecycle_state, rationale_draft.title, idea_card), and a
// bare idea_card_v1 (claims[{claim_text, ...}]) when nodeID is given: the
// reference reads only the first and renders a real engine card with empty
// claim text (W1). Fields must be strings: the reference prints None and
// Python list reprs into the summary instead (§9).
func ParseCard(v any, label, nodeID string) (*Card, error) {
	o, ok := v.(Object)
	if !ok {
		return nil, fmt.Errorf("idea card for %s is not a JSON object", label)
	}
	c := &Card{Raw: o}
	var err error
	str := func(obj Object, key string) string {
		val, ok := obj.Get(key)
		if !ok || val == nil || err != nil {
			return ""
		}
		s, isStr := val.(string)
		if !isStr {
			err = fmt.Errorf("idea card for %s: %s must be a string, got %s", label, key, pyfmt.Short(val))
		}
		return Collapse(s)
	}
	claimsFrom := o
	if ic, ok := o.Get("idea_card"); ok {
		// idea_node_v1: the card is nested, the title lives in rationale_draft.
		card, isObj := ic.(Object)
		if !isObj {
			return nil, fmt.Errorf("idea card for %s: idea_card must be an idea_card_v1 object, got %s", label, pyfmt.Short(ic))
		}
		claimsFrom = card
		c.Status = str(o, "lifecycle_state")
		if rd, ok := o.Get("rationale_draft"); ok {
			if rdo, isObj := rd.(Object); isObj {
				c.Title = str(rdo, "title")
			}
		}
		if c.Status == "archived" {
			return nil, fmt.Errorf("idea card for %s: node lifecycle_state is \"archived\"; an archived idea is not eligible for a match", label)
		}
	} else {
		c.Title, c.Gist, c.Status = str(o, "title"), str(o, "gist"), str(o, "status")
	}
	c.NodeID = str(o, "node_id")
	if err != nil {
		return nil, err
	}
	if nodeID != "" {
		if c.NodeID != "" && c.NodeID != nodeID {
			return nil, fmt.Errorf("idea card for %s has node_id %s but %s was given", label, pyfmt.Str(c.NodeID), pyfmt.Str(nodeID))
		}
		c.NodeID = nodeID
	}
	claims, _ := claimsFrom.Get("claims")
	list, isList := claims.([]any)
	if !isList || len(list) == 0 {
		return nil, fmt.Errorf("idea card for %s has no claims; a card needs at least one claim with evidence", label)
	}
	for i, it := range list {
		co, isObj := it.(Object)
		if !isObj {
			return nil, fmt.Errorf("idea card for %s: claims[%d] is not an object", label, i)
		}
		cl := Claim{Text: str(co, "claim"), SupportType: str(co, "support_type")}
		if !co.Has("claim") {
			cl.Text = str(co, "claim_text")
		}
		if err != nil {
			return nil, err
		}
		ev, _ := co.Get("evidence_uris")
		evl, _ := ev.([]any)
		if ev != nil && evl == nil {
			return nil, fmt.Errorf("idea card for %s: claims[%d].evidence_uris must be an array of strings", label, i)
		}
		for j, u := range evl {
			s, isStr := u.(string)
			if !isStr {
				return nil, fmt.Errorf("idea card for %s: claims[%d].evidence_uris[%d] must be a string, got %s", label, i, j, pyfmt.Short(u))
			}
			if strings.IndexFunc(s, IsPySpace) >= 0 || strings.Contains(s, ",") || s == "" {
				return nil, fmt.Errorf("idea card for %s: claims[%d].evidence_uris[%d] %s is empty or holds whitespace or a comma; such a reference can never be cited as an anchor", label, i, j, pyfmt.Str(s))
			}
			cl.Evidence = append(cl.Evidence, s)
		}
		c.Claims = append(c.Claims, cl)
	}
	if c.NodeID == "" {
		return nil, fmt.Errorf("idea card for %s has no node_id; an idea_card_v1 carries none, so pass the node id (--node-a/--node-b) or the idea_node_v1 record", label)
	}
	return c, nil
}

// RenderSummary renders the card summary of §2.3, byte-compatible with the
// reference for cards of the reference's shape.
func RenderSummary(label string, c *Card) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Idea card summary: Idea %s\n\nnode_id: %s\ntitle: %s\nstatus: %s\n\ngist: %s\n\nclaims:\n",
		strings.ToUpper(label), c.NodeID, c.Title, c.Status, c.Gist)
	for i, cl := range c.Claims {
		fmt.Fprintf(&b, "%d. %s [support: %s; evidence: %s]\n", i+1, cl.Text, cl.SupportType, strings.Join(cl.Evidence, ", "))
	}
	return b.String()
}

var (
	claimLineRE  = lazyre.New(`^[0-9]+\. `)
	supportTagRE = lazyre.New(`^\[support: ?([^;\]]*); ?evidence: ?(.*)\]$`)
	summaryNode  = lazyre.New(`^node_id: (.*)$`)
)

// SummaryEvidence returns the allowed-evidence set of a card summary
// (§3.3): the evidence of each claim line under "claims:".
//
// The reference scans the whole text for "[support: …; evidence: …]", so a
// claim text can inject a URL into the allowed set, and it splits on "," and
// stops at "]", mangling such URIs (W9). nullius reads only claim lines,
// takes the last support tag of each (the one the renderer appended), and
// splits on ", " as the renderer joins.
func SummaryEvidence(summary string) map[string]bool {
	out := map[string]bool{}
	for ev := range SummaryEvidenceTypes(summary) {
		out[ev] = true
	}
	return out
}

// SummaryEvidenceTypes maps each evidence entry of a card summary to the
// support types of the claims that carry it.
func SummaryEvidenceTypes(summary string) map[string][]string {
	out := map[string][]string{}
	inClaims := false
	for _, line := range strings.Split(UniversalNewlines(summary), "\n") {
		if line == "claims:" {
			inClaims = true
			continue
		}
		if !inClaims || !claimLineRE.MatchString(line) {
			continue
		}
		i := strings.LastIndex(line, " [support:")
		if i < 0 {
			continue
		}
		m := supportTagRE.FindStringSubmatch(line[i+1:])
		if m == nil {
			continue
		}
		st := PyStrip(m[1])
		for _, u := range strings.Split(m[2], ", ") {
			if u = PyStrip(u); u != "" && !slices.Contains(out[u], st) {
				out[u] = append(out[u], st)
			}
		}
	}
	return out
}

// SummaryNodeID returns the node_id line of a card summary ("" if none).
func SummaryNodeID(summary string) string {
	for _, line := range strings.Split(UniversalNewlines(summary), "\n") {
		if m := summaryNode.FindStringSubmatch(line); m != nil {
			return PyStrip(m[1])
		}
	}
	return ""
}
