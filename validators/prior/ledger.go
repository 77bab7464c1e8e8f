package prior

import (
	"fmt"
	"github.com/nullius-dev/nullius/internal/digest"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/pycase"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/workdir"
)

// The ledger binding (§2.4): the survey's receipts pin one detailed ledger,
// which is resolved, and every receipt number is recomputed from it.

// candidate is what the binding remembers of one ledger candidate.
type candidate struct {
	id, disposition string
	resolved        bool
	keys            map[string]bool
	title, year     string
	claims          map[[2]string]bool // (source_id, locator) of bibliography discoveries
}

// binder carries the state of one ledger binding.
type binder struct {
	c        *checker
	root     string
	survey   *File
	ledger   *File
	declared string // ledger final_status
	debt     bool   // a strict completeness rule failed (honest debt when declared coverage_incomplete)
	// start is the number of findings before the ledger was checked, and
	// unreported is set when the ledger is incomplete for a reason no
	// finding names (honest debt); together they tell whether a derived
	// status is incomplete only because of errors already reported
	// (explained), so it is not refused a second time.
	start      int
	unreported bool
	// methodExplained: the derived method status is coverage_debt only
	// because of structural errors reported as PRIOR044 (no gaps).
	methodExplained bool
	cands           map[string]*candidate
	order           []string
	selected        []string
	reconciled      map[string][]string // source id -> reconciled candidate ids
}

// strict reports a completeness failure: an error when the ledger declares
// saturated, recorded debt when it declares coverage_incomplete (W-5 fix:
// the reference made such debt unrepresentable).
func (b *binder) strict(code *diag.Rule, ptr, format string, args ...any) {
	b.debt = true
	if b.declared == "saturated" {
		b.c.add(b.ledger, code, ptr, format, args...)
	} else {
		b.unreported = true
	}
}

// explained reports that the ledger is incomplete only for reasons its
// findings already name: the recomputed closure then adds nothing, and
// one mistake is refused once (a saturated ledger whose citation graph
// has a gap is PRIOR045, not PRIOR045 and PRIOR048).
func (b *binder) explained() bool { return b.c.count() > b.start && !b.unreported }

// checkMethodStatus runs L-10: the ledger's declared method status equals
// the one derived from its screening records, unless the derived status
// is debt only because of structural errors already reported.
func (b *binder) checkMethodStatus(m any, derived string) {
	lm, ok := obj(m)
	if !ok || lm["status"] == derived || (derived == "coverage_debt" && b.methodExplained) {
		return
	}
	b.errf(CodeReceiptMismatch, "/method_family_audit/status", "detailed ledger method_family_audit.status %s does not match the status %s derived from screening records", pyfmt.Short(lm["status"]), pyfmt.Str(derived))
}

// closure is the coverage closure recomputed from the ledger's parts:
// saturated only with no debt, the bibliography reconciled, the method
// families audited (method: the status derived from the screening
// records) and at least one core source (W-6: an empty core set is not
// saturated, PRIOR501).
func (b *binder) closure(bib map[string]any, method string) string {
	if b.debt || bib["status"] != "reconciled" || method != "audited" || len(b.selected) == 0 {
		return "coverage_incomplete"
	}
	return "saturated"
}

// checkClosure runs L-14: final_status equals the recomputed closure. A
// saturated ledger whose incompleteness is explained by its findings is
// not refused again.
func (b *binder) checkClosure(l map[string]any, closure string) {
	if b.declared == closure || (b.declared == "saturated" && b.explained()) {
		return
	}
	b.errf(CodeLedgerStatus, "/final_status", "detailed ledger final_status %s does not match recomputed coverage closure %s", pyfmt.Short(l["final_status"]), pyfmt.Str(closure))
}

func (b *binder) errf(code *diag.Rule, ptr, format string, args ...any) {
	b.c.add(b.ledger, code, ptr, format, args...)
}

