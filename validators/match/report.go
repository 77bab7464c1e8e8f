package match

import (
	"slices"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// ValidateReport applies the checks assembly runs on panel_run_report.json
// (§6.2 step 6, items 2-12), collecting every problem.
func ValidateReport(v any) []Problem {
	o, ok := v.(matchproto.Object)
	if !ok {
		return []Problem{{CodeReport, "", "panel run report is not a JSON object"}}
	}
	var ps problems
	add := func(ptr, format string, args ...any) { ps.add(CodeReport, ptr, format, args...) }
	ir, _ := o.Get("independent_runners")
	if !isBool(ir) {
		add(matchproto.Ptr("independent_runners"), "panel run report: independent_runners must be a boolean, got %s", pyfmt.Short(ir))
	}
	mode, _ := o.Get("independence")
	if mode != "cross_family" && mode != "single_family" {
		add(matchproto.Ptr("independence"), "panel run report: independence must be cross_family or single_family, got %s", pyfmt.Short(mode))
	}
	fp, _ := o.Get("families_present")
	list, isList := fp.([]any)
	if !isList || len(list) == 0 || slices.ContainsFunc(list, func(v any) bool { return !isLabel(v) }) || hasDupAny(list) {
		add(matchproto.Ptr("families_present"), "panel run report: families_present must be a non-empty list of distinct family labels")
	} else if mode == "single_family" {
		if len(list) != 1 {
			add(matchproto.Ptr("families_present"), "panel run report: a single_family panel has exactly one present family, got %d", len(list))
		}
	}
	if mode == "single_family" && ir == true {
		add(matchproto.Ptr("independent_runners"), "panel run report: single_family panel records independent_runners=true; native subagent seats never count as independent runners")
	}
	pv, _ := o.Get("panel_valid")
	if pv != true {
		if !isBool(pv) {
			add(matchproto.Ptr("panel_valid"), "panel run report: panel_valid must be a boolean, got %s", pyfmt.Short(pv))
		} else {
			add(matchproto.Ptr("panel_valid"), "panel run report records panel_valid=false; an invalid panel cannot be assembled")
		}
	}
	mf, _ := o.Get("min_families")
	if n, isInt := asInt(mf); !isInt || n < 3 {
		add(matchproto.Ptr("min_families"), "panel run report: min_families must be an integer >= 3, got %s", pyfmt.Short(mf))
	}
	vc, _ := o.Get("votes_collected")
	vco, isObj := vc.(matchproto.Object)
	if !isObj || len(vco) == 0 {
		add(matchproto.Ptr("votes_collected"), "panel run report: votes_collected must be a non-empty object")
	} else {
		for _, k := range vco.Keys() {
			if val, _ := vco.Get(k); !nonBlank(val) {
				add(matchproto.Ptr("votes_collected", k), "panel run report: votes_collected[%s] must be a non-empty path", pyfmt.Str(k))
			}
		}
	}
	ab, _ := o.Get("absent")
	abl, isList := ab.([]any)
	if !isList {
		add(matchproto.Ptr("absent"), "panel run report: absent must be a list")
	}
	for i, it := range abl {
		item, isObj := it.(matchproto.Object)
		keys := []string{}
		if isObj {
			keys = slices.Sorted(slices.Values(item.Keys()))
		}
		fam, _ := item.Get("family")
		rsn, _ := item.Get("reason")
		if !isObj || !slices.Equal(keys, []string{"family", "reason"}) || !isLabel(fam) || !nonBlank(rsn) {
			add(matchproto.Ptr("absent", i), "panel run report: absent[%d] must be {family: <label>, reason: <non-empty string>}", i)
		}
	}
	if h, _ := o.Get("judge_prompt_sha256"); !isHash(h) {
		add(matchproto.Ptr("judge_prompt_sha256"), "panel run report: judge_prompt_sha256 must be sha256:<64 hex>, got %s", pyfmt.Short(h))
	}
	wc, _ := o.Get("word_cap")
	if n, isInt := asInt(wc); !isInt || n < 1 {
		add(matchproto.Ptr("word_cap"), "panel run report: word_cap must be a positive integer, got %s", pyfmt.Short(wc))
	}
	return ps.all()
}

func hasDupAny(list []any) bool {
	seen := map[any]bool{}
	for _, v := range list {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// ValidateVoteRecord checks one stored vote record (§4.8) on its own:
// family label, model, payload, commitment hash form, collected_at, seat.
// The cross-checks against a commitment and a report belong to assembly.
func ValidateVoteRecord(v any) []Problem {
	o, ok := v.(matchproto.Object)
	if !ok {
		return []Problem{{CodeVoteRecord, "", "vote record is not a JSON object"}}
	}
	var ps problems
	add := func(ptr, format string, args ...any) { ps.add(CodeVoteRecord, ptr, format, args...) }
	if f, _ := o.Get("reviewer_family"); !isLabel(f) {
		add(matchproto.Ptr("reviewer_family"), "reviewer_family must be a family label matching %s, got %s", matchproto.LabelPattern, pyfmt.Short(f))
	}
	if m, _ := o.Get("model"); !nonBlank(m) {
		add(matchproto.Ptr("model"), "model must be a non-empty string")
	}
	for _, p := range ValidateVotePayload(o, "") {
		ps.put(p)
	}
	if h, _ := o.Get("commitment_hash"); !isHash(h) {
		add(matchproto.Ptr("commitment_hash"), "commitment_hash must be sha256:<64 hex>, got %s", pyfmt.Short(h))
	}
	if c, ok := o.Get("collected_at"); !ok {
		add("", "vote record is missing key: collected_at")
	} else if _, err := matchproto.ParseTime(c); err != nil {
		add(matchproto.Ptr("collected_at"), "collected_at is invalid: %v", err)
	}
	if s, ok := o.Get("seat"); ok {
		if n, isInt := asInt(s); !isInt || n < 1 {
			add(matchproto.Ptr("seat"), "seat must be an integer >= 1, got %s", pyfmt.Short(s))
		}
	}
	return ps.all()
}
