package prior

import (
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

var grades = []string{"weakest", "substantial", "strong"}

// matrixStatus is what the matrix declares, for the cross rules.
type matrixStatus struct {
	coverage    string // saturated, coverage_incomplete or metadata_only
	posterior   string // "", current, provisional, stale
	exploratory bool
	eligible    bool
}

// checkMatrix runs M-1..M-26 (plus the one-sided-pool fix of W-9) and
// returns the declared statuses.
func checkMatrix(c *checker, f *File) (map[string]any, matrixStatus) {
	st := matrixStatus{coverage: "metadata_only"}
	var m map[string]any
	if f != nil && f.Doc != nil {
		m, _ = obj(f.Doc.Value)
	}
	if m == nil {
		got := "a missing file"
		switch {
		case f != nil && f.Doc != nil:
			got = kind(f.Doc.Value)
		case f != nil:
			got = "JSON that does not parse"
		}
		c.add(f, CodeMatrixShape, "", "close-prior matrix must be a JSON object, got %s; record the close priors you read in close_prior_matrix.json", got)
		return nil, st
	}
	entries, _ := arr(m["entries"])
	if len(entries) == 0 {
		c.add(f, CodeMatrixShape, "/entries", "close-prior matrix entries must contain at least one entry")
	}
	for i, ev := range entries {
		checkMatrixEntry(c, f, i, ev)
	}
	cs, ok := obj(m["critique_search"])
	if !ok || !nonEmptyList(cs["queries"]) {
		c.add(f, CodeCritique, "/critique_search", "close-prior matrix must record critique_search.queries (the searches for work that challenges the idea)")
	}
	if ok && !nonEmptyList(cs["top_hits_reviewed"]) {
		c.add(f, CodeCritique, "/critique_search", "close-prior matrix must record critique_search.top_hits_reviewed")
	}
	checkTensionResolution(c, f, m)
	checkNegativeNovelty(c, f, m)
	checkAnchors(c, f, m, entries)

	v, _ := m["coverage_status"].(string)
	switch v {
	case "saturated", "coverage_incomplete", "metadata_only":
		st.coverage = v
	default:
		c.add(f, CodeCoverageStatus, "/coverage_status", "coverage_status %s must be one of saturated, coverage_incomplete, metadata_only", pyfmt.Short(m["coverage_status"]))
	}
	st.exploratory = m["exploratory_allocation"] == true
	if st.exploratory && st.coverage != "coverage_incomplete" {
		c.add(f, CodeCoverageStatus, "/exploratory_allocation", "exploratory_allocation is only legal with coverage_status=coverage_incomplete")
	}
	if v, present := m["allocation_eligible"]; present {
		b, ok := v.(bool)
		if !ok {
			c.add(f, CodeCoverageStatus, "/allocation_eligible", "allocation_eligible must be boolean, got %s", pyfmt.Short(v))
		}
		st.eligible = ok && b
	}
	if v, present := m["posterior_status"]; present {
		s, _ := v.(string)
		if s != "current" && s != "provisional" && s != "stale" {
			c.add(f, CodeCoverageStatus, "/posterior_status", "posterior_status %s must be one of current, provisional, stale", pyfmt.Short(v))
		} else {
			st.posterior = s
		}
	}
	if st.coverage != "saturated" && st.posterior == "current" {
		c.add(f, CodeCoverageStatus, "/posterior_status", "%s coverage cannot declare posterior_status current; use provisional", st.coverage)
	}
	if st.posterior == "stale" {
		c.add(f, CodeCoverageStatus, "/posterior_status", "posterior_status stale cannot enter current writeback; rebuild matrix and graph")
	}
	if st.coverage == "saturated" && st.posterior == "provisional" {
		c.add(f, CodeCoverageStatus, "/posterior_status", "saturated coverage cannot declare posterior_status provisional; use current after rebuilding")
	}
	return m, st
}

// checkMatrixEntry runs M-3..M-10 on one entry.
func checkMatrixEntry(c *checker, f *File, i int, ev any) {
	base := p("/entries", i)
	label := "entries[" + itoa(i) + "]"
	e, ok := obj(ev)
	if !ok {
		c.add(f, CodeMatrixShape, base, "%s must be an object", label)
		return
	}
	checkReadEntry(c, f, base, label, e, false)
	rs, _ := e["read_status"].(string)
	if rs == "metadata_only" || rs == "unavailable" {
		if truthy(e["gaia_anchor_refs"]) {
			c.add(f, CodeMetadataOnly, base+"/gaia_anchor_refs", "%s is %s and cannot anchor Gaia likelihood; read the source or drop gaia_anchor_refs", label, rs)
		}
		if truthy(e["supports_subclaims"]) || truthy(e["weakens_novelty_claims"]) {
			c.add(f, CodeMetadataOnly, base, "%s is %s and cannot support or weaken subclaims; read the source or leave both lists empty", label, rs)
		}
	}
	_, a := e["same_scope"]
	_, b := e["same_scope_status"]
	if !a && !b {
		c.add(f, CodeMatrixShape, base, "%s must record same-scope status (same_scope)", label)
	}
	for _, k := range []struct{ key, what string }{
		{"supports_subclaims", "supported subclaims (supports_subclaims, even if empty)"},
		{"weakens_novelty_claims", "weakened novelty claims (weakens_novelty_claims, even if empty)"},
		{"stale_or_provisional", "whether the score is stale or provisional (stale_or_provisional)"},
	} {
		if _, present := e[k.key]; !present {
			c.add(f, CodeMatrixShape, base, "%s must record %s", label, k.what)
		}
	}
	terms := e["required_late_caveat_terms"]
	if terms == nil {
		terms = e["required_caveat_terms"]
	}
	if ts, _ := strList(terms); len(ts) > 0 {
		text := strings.ToLower(caveatText(e["key_caveats"]) + "\n" + caveatText(e["caveat_summary"]))
		var missing []string
		for _, t := range ts {
			if !strings.Contains(text, strings.ToLower(t)) {
				missing = append(missing, strings.ToLower(t))
			}
		}
		if len(missing) > 0 {
			c.add(f, CodeLateCaveat, base, "%s must record required late-section caveat terms; missing terms: %s", label, pyfmt.Value(missing))
		}
		secs := entrySections(e)
		if !slices.Contains(secs, "results_discussion") && !slices.Contains(secs, "conclusion_outlook") {
			c.add(f, CodeLateCaveat, base, "%s late caveats need late-section read coverage (results_discussion or conclusion_outlook)", label)
		}
	}
}

// caveatText flattens key_caveats (string or list) for the substring test.
func caveatText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// checkTensionResolution runs M-13..M-16 and W-9.
func checkTensionResolution(c *checker, f *File, m map[string]any) {
	tr, ok := obj(m["tension_resolution"])
	if !ok {
		return
	}
	const base = "/tension_resolution"
	grade, hasGrade := tr["grade"]
	gs, _ := grade.(string)
	if hasGrade && grade != nil && !slices.Contains(grades, gs) {
		c.add(f, CodeTension, base+"/grade", "tension_resolution grade %s must be weakest, substantial, or strong", pyfmt.Short(grade))
	}
	if v, present := tr["raising_likelihood_grades"]; present && v != nil {
		a, ok := arr(v)
		bad := !ok
		for _, g := range a {
			if s, _ := g.(string); !slices.Contains(grades, s) {
				bad = true
			}
		}
		if bad {
			c.add(f, CodeTension, base+"/raising_likelihood_grades", "tension_resolution raising_likelihood_grades must be a list of grades (weakest, substantial, strong)")
		}
	}
	if grade == nil || gs == "weakest" {
		return
	}
	if !truthy(tr["supporting_refs"]) {
		c.add(f, CodeTension, base, "tension_resolution grade above weakest must record supporting_refs")
	}
	if !truthy(tr["challenge_refs"]) && !truthy(tr["competing_resolution_refs"]) {
		c.add(f, CodeTension, base, "tension_resolution grade above weakest must record challenge_refs or competing_resolution_refs (a one-sided pool cannot raise resolution)")
		return
	}
	support, _ := strList(tr["supporting_refs"])
	against, _ := strList(tr["challenge_refs"])
	comp, _ := strList(tr["competing_resolution_refs"])
	against = append(against, comp...)
	for _, r := range against {
		if !slices.Contains(support, r) {
			return
		}
	}
	c.add(f, CodeOneSided, base, "tension_resolution challenge_refs only repeat supporting_refs %s; a one-sided pool cannot raise resolution, name a challenging or competing reference", pyfmt.Value(against))
}

// checkNegativeNovelty runs M-17.
func checkNegativeNovelty(c *checker, f *File, m map[string]any) {
	claims, _ := arr(m["negative_novelty_claims"])
	for i, cv := range claims {
		base := p("/negative_novelty_claims", i)
		cl, ok := obj(cv)
		if !ok {
			c.add(f, CodeNegNovelty, base, "negative_novelty_claims[%d] must be an object", i)
			continue
		}
		g, ok := obj(cl["reviewer_gate"])
		if !ok {
			c.add(f, CodeNegNovelty, base, "negative_novelty_claims[%d] requires reviewer_gate (close_prior_matrix_checked, critique_search_checked, discussion_conclusion_checked, same_scope_exclusions)", i)
			continue
		}
		for _, k := range []string{"close_prior_matrix_checked", "critique_search_checked", "discussion_conclusion_checked"} {
			if g[k] != true {
				c.add(f, CodeNegNovelty, base+"/reviewer_gate/"+k, "negative_novelty_claims[%d] reviewer_gate.%s must be true", i, k)
			}
		}
		if !nonEmptyList(g["same_scope_exclusions"]) {
			c.add(f, CodeNegNovelty, base+"/reviewer_gate/same_scope_exclusions", "negative_novelty_claims[%d] reviewer_gate.same_scope_exclusions must be non-empty", i)
		}
	}
}

// checkAnchors runs M-18 and M-19.
func checkAnchors(c *checker, f *File, m map[string]any, entries []any) {
	var readLinks []string
	for _, ev := range entries {
		e, ok := obj(ev)
		if !ok {
			continue
		}
		if rs := e["read_status"]; rs == "full_text_read" || rs == "section_read" {
			readLinks = append(readLinks, entryLinks(e)...)
		}
	}
	anchors, _ := arr(m["gaia_anchors"])
	for i, av := range anchors {
		base := p("/gaia_anchors", i)
		a, ok := obj(av)
		if !ok {
			c.add(f, CodeAnchor, base, "gaia_anchors[%d] must be an object", i)
			continue
		}
		if a["anchor_source"] != "claim_grounding" {
			c.add(f, CodeAnchor, base+"/anchor_source", "gaia_anchors[%d] must come from claim_grounding (proposition-level anchors only), got %s", i, pyfmt.Short(a["anchor_source"]))
		}
		for _, k := range []string{"proposition", "quote", "locator", "source_link"} {
			if _, ok := str(a[k]); !ok {
				c.add(f, CodeAnchor, base, "gaia_anchors[%d].%s must be a non-empty string", i, k)
			}
		}
		if l, ok := a["source_link"].(string); ok && l != "" && !slices.Contains(readLinks, l) {
			c.add(f, CodeAnchor, base+"/source_link", "gaia_anchors[%d].source_link %s must match a source-read close-prior entry", i, pyfmt.Str(l))
		}
	}
	subs, _ := arr(m["subagent_inputs"])
	for i, sv := range subs {
		s, ok := obj(sv)
		if ok && s["used_in_gaia"] == true && !truthy(s["claim_grounding_ref"]) {
			c.add(f, CodeAnchor, p("/subagent_inputs", i), "subagent_inputs[%d] is used in Gaia without claim_grounding_ref", i)
		}
	}
}

// entryLinks returns an entry's source_link and source_links strings.
func entryLinks(e map[string]any) []string {
	var out []string
	if s, ok := str(e["source_link"]); ok {
		out = append(out, s)
	}
	a, _ := arr(e["source_links"])
	for _, x := range a {
		if s, ok := str(x); ok {
			out = append(out, s)
		}
	}
	return out
}

var mdLinkRE = lazyre.New(`\[[^\]]*\]\([^)]+\)`)

// checkReport runs RP-1..RP-5 on the posterior report Markdown.
func checkReport(c *checker, f *File, text *string, matrix map[string]any) {
	if text == nil {
		c.add(f, CodeReport, "", "posterior report is required (posterior_report_v1.md)")
		return
	}
	low := strings.ToLower(*text)
	if !strings.Contains(low, "close-prior matrix") {
		c.add(f, CodeReport, "", "posterior report must contain a close-prior matrix section")
	}
	// W-8: the six columns must head one Markdown table, not appear
	// anywhere in the prose; entry links must sit in that table's rows.
	header, rows := matrixTable(*text)
	var missing []string
	for _, h := range []string{"reference", "read status", "same-scope", "supports", "weakens", "stale"} {
		if !strings.Contains(header, h) {
			missing = append(missing, h)
		}
	}
	if len(missing) > 0 {
		c.add(f, CodeReport, "", "posterior report close-prior matrix table is missing headers/columns %s (a table whose header row names reference, read status, same-scope, supports, weakens, stale)", pyfmt.Value(missing))
	}
	if !mdLinkRE.MatchString(*text) {
		c.add(f, CodeReport, "", "posterior report must use clickable Markdown links [text](target)")
	}
	entries, _ := arr(matrix["entries"])
	for i, ev := range entries {
		e, ok := obj(ev)
		if !ok {
			continue
		}
		links := entryLinks(e)
		if len(links) == 0 {
			continue
		}
		found := false
		for _, l := range links {
			if strings.Contains(rows, "]("+l+")") || strings.Contains(rows, "]("+l+" ") {
				found = true
			}
		}
		if !found {
			c.add(f, CodeReport, "", "posterior report is missing a clickable source link for entries[%d] (%s) in a row of the close-prior matrix table", i, links[0])
		}
	}
}

// matrixTable finds the Markdown table whose header row names the most of
// the six matrix columns, and returns its lower-cased header and its rows.
func matrixTable(text string) (header, rows string) {
	lines := strings.Split(text, "\n")
	best := -1
	for i := 0; i+1 < len(lines); i++ {
		h, sep := strings.TrimSpace(lines[i]), strings.TrimSpace(lines[i+1])
		if !strings.HasPrefix(h, "|") || !strings.HasPrefix(sep, "|") || strings.Trim(sep, "|-: ") != "" {
			continue
		}
		low := strings.ToLower(h)
		score := 0
		for _, col := range []string{"reference", "read status", "same-scope", "supports", "weakens", "stale"} {
			if strings.Contains(low, col) {
				score++
			}
		}
		if score <= best {
			continue
		}
		best, header = score, low
		var body []string
		for _, r := range lines[i+2:] {
			if !strings.HasPrefix(strings.TrimSpace(r), "|") {
				break
			}
			body = append(body, r)
		}
		rows = strings.Join(body, "\n")
	}
	return header, rows
}