// bindLedger runs L-0..L-15 and returns the ledger's final_status ("" when
// the binding aborted).
func bindLedger(c *checker, survey *File, s, cov map[string]any, root string, surveyStatus string) string {
	const br, ma = "bibliography_reconciliation", "method_family_audit"
	if root == "" {
		c.add(survey, CodeLedgerPin, "/coverage", "project_root is required to resolve and recompute the pinned ledger; create .nullius/ at the project root or pass --project-root")
		return ""
	}
	rb, ok1 := obj(cov[br])
	rm, ok2 := obj(cov[ma])
	if !ok1 || !ok2 {
		c.add(survey, CodeLedgerPin, "/coverage", "coverage receipts must be objects before binding the detailed ledger")
		return ""
	}
	ref, _ := rb["artifact_ref"].(string)
	if ref2, _ := rm["artifact_ref"].(string); ref != ref2 {
		c.add(survey, CodeLedgerPin, "/coverage/"+ma+"/artifact_ref", "receipts must pin the same combined ledger: bibliography_reconciliation.artifact_ref %s differs from method_family_audit.artifact_ref %s (cross-artifact receipt reuse is forbidden)", pyfmt.Str(ref), pyfmt.Str(ref2))
		return ""
	}
	src, real, err := ResolvePinned(root, ref)
	if err != nil {
		c.add(survey, CodeLedgerPin, "/coverage/"+br+"/artifact_ref", "detailed ledger artifact_ref %v", err)
		return ""
	}
	lf, ds := ParseFile(workdir.Rel(real), src)
	c.put(ds...)
	l, ok := requireObject(c, lf, CodeLedgerPin, "detailed ledger")
	if !ok {
		return ""
	}
	b := &binder{c: c, root: root, survey: survey, ledger: lf, cands: map[string]*candidate{}, reconciled: map[string][]string{}, start: c.count()}
	b.declared, _ = l["final_status"].(string)
	b.providers(l["providers"])
	if _, ok := str(l["stop_reason"]); !ok {
		b.errf(CodeLedgerStatus, "/stop_reason", "detailed ledger stop_reason is required")
	}
	if !b.candidatePool(l["candidate_pool"]) {
		return b.declared
	}
	bib := b.bibliography(l[br])
	for _, k := range []string{"status", "core_sources_total", "core_sources_reconciled", "candidates_total", "candidates_dispositioned", "unresolved_candidates", "coverage_debt_candidates"} {
		b.compare(rb, br, k, bib[k])
	}
	meth, derived := b.methodAudit(l[ma])
	b.checkMethodStatus(l[ma], derived)
	for _, k := range []string{"status", "core_sources_total", "core_sources_audited", "taxonomy_families", "source_method_descriptions_audited", "cited_method_descriptions_audited", "unresolved_method_family_gaps"} {
		b.compare(rm, ma, k, meth[k])
	}
	b.citationGraph(l["citation_graph"])
	b.bindSurveyCores(s)
	if len(b.selected) == 0 && (b.declared == "saturated" || surveyStatus == "saturated") {
		c.add(survey, CodeEmptySaturation, "/coverage", "detailed ledger selects no core sources (selected_core_ids is empty); an empty ledger is not saturated, record coverage_incomplete")
	}
	b.checkClosure(l, b.closure(bib, derived))
	switch {
	case surveyStatus == "saturated" && b.declared != "saturated" && !receiptDebtReported(c, survey):
		// L-15, unless the survey's own receipts were already refused for
		// carrying the debt (PRIOR031): the same claim refused once.
		c.add(survey, CodeLedgerStatus, "/coverage/saturation", "saturated survey requires detailed ledger final_status=saturated, got %s", pyfmt.Short(l["final_status"]))
	case surveyStatus != "saturated" && b.declared != "saturated" && b.declared != "coverage_incomplete":
		c.add(survey, CodeLedgerStatus, "/coverage/saturation", "detailed ledger final_status %s is invalid: must be saturated or coverage_incomplete", pyfmt.Short(l["final_status"]))
	}
	return b.declared
}

// receiptDebtReported reports whether the survey's compact receipts were
// refused for carrying debt under a saturated claim (PRIOR031).
func receiptDebtReported(c *checker, survey *File) bool {
	return survey != nil && c.ds.Has(CodeReceiptOpen, survey.Path)
}

