package match

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

var modelKeyRE = lazyre.New(`^[a-z][a-z0-9_-]*$`)

// ParseRoster validates an agents.json value (§5.2) and returns the reduced
// roster, or every problem found. The parsed roster is nil when problems
// exist.
func ParseRoster(v any) (*matchproto.Roster, []Problem) {
	o, ok := v.(matchproto.Object)
	if !ok {
		return nil, []Problem{{CodeRosterShape, "", "roster must be a JSON object"}}
	}
	var ps problems
	add := ps.add
	if unk := unknownKeys(o, []string{"version", "families", "policy", "_notes"}); len(unk) > 0 {
		add(CodeRosterShape, "", "unknown top-level keys: %s (allowed: version, families, policy, _notes)", pyfmt.Value(unk))
	}
	if ver, _ := o.Get("version"); func() bool { n, ok := asInt(ver); return !ok || n != 1 }() {
		add(CodeRosterShape, matchproto.Ptr("version"), "version must be the integer 1, got %s", pyfmt.Short(ver))
	}
	r := &matchproto.Roster{Minimum: 3}
	famRaw, _ := o.Get("families")
	fams, isObj := famRaw.(matchproto.Object)
	if !isObj || len(fams) == 0 {
		add(CodeRosterShape, matchproto.Ptr("families"), "families must be a non-empty object")
	}
	pairs := map[[2]string][]string{}
	var pairOrder [][2]string
	dedicated := map[string][]string{}
	var dedicatedOrder []string
	var natives []string
	for _, lbl := range fams.Keys() {
		raw, _ := fams.Get(lbl)
		p := matchproto.Ptr("families", lbl)
		if !matchproto.LabelRE.MatchString(lbl) {
			add(CodeRosterLabel, p, "family label %s must match %s", pyfmt.Str(lbl), matchproto.LabelRE.String())
			continue
		}
		e, isObj := raw.(matchproto.Object)
		if !isObj {
			add(CodeRosterFamily, p, "families.%s must be an object", lbl)
			continue
		}
		if unk := unknownKeys(e, []string{"runner", "models", "available", "notes"}); len(unk) > 0 {
			add(CodeRosterFamily, p, "families.%s has unknown keys: %s", lbl, pyfmt.Value(unk))
		}
		f := matchproto.Family{Label: lbl, Available: true}
		runner, _ := e.Get("runner")
		if s, ok := runner.(string); ok && slices.Contains(matchproto.Runners(), s) {
			f.Runner = s
		} else {
			add(CodeRosterFamily, p+"/runner", "families.%s.runner must be one of %s, got %s", lbl, strings.Join(matchproto.Runners(), ", "), pyfmt.Short(runner))
		}
		if av, ok := e.Get("available"); ok {
			if b, isBool := av.(bool); isBool {
				f.Available = b
			} else {
				add(CodeRosterFamily, p+"/available", "families.%s.available must be a boolean", lbl)
			}
		}
		models, _ := e.Get("models")
		mo, isObj := models.(matchproto.Object)
		switch {
		case models == nil && !f.Available:
		case !isObj || len(mo) == 0:
			add(CodeRosterModels, p+"/models", "families.%s.models must be a non-empty object (required unless the family is declared unavailable)", lbl)
		default:
			for _, k := range mo.Keys() {
				mv, _ := mo.Get(k)
				if !modelKeyRE.MatchString(k) {
					add(CodeRosterModels, matchproto.Ptr("families", lbl, "models", k), "families.%s.models has a bad key %s (pattern %s)", lbl, pyfmt.Str(k), modelKeyRE.String())
				}
				ms, isStr := mv.(string)
				if !isStr || !matchproto.ModelRE.MatchString(ms) {
					add(CodeRosterModels, matchproto.Ptr("families", lbl, "models", k), "families.%s.models[%s] must be a plain model string (pattern %s), got %s", lbl, pyfmt.Str(k), matchproto.ModelRE.String(), pyfmt.Short(mv))
					continue
				}
				if f.Runner != "" && f.Runner != "native" {
					key := [2]string{f.Runner, ms}
					if !slices.Contains(pairs[key], lbl) {
						if len(pairs[key]) == 0 {
							pairOrder = append(pairOrder, key)
						}
						pairs[key] = append(pairs[key], lbl)
					}
				}
			}
			if d, ok := mo.Get("default"); !ok {
				add(CodeRosterModels, p+"/models", `families.%s.models must carry a "default" entry`, lbl)
			} else if s, ok := d.(string); ok {
				f.Model = s
			}
		}
		if f.Runner != "" && f.Runner != "native" && f.Runner != "opencode" {
			if len(dedicated[f.Runner]) == 0 {
				dedicatedOrder = append(dedicatedOrder, f.Runner)
			}
			dedicated[f.Runner] = append(dedicated[f.Runner], lbl)
		}
		if f.Runner == "native" {
			natives = append(natives, lbl)
		}
		if n, ok := e.Get("notes"); ok {
			if s, isStr := n.(string); isStr {
				f.Notes = s
			} else {
				add(CodeRosterFamily, p+"/notes", "families.%s.notes must be a string", lbl)
			}
		}
		r.Families = append(r.Families, f)
	}
	if len(natives) > 1 {
		add(CodeRosterNative, matchproto.Ptr("families"), "families %s all declare runner \"native\"; the host provides exactly one native seat", pyfmt.Value(natives))
	}
	for _, run := range dedicatedOrder {
		if l := dedicated[run]; len(l) > 1 {
			add(CodeRosterDedicated, matchproto.Ptr("families"), "families %s all declare the dedicated runner %s; one dedicated runner seats one family (only opencode may serve several, with distinct models)", pyfmt.Value(l), pyfmt.Str(run))
		}
	}
	for _, key := range pairOrder {
		if l := pairs[key]; len(l) > 1 {
			add(CodeRosterPair, matchproto.Ptr("families"), "families %s declare the identical (runner, model) pair (%s, %s); two seats would be one judge counted twice", pyfmt.Value(l), key[0], key[1])
		}
	}
	for _, p := range parsePolicy(o, r) {
		ps.put(p)
	}
	if len(ps.list) > 0 {
		return nil, ps.all()
	}
	return r, nil
}

