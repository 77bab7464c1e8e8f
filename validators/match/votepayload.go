package match

import (
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// validateAnchoredArguments checks a list of {argument, anchor_type,
// anchor_ref}, reporting its findings into ps under code. strict refuses
// extra keys (the artifact); a judge's payload may carry extra keys, which
// are dropped (§4.5).
func validateAnchoredArguments(ps *problems, code *diag.Rule, v any, ptr, label string, strict bool) {
	list, ok := v.([]any)
	if !ok {
		ps.add(code, ptr, "%s must be an array", label)
		return
	}
	for i, it := range list {
		// The element's pointer is built only for a finding: a valid
		// list of a million arguments costs no string per element.
		p := func(suffix string) string { return ptr + "/" + strconv.Itoa(i) + suffix }
		o, isObj := it.(matchproto.Object)
		if !isObj {
			ps.add(code, p(""), "%s[%d] must be an object", label, i)
			continue
		}
		if strict {
			if unk := unknownKeys(o, []string{"argument", "anchor_type", "anchor_ref"}); len(unk) > 0 {
				ps.add(code, p(""), "%s[%d] has unknown keys: %s", label, i, strings.Join(unk, ", "))
			}
		}
		for _, k := range []string{"argument", "anchor_type", "anchor_ref"} {
			if val, _ := o.Get(k); !nonBlank(val) && (k != "anchor_type" || !strict) {
				ps.add(code, p("/"+k), "%s[%d].%s must be a non-empty string", label, i, k)
			}
		}
		at, _ := o.Get("anchor_type")
		if _, isStr := at.(string); (isStr || strict) && at != "literature" && at != "computation" {
			ps.add(code, p("/anchor_type"), "%s[%d].anchor_type must be one of literature, computation, got %s", label, i, pyfmt.Short(at))
		}
	}
}

// ValidateVotePayload applies §4.5 to a judge's reply object: every problem
// is collected. Extra top-level keys are allowed.
func ValidateVotePayload(v any, at string) []Problem {
	o, ok := v.(matchproto.Object)
	if !ok {
		return []Problem{{CodeVotePayload, at, "vote payload is not a JSON object"}}
	}
	var ps problems
	if vote, _ := o.Get("vote"); vote != "a" && vote != "b" && vote != "tie" {
		ps.add(CodeVotePayload, at+"/vote", "vote must be one of a, b, tie, got %s", pyfmt.Short(vote))
	}
	if aa, ok := o.Get("anchored_arguments"); ok {
		validateAnchoredArguments(&ps, CodeVotePayload, aa, at+"/anchored_arguments", "anchored_arguments", false)
	} else {
		ps.add(CodeVotePayload, at, "anchored_arguments must be an array")
	}
	d, _ := o.Get("unanchored_arguments_discarded")
	if n, isInt := asInt(d); !isInt || n < 0 {
		ps.add(CodeVotePayload, at+"/unanchored_arguments_discarded", "unanchored_arguments_discarded must be an integer >= 0, got %s", pyfmt.Short(d))
	}
	return ps.all()
}