// compare checks one receipt field against its recomputed value (L-8/L-11).
func (b *binder) compare(receipt map[string]any, name, key string, want any) {
	got := receipt[key]
	match := false
	switch w := want.(type) {
	case string:
		match = got == w
	case int:
		i, ok := intVal(got)
		match = ok && i == int64(w)
	}
	if !match {
		b.c.add(b.survey, CodeReceiptMismatch, "/coverage/"+name+"/"+key, "%s.%s=%s does not match detailed ledger value %v", name, key, pyfmt.Short(got), want)
	}
}

// providers runs PA-1..PA-10.
func (b *binder) providers(v any) {
	provs, ok := obj(v)
	if !ok || len(provs) == 0 {
		b.errf(CodeProviders, "/providers", "detailed ledger providers must include bounded query/page or cursor accounting")
		b.debt = true
		return
	}
	queried := 0
	for _, name := range sortedMapKeys(provs) {
		base := p("/providers", name)
		pr, ok := obj(provs[name])
		if !ok {
			b.errf(CodeProviders, base, "detailed ledger providers.%s must be an object", name)
			continue
		}
		st, _ := pr["status"].(string)
		switch st {
		case "not_applicable", "unavailable":
			if _, ok := str(pr["reason"]); !ok {
				b.errf(CodeProviders, base, "detailed ledger providers.%s with status %s needs a reason", name, st)
			}
			continue
		case "queried":
			queried++
		default:
			b.errf(CodeProviders, base+"/status", "detailed ledger providers.%s status %s must be queried, not_applicable or unavailable", name, pyfmt.Short(pr["status"]))
			continue
		}
		qv := pr["queries"]
		if qv == nil {
			qv = pr["query_variants"]
		}
		queries, all := strList(qv)
		if len(queries) == 0 || !all || len(uniq(queries)) != len(queries) {
			b.errf(CodeProviders, base+"/queries", "detailed ledger providers.%s queries must be a non-empty list of distinct non-empty strings", name)
		}
		returned, rok := nonNegInt(pr["returned_count"])
		if !rok {
			b.errf(CodeProviders, base+"/returned_count", "detailed ledger providers.%s returned_count must be a non-negative integer", name)
		}
		if total, ok := nonNegInt(pr["total_count"]); ok {
			if rok && total < returned {
				b.errf(CodeProviders, base+"/total_count", "detailed ledger providers.%s total_count %d is below returned_count %d", name, total, returned)
			} else if rok && total != returned {
				b.strict(CodeProviders, base+"/total_count", "detailed ledger providers.%s known total_count must be fully returned before saturation (%d of %d)", name, returned, total)
			}
		} else if pr["total_count_unknown"] != true {
			b.errf(CodeProviders, base+"/total_count", "detailed ledger providers.%s needs an integer total_count or total_count_unknown: true", name)
		}
		if _, ok := str(pr["stop_reason"]); !ok {
			b.errf(CodeProviders, base+"/stop_reason", "detailed ledger providers.%s stop_reason is required", name)
		}
		bounds, _ := obj(pr["execution_bounds"])
		maxReq, ok1 := intVal(bounds["max_requests"])
		maxRec, ok2 := intVal(bounds["max_records"])
		if !ok1 || !ok2 || maxReq <= 0 || maxRec <= 0 {
			b.errf(CodeProviders, base+"/execution_bounds", "detailed ledger providers.%s execution_bounds.max_requests and max_records must be positive integers", name)
		}
		log, _ := arr(pr["request_log"])
		if len(log) == 0 {
			b.errf(CodeProviders, base+"/request_log", "detailed ledger providers.%s request_log must be non-empty", name)
		}
		seen := map[[2]string]bool{}
		last := map[string]string{}
		exhausted := map[string]bool{}
		var sum int64
		for i, ev := range log {
			lp := p(base+"/request_log", i)
			e, ok := obj(ev)
			if !ok {
				b.errf(CodeProviders, lp, "detailed ledger providers.%s request_log[%d] must be an object", name, i)
				continue
			}
			q, _ := e["query"].(string)
			if !slices.Contains(queries, strings.TrimSpace(q)) {
				b.errf(CodeProviders, lp+"/query", "detailed ledger providers.%s request_log[%d].query %s is not a declared query", name, i, pyfmt.Short(e["query"]))
			}
			pc, ok := str(e["page_or_cursor"])
			if !ok {
				b.errf(CodeProviders, lp+"/page_or_cursor", "detailed ledger providers.%s request_log[%d].page_or_cursor is required", name, i)
			}
			if seen[[2]string{q, pc}] {
				b.errf(CodeProviders, lp, "detailed ledger providers.%s request_log[%d] repeats query/page %s %s", name, i, pyfmt.Str(q), pyfmt.Str(pc))
			}
			seen[[2]string{q, pc}] = true
			n, ok := nonNegInt(e["returned_count"])
			if !ok {
				b.errf(CodeProviders, lp+"/returned_count", "detailed ledger providers.%s request_log[%d].returned_count must be a non-negative integer", name, i)
			}
			sum += n
			cont, _ := e["continuation"].(string)
			if cont != "continued" && cont != "exhausted" && cont != "bounded_stop" {
				b.errf(CodeProviders, lp+"/continuation", "detailed ledger providers.%s request_log[%d].continuation must be continued, exhausted or bounded_stop", name, i)
			}
			if exhausted[q] {
				b.strict(CodeProviders, lp, "detailed ledger providers.%s request_log[%d] follows an exhausted entry for query %s", name, i, pyfmt.Str(q))
			}
			if cont == "exhausted" {
				exhausted[q] = true
			}
			last[q] = cont
		}
		if ok1 && maxReq > 0 && int64(len(log)) > maxReq {
			b.errf(CodeProviders, base+"/request_log", "detailed ledger providers.%s request_log has %d requests, above execution_bounds.max_requests %d", name, len(log), maxReq)
		}
		if ok2 && maxRec > 0 && sum > maxRec {
			b.errf(CodeProviders, base+"/request_log", "detailed ledger providers.%s request_log returned %d records, above execution_bounds.max_records %d", name, sum, maxRec)
		}
		if rok && sum != returned {
			b.errf(CodeProviders, base+"/returned_count", "detailed ledger providers.%s returned_count %d does not equal the request_log sum %d", name, returned, sum)
		}
		for _, q := range queries {
			c, ok := last[q]
			switch {
			case !ok:
				b.strict(CodeProviders, base+"/request_log", "detailed ledger providers.%s: every declared query must have request_log coverage; %s has none", name, pyfmt.Str(q))
			case c != "exhausted":
				b.strict(CodeProviders, base+"/request_log", "detailed ledger providers.%s query %s stopped with %s; its last request must be exhausted before saturation", name, pyfmt.Str(q), pyfmt.Str(c))
			}
		}
	}
	if queried == 0 {
		b.strict(CodeProviders, "/providers", "detailed ledger providers must include at least one queried provider")
	}
}