func parsePolicy(o matchproto.Object, r *matchproto.Roster) []Problem {
	raw, ok := o.Get("policy")
	if !ok {
		return nil
	}
	pol, isObj := raw.(matchproto.Object)
	if !isObj {
		return []Problem{{CodeRosterPolicy, matchproto.Ptr("policy"), "policy must be an object"}}
	}
	var ps []Problem
	if unk := unknownKeys(pol, []string{"cross_family_minimum", "when_below_minimum"}); len(unk) > 0 {
		ps = append(ps, Problem{CodeRosterPolicy, matchproto.Ptr("policy"), "policy has unknown keys: " + pyfmt.Value(unk)})
	}
	if m, ok := pol.Get("cross_family_minimum"); ok {
		n, isInt := asInt(m)
		switch {
		case !isInt:
			ps = append(ps, Problem{CodeRosterPolicy, matchproto.Ptr("policy", "cross_family_minimum"), "policy.cross_family_minimum must be an integer, got " + pyfmt.Short(m)})
		case n < 3:
			ps = append(ps, Problem{CodeRosterPolicy, matchproto.Ptr("policy", "cross_family_minimum"), fmt.Sprintf("policy.cross_family_minimum is %d; the protocol floor is 3 and a roster cannot lower it", n)})
		case n > 1000:
			ps = append(ps, Problem{CodeRosterPolicy, matchproto.Ptr("policy", "cross_family_minimum"), fmt.Sprintf("policy.cross_family_minimum is %d; no panel can seat that many families", n)})
		default:
			r.Minimum = int(n)
		}
	}
	if w, ok := pol.Get("when_below_minimum"); ok && w != "native_subagents" {
		ps = append(ps, Problem{CodeRosterPolicy, matchproto.Ptr("policy", "when_below_minimum"), "policy.when_below_minimum must be \"native_subagents\", got " + pyfmt.Short(w)})
	}
	return ps
}
