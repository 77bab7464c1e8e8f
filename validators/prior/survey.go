package prior

import (
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

var (
	discoveryMethods = []string{"seed_search", "backward_references", "forward_citations", "critique_specific_search"}
	readStatuses     = []string{"full_text_read", "section_read", "metadata_only", "unavailable"}
	fullSections     = []string{"introduction", "formalism_method", "results_discussion", "conclusion_outlook"}
)

// checkSurvey runs S-1..S-8 and the compact receipt rules R on the survey
// and returns its effective status ("saturated" or "coverage_incomplete").
func checkSurvey(c *checker, f *File) string {
	s, ok := requireObject(c, f, CodeSurveyCoverage, "survey")
	if !ok {
		return "metadata_only"
	}
	cov, ok := obj(s["coverage"])
	if !ok {
		c.add(f, CodeSurveyCoverage, "/coverage", "survey coverage must be an object with saturation, counters and receipts, got %s", kind(s["coverage"]))
		checkSurveyPapers(c, f, s)
		return "coverage_incomplete"
	}
	sat, _ := cov["saturation"].(string)
	if sat != "saturated" && sat != "coverage_incomplete" && sat != "unknown" {
		c.add(f, CodeSurveyCoverage, "/coverage/saturation", "coverage.saturation %s must be one of saturated, coverage_incomplete, unknown", pyfmt.Short(cov["saturation"]))
		sat = "unknown"
	}
	if sat == "unknown" {
		c.add(f, CodeSatUnknown, "/coverage/saturation", "saturation=unknown cannot enter writeback; record measured coverage_incomplete debt instead")
	}
	for _, k := range []string{"total_papers", "deep_read", "core_total", "core_deep_read"} {
		if _, ok := nonNegInt(cov[k]); !ok {
			c.add(f, CodeSurveyCoverage, p("/coverage", k), "coverage.%s must be a non-negative integer, got %s", k, pyfmt.Short(cov[k]))
		}
	}
	checkRounds(c, f, cov, sat == "saturated")
	checkReceipts(c, f, cov, sat == "saturated")
	checkSurveyPapers(c, f, s)
	if sat == "saturated" {
		return "saturated"
	}
	return "coverage_incomplete"
}

// checkRounds runs S-6 and S-7 (and W-7: rounds cannot add more cores than
// core_total).
func checkRounds(c *checker, f *File, cov map[string]any, saturated bool) {
	var rounds []any
	if v, present := cov["saturation_evidence"]; present && v != nil {
		a, ok := arr(v)
		if !ok {
			c.add(f, CodeRounds, "/coverage/saturation_evidence", "coverage.saturation_evidence must be a list of rounds, got %s", kind(v))
		}
		rounds = a
	}
	used := map[string]bool{}
	var newCores int64
	for i, rv := range rounds {
		base := p("/coverage/saturation_evidence", i)
		r, ok := obj(rv)
		if !ok {
			c.add(f, CodeRounds, base, "saturation_evidence[%d] must be an object", i)
			continue
		}
		n, ok := intVal(r["round"])
		if !ok || n <= 0 {
			c.add(f, CodeRounds, base+"/round", "saturation_evidence[%d].round must be a positive integer, got %s", i, pyfmt.Short(r["round"]))
		} else if n != int64(i+1) {
			c.add(f, CodeRounds, base+"/round", "saturation_evidence[%d].round must equal %d (rounds are numbered 1, 2, ... in order), got %d", i, i+1, n)
		}
		screened, sok := intVal(r["expansion_candidates_screened"])
		if !sok || screened <= 0 {
			c.add(f, CodeRounds, base+"/expansion_candidates_screened", "saturation_evidence[%d].expansion_candidates_screened must be a positive integer, got %s", i, pyfmt.Short(r["expansion_candidates_screened"]))
		}
		nc, nok := nonNegInt(r["new_core_papers"])
		if !nok {
			c.add(f, CodeRounds, base+"/new_core_papers", "saturation_evidence[%d].new_core_papers must be a non-negative integer, got %s", i, pyfmt.Short(r["new_core_papers"]))
		} else {
			newCores += nc
			if sok && nc > screened {
				c.add(f, CodeRounds, base+"/new_core_papers", "saturation_evidence[%d].new_core_papers=%d cannot exceed expansion_candidates_screened=%d", i, nc, screened)
			}
		}
		methods, ok := arr(r["discovery_methods"])
		if !ok || len(methods) == 0 {
			c.add(f, CodeRounds, base+"/discovery_methods", "saturation_evidence[%d].discovery_methods must be non-empty (%s)", i, strings.Join(discoveryMethods, ", "))
			continue
		}
		seen := map[string]bool{}
		for j, mv := range methods {
			m, _ := mv.(string)
			if !slices.Contains(discoveryMethods, m) {
				c.add(f, CodeRounds, p(base+"/discovery_methods", j), "saturation_evidence[%d].discovery_methods value %s must be one of %s", i, pyfmt.Short(mv), strings.Join(discoveryMethods, ", "))
				continue
			}
			if seen[m] {
				c.add(f, CodeRounds, p(base+"/discovery_methods", j), "saturation_evidence[%d].discovery_methods must not repeat %s", i, pyfmt.Str(m))
			}
			seen[m] = true
			used[m] = true
		}
	}
	if core, ok := nonNegInt(cov["core_total"]); ok && newCores > core {
		c.add(f, CodeRoundsVsCores, "/coverage/saturation_evidence", "saturation rounds admit %d new core papers but coverage.core_total is %d; the round log must agree with the core set", newCores, core)
	}
	if !saturated {
		return
	}
	if len(rounds) == 0 {
		c.add(f, CodeSatClosure, "/coverage/saturation_evidence", "saturated survey has no measured expansion rounds in coverage.saturation_evidence; record the snowball rounds or declare coverage_incomplete")
	}
	var missing []string
	for _, m := range discoveryMethods {
		if !used[m] {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		c.add(f, CodeSatClosure, "/coverage/saturation_evidence", "saturated survey is missing discovery methods: %s", pyfmt.Value(missing))
	}
	last := map[string]any{}
	lastPtr := "/coverage/saturation_evidence"
	if len(rounds) > 0 {
		if m, ok := obj(rounds[len(rounds)-1]); ok {
			last = m
			lastPtr = p(lastPtr, len(rounds)-1)
		}
	}
	if n, ok := intVal(last["expansion_candidates_screened"]); !ok || n <= 0 {
		c.add(f, CodeSatClosure, lastPtr, "saturated survey's last round must screen at least one candidate")
	}
	if n, ok := intVal(last["new_core_papers"]); !ok || n != 0 {
		c.add(f, CodeSatClosure, lastPtr, "saturated survey's last round must add zero new core papers before saturated is legal")
	}
}

// checkReceipts runs R-1..R-10 on the compact receipts.
func checkReceipts(c *checker, f *File, cov map[string]any, saturated bool) {
	coreTotal, coreOK := nonNegInt(cov["core_total"])
	checkCoreTotal := func(base, name string, r map[string]any) {
		v, ok := nonNegInt(r["core_sources_total"])
		switch {
		case !ok:
			c.add(f, CodeReceipt, base+"/core_sources_total", "%s.core_sources_total must be a non-negative integer, got %s", name, pyfmt.Short(r["core_sources_total"]))
		case coreOK && v != coreTotal:
			c.add(f, CodeReceipt, base+"/core_sources_total", "%s.core_sources_total=%d must equal coverage.core_total=%d", name, v, coreTotal)
		}
	}
	ints := func(base, name string, r map[string]any, keys ...string) map[string]int64 {
		out := map[string]int64{}
		for _, k := range keys {
			v, ok := nonNegInt(r[k])
			if !ok {
				c.add(f, CodeReceipt, p(base, k), "%s.%s must be a non-negative integer, got %s", name, k, pyfmt.Short(r[k]))
				continue
			}
			out[k] = v
		}
		return out
	}
	const br, ma = "bibliography_reconciliation", "method_family_audit"
	if r, ok := obj(cov[br]); !ok {
		c.add(f, CodeReceipt, "/coverage/"+br, "coverage.%s must be an object (status, artifact_ref and counters)", br)
	} else {
		base := "/coverage/" + br
		if _, ok := str(r["artifact_ref"]); !ok {
			c.add(f, CodeReceipt, base+"/artifact_ref", "%s.artifact_ref is required: pin the detailed ledger as project://<path>#sha256:<hex>", br)
		}
		checkCoreTotal(base, br, r)
		n := ints(base, br, r, "core_sources_reconciled", "candidates_total", "candidates_dispositioned", "unresolved_candidates", "coverage_debt_candidates")
		if saturated {
			if r["status"] != "reconciled" {
				c.add(f, CodeReceiptOpen, base+"/status", "saturated coverage requires bibliography_reconciliation.status=reconciled, got %s", pyfmt.Short(r["status"]))
			}
			if v, ok := n["core_sources_reconciled"]; ok && coreOK && v != coreTotal {
				c.add(f, CodeReceiptOpen, base+"/core_sources_reconciled", "saturated coverage requires every core bibliography reconciled (%d of %d)", v, coreTotal)
			}
			if t, ok := n["candidates_total"]; ok {
				if d, ok := n["candidates_dispositioned"]; ok && d != t {
					c.add(f, CodeReceiptOpen, base+"/candidates_dispositioned", "saturated coverage requires an explicit disposition for every candidate (%d of %d)", d, t)
				}
			}
			if n["unresolved_candidates"] != 0 || n["coverage_debt_candidates"] != 0 {
				c.add(f, CodeReceiptOpen, base, "saturated coverage cannot retain unresolved or coverage-debt bibliography candidates")
			}
		}
	}
	if r, ok := obj(cov[ma]); !ok {
		c.add(f, CodeReceipt, "/coverage/"+ma, "coverage.%s must be an object (status, artifact_ref and counters)", ma)
	} else {
		base := "/coverage/" + ma
		if _, ok := str(r["artifact_ref"]); !ok {
			c.add(f, CodeReceipt, base+"/artifact_ref", "%s.artifact_ref is required: pin the detailed ledger as project://<path>#sha256:<hex>", ma)
		}
		checkCoreTotal(base, ma, r)
		n := ints(base, ma, r, "core_sources_audited", "taxonomy_families", "source_method_descriptions_audited", "cited_method_descriptions_audited", "unresolved_method_family_gaps")
		if saturated {
			if r["status"] != "audited" {
				c.add(f, CodeReceiptOpen, base+"/status", "saturated coverage requires method_family_audit.status=audited, got %s", pyfmt.Short(r["status"]))
			}
			aud, aok := n["core_sources_audited"]
			if aok && coreOK && aud != coreTotal {
				c.add(f, CodeReceiptOpen, base+"/core_sources_audited", "saturated coverage must audit every core source (%d of %d)", aud, coreTotal)
			}
			if t, ok := n["taxonomy_families"]; ok && coreOK && coreTotal > 0 && t == 0 {
				c.add(f, CodeReceiptOpen, base+"/taxonomy_families", "saturated coverage requires a non-empty method-family taxonomy")
			}
			if s, ok := n["source_method_descriptions_audited"]; ok && aok && s < aud {
				c.add(f, CodeReceiptOpen, base+"/source_method_descriptions_audited", "saturated coverage requires source-text method evidence for every audited core source (%d descriptions for %d sources)", s, aud)
			}
			if g, ok := n["unresolved_method_family_gaps"]; ok && g != 0 {
				c.add(f, CodeReceiptOpen, base+"/unresolved_method_family_gaps", "saturated coverage cannot retain unresolved method-family gaps (%d)", g)
			}
		}
	}
}

// checkSurveyPapers runs S-8 and the read-entry rules on core papers.
func checkSurveyPapers(c *checker, f *File, s map[string]any) {
	papers, _ := arr(s["papers"])
	for i, pv := range papers {
		base := p("/papers", i)
		paper, ok := obj(pv)
		if !ok {
			c.add(f, CodeReadEntry, base, "papers[%d] must be an object", i)
			continue
		}
		if paper["role"] == "core" {
			checkReadEntry(c, f, base, "papers["+itoa(i)+"]", paper, true)
		}
	}
}

// checkReadEntry runs E-1..E-16 on a survey core paper (sourceRead) or a
// matrix entry. Unlike the reference (W-10), a metadata_only or unavailable
// matrix entry is not asked for a source-fidelity audit of a read that never
// happened.
func checkReadEntry(c *checker, f *File, base, label string, e map[string]any, sourceRead bool) {
	rs, _ := e["read_status"].(string)
	if !slices.Contains(readStatuses, rs) {
		c.add(f, CodeReadEntry, base+"/read_status", "%s read_status %s must be one of %s", label, pyfmt.Short(e["read_status"]), strings.Join(readStatuses, ", "))
	} else if sourceRead && (rs == "metadata_only" || rs == "unavailable") {
		c.add(f, CodeReadEntry, base+"/read_status", "%s must be source-first read (full_text_read or section_read): metadata-only cannot anchor Gaia likelihood", label)
	}
	if _, ok := str(e["source_link"]); !ok && !nonEmptyList(e["source_links"]) {
		c.add(f, CodeReadEntry, base, "%s must record a source_link or source_links", label)
	}
	if _, ok := str(e["locator"]); !ok && !nonEmptyList(e["read_locators"]) {
		c.add(f, CodeReadEntry, base, "%s must record a locator or read_locators", label)
	}
	sections := entrySections(e)
	if rs == "section_read" && len(sections) == 0 {
		c.add(f, CodeReadEntry, base, "%s section_read must record sections_read or read_sections", label)
	}
	if rs == "full_text_read" {
		var missing []string
		for _, s := range fullSections {
			if !slices.Contains(sections, s) {
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 {
			c.add(f, CodeReadEntry, base, "%s full_text_read is missing sections %s", label, pyfmt.Value(missing))
		}
	}
	checkTriangulation(c, f, base, label, e["identity_triangulation"])
	if !sourceRead && (rs == "metadata_only" || rs == "unavailable") {
		if _, present := e["source_fidelity_audit"]; !present {
			return
		}
	}
	audit, ok := obj(e["source_fidelity_audit"])
	if !ok {
		c.add(f, CodeFidelity, base, "%s must record source_fidelity_audit for the deep-read summary", label)
		return
	}
	if audit["status"] != "pass" {
		c.add(f, CodeFidelity, base+"/source_fidelity_audit/status", "%s source_fidelity_audit status must be pass, got %s", label, pyfmt.Short(audit["status"]))
	}
	if _, ok := str(audit["auditor"]); !ok {
		c.add(f, CodeFidelity, base+"/source_fidelity_audit", "%s source_fidelity_audit auditor must be present", label)
	}
	if !nonEmptyList(audit["checked_locators"]) {
		c.add(f, CodeFidelity, base+"/source_fidelity_audit", "%s source_fidelity_audit checked_locators must be non-empty", label)
	}
}

// entrySections returns sections_read, else read_sections, as strings.
func entrySections(e map[string]any) []string {
	v := e["sections_read"]
	if !truthy(v) {
		v = e["read_sections"]
	}
	a, _ := arr(v)
	var out []string
	for _, x := range a {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// checkTriangulation runs E-7..E-12.
func checkTriangulation(c *checker, f *File, base, label string, v any) {
	tri, ok := obj(v)
	ptr := base + "/identity_triangulation"
	if !ok {
		c.add(f, CodeIdentity, base, "%s must record citation identity triangulation (identity_triangulation with verdict and providers)", label)
		return
	}
	consistent := tri["verdict"] == "consistent"
	if !consistent {
		c.add(f, CodeIdentity, ptr+"/verdict", "%s identity_triangulation verdict must be consistent, got %s", label, pyfmt.Short(tri["verdict"]))
	}
	provs, _ := arr(tri["providers"])
	if len(provs) < 2 {
		c.add(f, CodeIdentity, ptr+"/providers", "%s identity_triangulation providers must contain at least two provider records", label)
	}
	names := map[string]bool{}
	sets := map[string]map[string]bool{"titles": {}, "years": {}, "DOIs": {}, "arXiv ids": {}, "INSPIRE recids": {}}
	for j, pv := range provs {
		pp := p(ptr+"/providers", j)
		pr, ok := obj(pv)
		if !ok {
			c.add(f, CodeIdentity, pp, "%s identity_triangulation provider %d must be an object", label, j)
			continue
		}
		for _, k := range []string{"provider", "title", "year", "identifier"} {
			if scalarString(pr[k]) == "" || strings.TrimSpace(scalarString(pr[k])) == "" {
				c.add(f, CodeIdentity, pp, "%s identity_triangulation provider %d field %s must be present", label, j, k)
			}
		}
		if n := canonicalText(pr["provider"]); n != "" {
			if names[n] {
				c.add(f, CodeIdentity, pp+"/provider", "%s identity_triangulation providers must be independent provider names; %s repeats", label, pyfmt.Str(n))
			}
			names[n] = true
		}
		add := func(set, v string) {
			if v != "" {
				sets[set][v] = true
			}
		}
		add("titles", canonicalText(pr["title"]))
		add("years", canonicalYear(pr["year"]))
		if d := canonicalDOI(pr["doi"]); d != "" {
			add("DOIs", d)
		} else {
			add("DOIs", canonicalDOI(pr["identifier"]))
		}
		add("arXiv ids", canonicalArxiv(pr["identifier"]))
		add("INSPIRE recids", canonicalRecid(pr["identifier"]))
	}
	if consistent {
		for _, set := range []string{"titles", "years", "DOIs", "arXiv ids", "INSPIRE recids"} {
			if len(sets[set]) > 1 {
				c.add(f, CodeIdentity, ptr, "%s identity_triangulation has conflicting %s despite verdict=consistent: %s", label, set, pyfmt.Value(sortedKeys(sets[set])))
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