var (
	dispositions = []string{"core", "supporting", "background", "duplicate", "out_of_scope", "coverage_debt"}
)

// candidatePool runs C-0..C-8 and the identity rules; false aborts the
// binding (C-0).
func (b *binder) candidatePool(v any) bool {
	pool, ok := obj(v)
	if !ok {
		b.errf(CodeCandidates, "/candidate_pool", "detailed ledger candidate_pool must be an object")
		b.debt = true
		return false
	}
	sel, all := strList(pool["selected_core_ids"])
	if _, isList := arr(pool["selected_core_ids"]); !isList || !all {
		b.errf(CodeCandidates, "/candidate_pool/selected_core_ids", "candidate_pool.selected_core_ids must be a list of non-empty strings")
	}
	if len(uniq(sel)) != len(sel) {
		b.errf(CodeCandidates, "/candidate_pool/selected_core_ids", "candidate_pool.selected_core_ids must not repeat ids")
	}
	b.selected = uniq(sel)
	cands, ok := arr(pool["candidates"])
	if !ok {
		b.errf(CodeCandidates, "/candidate_pool/candidates", "candidate_pool.candidates must be a list")
	}
	if n, ok := intVal(pool["total_candidates"]); !ok || n != int64(len(cands)) {
		b.errf(CodeCandidates, "/candidate_pool/total_candidates", "candidate_pool.total_candidates %s must equal the number of candidates %d", pyfmt.Short(pool["total_candidates"]), len(cands))
	}
	for _, k := range []string{"artifact", "selection_rationale"} {
		if _, ok := str(pool[k]); !ok {
			b.errf(CodeCandidates, "/candidate_pool/"+k, "candidate_pool.%s must be a non-empty string", k)
		}
	}
	owner := map[string]string{}
	for i, cv := range cands {
		base := p("/candidate_pool/candidates", i)
		cd := b.candidate(base, i, cv)
		if cd == nil {
			continue
		}
		for _, k := range sortedKeys(cd.keys) {
			if o, taken := owner[k]; taken && o != cd.id {
				b.errf(CodeCandidates, base, "canonical identity %s of candidate %s is already occupied by %s; merge aliases into one candidate", k, pyfmt.Str(cd.id), pyfmt.Str(o))
				continue
			}
			owner[k] = cd.id
		}
	}
	for _, id := range b.selected {
		cd, ok := b.cands[id]
		if !ok || cd.disposition != "core" {
			b.errf(CodeCandidates, "/candidate_pool/selected_core_ids", "selected core %s must be a candidate with disposition core", pyfmt.Str(id))
		}
	}
	var absent, debt []string
	for _, id := range b.order {
		cd := b.cands[id]
		if cd.disposition == "core" && !slices.Contains(b.selected, id) {
			absent = append(absent, id)
		}
		if !cd.resolved || cd.disposition == "coverage_debt" {
			debt = append(debt, id)
		}
		for cl := range cd.claims {
			if !slices.Contains(b.selected, cl[0]) {
				b.errf(CodeCandidates, "/candidate_pool/candidates", "candidate %s bibliography discovery source %s is not a selected core source", pyfmt.Str(id), pyfmt.Str(cl[0]))
			}
		}
	}
	if len(absent) > 0 {
		b.errf(CodeCandidates, "/candidate_pool/selected_core_ids", "core-disposition candidate(s) absent from selected_core_ids: %s", pyfmt.Value(absent))
	}
	if len(debt) > 0 {
		b.debt = true
		if b.declared == "saturated" {
			b.errf(CodeCandidates, "/candidate_pool", "saturated ledger cannot retain unresolved/coverage-debt candidates: %s", pyfmt.Value(debt))
		} else {
			b.unreported = true
		}
	}
	return true
}

