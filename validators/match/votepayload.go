package match

import (
	"fmt"
	"strings"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// validateAnchoredArguments checks a list of {argument, anchor_type,
// anchor_ref}. strict refuses extra keys (the artifact); a judge's payload
// may carry extra keys, which are dropped (§4.5).
func validateAnchoredArguments(v any, ptr, label string, strict bool) []Problem {
	list, ok := v.([]any)
	if !ok {
		return []Problem{{CodeVotePayload, ptr, label + " must be an array"}}
	}
	var ps []Problem
	for i, it := range list {
		p := fmt.Sprintf("%s/%d", ptr, i)
		l := fmt.Sprintf("%s[%d]", label, i)
		o, isObj := it.(matchproto.Object)
		if !isObj {
			ps = append(ps, Problem{CodeVotePayload, p, l + " must be an object"})
			continue
		}
		if strict {
			if unk := unknownKeys(o, []string{"argument", "anchor_type", "anchor_ref"}); len(unk) > 0 {
				ps = append(ps, Problem{CodeVotePayload, p, fmt.Sprintf("%s has unknown keys: %s", l, strings.Join(unk, ", "))})
			}
		}
		for _, k := range []string{"argument", "anchor_type", "anchor_ref"} {
			if val, _ := o.Get(k); !nonBlank(val) && (k != "anchor_type" || !strict) {
				ps = append(ps, Problem{CodeVotePayload, p + "/" + k, fmt.Sprintf("%s.%s must be a non-empty string", l, k)})
			}
		}
		at, _ := o.Get("anchor_type")
		if _, isStr := at.(string); (isStr || strict) && at != "literature" && at != "computation" {
			ps = append(ps, Problem{CodeVotePayload, p + "/anchor_type", fmt.Sprintf("%s.anchor_type must be one of literature, computation, got %s", l, pyfmt.Short(at))})
		}
	}
	return ps
}

// ValidateVotePayload applies §4.5 to a judge's reply object: every problem
// is collected. Extra top-level keys are allowed.
func ValidateVotePayload(v any, at string) []Problem {
	o, ok := v.(matchproto.Object)
	if !ok {
		return []Problem{{CodeVotePayload, at, "vote payload is not a JSON object"}}
	}
	var ps []Problem
	if vote, _ := o.Get("vote"); vote != "a" && vote != "b" && vote != "tie" {
		ps = append(ps, Problem{CodeVotePayload, at + "/vote", fmt.Sprintf("vote must be one of a, b, tie, got %s", pyfmt.Short(vote))})
	}
	if aa, ok := o.Get("anchored_arguments"); ok {
		ps = append(ps, validateAnchoredArguments(aa, at+"/anchored_arguments", "anchored_arguments", false)...)
	} else {
		ps = append(ps, Problem{CodeVotePayload, at, "anchored_arguments must be an array"})
	}
	d, _ := o.Get("unanchored_arguments_discarded")
	if n, isInt := asInt(d); !isInt || n < 0 {
		ps = append(ps, Problem{CodeVotePayload, at + "/unanchored_arguments_discarded", fmt.Sprintf("unanchored_arguments_discarded must be an integer >= 0, got %s", pyfmt.Short(d))})
	}
	return ps
}