// candidate validates one candidate (C-4, C-6, I-rules).
func (b *binder) candidate(base string, i int, v any) *candidate {
	c, ok := obj(v)
	if !ok {
		b.errf(CodeCandidates, base, "candidate_pool.candidates[%d] must be an object", i)
		return nil
	}
	id, ok := str(c["id"])
	if !ok {
		b.errf(CodeCandidates, base+"/id", "candidate_pool.candidates[%d].id must be a non-empty string", i)
		return nil
	}
	if _, dup := b.cands[id]; dup {
		b.errf(CodeCandidates, base+"/id", "candidate id %s is duplicated", pyfmt.Str(id))
		return nil
	}
	cd := &candidate{id: id, keys: map[string]bool{}, claims: map[[2]string]bool{}}
	b.cands[id] = cd
	b.order = append(b.order, id)
	is, _ := c["identity_status"].(string)
	switch is {
	case "resolved":
		cd.resolved = true
		if _, has := c["stable_ids"]; has {
			b.errf(CodeCandidates, base+"/stable_ids", "resolved candidate %s must not carry stable_ids; use canonical_identity.aliases", pyfmt.Str(id))
		}
		b.identity(base+"/canonical_identity", cd, c["canonical_identity"])
	case "unresolved":
		if c["canonical_identity"] != nil {
			b.errf(CodeCandidates, base+"/canonical_identity", "unresolved candidate %s must not carry canonical_identity", pyfmt.Str(id))
		}
	default:
		b.errf(CodeCandidates, base+"/identity_status", "candidate %s identity_status %s must be resolved or unresolved", pyfmt.Str(id), pyfmt.Short(c["identity_status"]))
	}
	cd.disposition, _ = c["disposition"].(string)
	if !slices.Contains(dispositions, cd.disposition) {
		b.errf(CodeCandidates, base+"/disposition", "candidate %s disposition %s must be one of %s", pyfmt.Str(id), pyfmt.Short(c["disposition"]), strings.Join(dispositions, ", "))
		cd.disposition = ""
	} else if !cd.resolved && cd.disposition != "coverage_debt" {
		b.errf(CodeCandidates, base+"/disposition", "unresolved candidate %s must have disposition coverage_debt", pyfmt.Str(id))
	}
	if _, ok := str(c["rationale"]); !ok {
		b.errf(CodeCandidates, base+"/rationale", "candidate %s rationale must be non-empty", pyfmt.Str(id))
	}
	disc, _ := arr(c["discovered_from"])
	if len(disc) == 0 {
		b.errf(CodeCandidates, base+"/discovered_from", "candidate %s discovered_from must be a non-empty list", pyfmt.Str(id))
	}
	for j, dv := range disc {
		d, ok := obj(dv)
		kindv, _ := d["kind"].(string)
		src, ok1 := str(d["source_id"])
		loc, ok2 := str(d["locator"])
		if !ok || !slices.Contains([]string{"search", "bibliography", "citation"}, kindv) || !ok1 || !ok2 {
			b.errf(CodeCandidates, p(base+"/discovered_from", j), "candidate %s discovered_from[%d] needs kind (search, bibliography, citation), source_id and locator", pyfmt.Str(id), j)
			continue
		}
		if kindv == "bibliography" {
			k := [2]string{src, loc}
			if cd.claims[k] {
				b.errf(CodeCandidates, p(base+"/discovered_from", j), "candidate %s repeats bibliography claim %s %s", pyfmt.Str(id), pyfmt.Str(src), pyfmt.Str(loc))
			}
			cd.claims[k] = true
		}
	}
	return cd
}

var provenanceKinds = []string{"archived_canonical_metadata", "authoritative_retrieval", "citation_triangulation"}

// identity runs I-1..I-10 for a resolved candidate.
func (b *binder) identity(base string, cd *candidate, v any) {
	before := b.c.count()
	ci, ok := obj(v)
	if !ok {
		b.errf(CodeCandidates, base, "resolved candidate %s requires canonical_identity", pyfmt.Str(cd.id))
		return
	}
	canon := ""
	if s, ok := ci["canonical_id"].(string); ok {
		canon = CanonicalKey(s)
	}
	if canon == "" {
		b.errf(CodeCandidates, base+"/canonical_id", "candidate %s canonical_id %s must be a stable locator (DOI, provider:<ns>:<id> or http(s) URL)", pyfmt.Str(cd.id), pyfmt.Short(ci["canonical_id"]))
	}
	t, _ := ci["title"].(string)
	cd.title = NormalizeTitle(t)
	cd.year = NormalizeYear(ci["year"])
	if cd.title == "" {
		b.errf(CodeCandidates, base+"/title", "candidate %s canonical title must be non-empty", pyfmt.Str(cd.id))
	}
	if cd.year == "" {
		b.errf(CodeCandidates, base+"/year", "candidate %s canonical year must be a 4-digit year", pyfmt.Str(cd.id))
	}
	var authors []string
	if av, has := ci["authors"]; has {
		as, all := strList(av)
		if len(as) == 0 || !all {
			b.errf(CodeCandidates, base+"/authors", "candidate %s authors must be a non-empty list of names", pyfmt.Str(cd.id))
		}
		for _, a := range as {
			authors = append(authors, familyName(a))
		}
	}
	if u, has := ci["url"]; has && u != nil {
		k := ""
		if s, ok := u.(string); ok {
			k = CanonicalKey(s)
		}
		if !strings.HasPrefix(k, "url:") && !strings.HasPrefix(k, "doi:") {
			b.errf(CodeCandidates, base+"/url", "candidate %s display url %s must be an http(s) or DOI URL", pyfmt.Str(cd.id), pyfmt.Short(u))
		}
	}
	keys := map[string]bool{}
	if canon != "" {
		keys[canon] = true
	}
	aliases, _ := arr(ci["aliases"])
	var aliasKeys []string
	for j, a := range aliases {
		s, _ := a.(string)
		k := CanonicalKey(s)
		if k == "" {
			b.errf(CodeCandidates, p(base+"/aliases", j), "candidate %s alias %s must be a stable locator", pyfmt.Str(cd.id), pyfmt.Short(a))
			continue
		}
		keys[k] = true
		aliasKeys = append(aliasKeys, k)
	}
	prov, ok := obj(ci["provenance"])
	pb := base + "/provenance"
	if !ok {
		b.errf(CodeCandidates, pb, "candidate %s canonical_identity.provenance must be an object", pyfmt.Str(cd.id))
		cd.keys = keys
		return
	}
	kindv, _ := prov["kind"].(string)
	if !slices.Contains(provenanceKinds, kindv) {
		b.errf(CodeCandidates, pb+"/kind", "candidate %s provenance.kind %s must be one of %s", pyfmt.Str(cd.id), pyfmt.Short(prov["kind"]), strings.Join(provenanceKinds, ", "))
	}
	provider, ok := str(prov["provider"])
	if !ok {
		b.errf(CodeCandidates, pb+"/provider", "candidate %s provenance.provider must be non-empty", pyfmt.Str(cd.id))
	}
	if strings.HasPrefix(canon, "provider:") && kindv != "citation_triangulation" {
		ns := strings.SplitN(canon, ":", 3)[1]
		if pycase.Casefold(provider) != ns {
			b.errf(CodeCandidates, pb+"/provider", "candidate %s provenance.provider %s must be %s, the namespace of its canonical id", pyfmt.Str(cd.id), pyfmt.Str(provider), pyfmt.Str(ns))
		}
	}
	sha, _ := prov["record_sha256"].(string)
	if !digest.IsSHA256(sha) {
		b.errf(CodeCandidates, pb+"/record_sha256", "candidate %s provenance.record_sha256 must be sha256:<64 lowercase hex>", pyfmt.Str(cd.id))
	}
	rr, _ := prov["record_ref"].(string)
	r, err := ParseRef(rr)
	if err != nil {
		b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance.record_ref %s must be an exact pinned project JSON reference: %v", pyfmt.Str(cd.id), pyfmt.Short(prov["record_ref"]), err)
		cd.keys = keys
		return
	}
	if sha != "sha256:"+r.Hex {
		b.errf(CodeCandidates, pb+"/record_sha256", "candidate %s provenance.record_sha256 does not equal the record_ref digest", pyfmt.Str(cd.id))
	}
	src, _, err := ResolvePinned(b.root, rr)
	if err != nil {
		b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance.record_ref does not resolve: %v", pyfmt.Str(cd.id), err)
		cd.keys = keys
		return
	}
	rf, ds := ParseFile(r.Path, src)
	if len(ds) > 0 {
		b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record %s is not valid JSON", pyfmt.Str(cd.id), r.Path)
		cd.keys = keys
		return
	}
	rec, _ := obj(rf.Value())
	blocks, _ := arr(rec["providers"])
	if len(blocks) == 0 {
		b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record %s must have a non-empty providers list", pyfmt.Str(cd.id), r.Path)
		cd.keys = keys
		return
	}
	recordKeys := map[string]bool{}
	var names []string
	titles, years, dois := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for j, bv := range blocks {
		blk, msg := checkBlock(bv)
		if msg != "" {
			b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record %s providers[%d]: %s", pyfmt.Str(cd.id), r.Path, j, msg)
			continue
		}
		name := pycase.Casefold(strings.TrimSpace(blk["provider"].(string)))
		names = append(names, name)
		if d, ok := blk["doi"].(string); ok {
			dn := NormalizeDOI(d)
			recordKeys["doi:"+dn] = true
			dois[dn] = true
		}
		if id := scalarString(blk["identifier"]); id != "" {
			recordKeys["provider:"+name+":"+strings.TrimSpace(normNFKC(id))] = true
			if k := CanonicalKey(id); k != "" {
				recordKeys[k] = true
			}
		}
		if tv, ok := blk["title"].(string); ok {
			ft := strings.ReplaceAll(foldText(tv), " ", "")
			titles[ft] = true
			if ft != strings.ReplaceAll(foldText(t), " ", "") {
				b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record %s providers[%d] title does not match canonical candidate metadata", pyfmt.Str(cd.id), r.Path, j)
			}
		}
		if y := NormalizeYear(blk["year"]); y != "" {
			years[y] = true
			if y != cd.year {
				b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record %s providers[%d] year does not match canonical candidate metadata", pyfmt.Str(cd.id), r.Path, j)
			}
		}
		if as, ok := arr(blk["authors"]); ok && authors != nil {
			var fam []string
			for _, a := range as {
				s, _ := a.(string)
				fam = append(fam, familyName(s))
			}
			if !slices.Equal(fam, authors) {
				b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record %s providers[%d] authors do not match canonical candidate metadata", pyfmt.Str(cd.id), r.Path, j)
			}
		}
	}
	if kindv == "citation_triangulation" {
		if len(titles) > 1 || len(years) > 1 || len(dois) > 1 || len(uniq(names)) < 2 {
			b.errf(CodeCandidates, pb+"/record_ref", "candidate %s citation_triangulation record %s is not consistent (needs two independent providers agreeing on title, year and DOI)", pyfmt.Str(cd.id), r.Path)
		}
	} else if provider != "" && !slices.Contains(names, pycase.Casefold(provider)) {
		b.errf(CodeCandidates, pb+"/provider", "candidate %s provenance.provider %s is not among the record's providers", pyfmt.Str(cd.id), pyfmt.Str(provider))
	}
	ck, _ := rec["citation_key"].(string)
	if CanonicalKey(ck) != canon {
		b.errf(CodeCandidates, pb+"/record_ref", "candidate %s provenance record citation_key %s does not canonicalize to %s", pyfmt.Str(cd.id), pyfmt.Short(rec["citation_key"]), canon)
	}
	for _, k := range append([]string{canon}, aliasKeys...) {
		if k != "" && !recordKeys[k] {
			b.errf(CodeCandidates, pb+"/record_ref", "candidate %s identity key %s is not proven by its archived provenance record", pyfmt.Str(cd.id), k)
		}
	}
	// I-10: record keys join the identity only when the whole identity
	// checked out; a failed identity cannot vouch for its record's keys.
	if b.c.count() == before {
		for k := range recordKeys {
			keys[k] = true
		}
	}
	cd.keys = keys
}

var blockKeys = []string{"authors", "doi", "identifier", "provider", "title", "venue", "year"}

// checkBlock validates a citation-triangulation provider block.
func checkBlock(v any) (map[string]any, string) {
	blk, ok := obj(v)
	if !ok {
		return nil, "must be an object"
	}
	got := sortedMapKeys(blk)
	if !slices.Equal(got, blockKeys) {
		return nil, fmt.Sprintf("must have exactly the keys %s", strings.Join(blockKeys, ", "))
	}
	if _, ok := str(blk["provider"]); !ok {
		return nil, "provider must be non-empty"
	}
	if t, ok := blk["title"].(string); blk["title"] != nil && (!ok || foldText(t) == "") {
		return nil, "title must fold to a non-empty string"
	}
	if blk["authors"] != nil {
		as, ok := arr(blk["authors"])
		if !ok || len(as) == 0 {
			return nil, "authors must be a non-empty list"
		}
		for _, a := range as {
			if s, ok := a.(string); !ok || familyName(s) == "" {
				return nil, fmt.Sprintf("author %s has no family name", pyfmt.Short(a))
			}
		}
	}
	if y := blk["year"]; y != nil {
		ys := scalarString(y)
		if _, isBool := y.(bool); isBool || !yearRE.MatchString(strings.TrimSpace(ys)) || ys < "1000" {
			return nil, fmt.Sprintf("year %s must be a 4-digit year", pyfmt.Short(y))
		}
	}
	if d := blk["doi"]; d != nil {
		s, ok := d.(string)
		if !ok || !strings.HasPrefix(NormalizeDOI(s), "10.") {
			return nil, fmt.Sprintf("doi %s must normalize to 10.<prefix>/<suffix>", pyfmt.Short(d))
		}
	}
	for _, k := range []string{"venue", "identifier"} {
		if x := blk[k]; x != nil {
			if s := scalarString(x); strings.TrimSpace(s) == "" {
				return nil, k + " must be a non-empty string or null"
			}
		}
	}
	return blk, ""
}

func uniq(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
