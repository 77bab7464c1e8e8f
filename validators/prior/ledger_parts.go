package prior

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pycase"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// bibliography runs B-1..B-8 and returns the recomputed receipt (B-X).
func (b *binder) bibliography(v any) map[string]any {
	before := b.c.count()
	bib, _ := obj(v)
	sources, ok := arr(bib["core_sources"])
	if !ok {
		b.errf(CodeBibliography, "/bibliography_reconciliation/core_sources", "bibliography_reconciliation.core_sources must be a list")
	}
	allReconciled := true
	reconciledCount := 0
	var ids []string
	for i, sv := range sources {
		base := p("/bibliography_reconciliation/core_sources", i)
		s, ok := obj(sv)
		id, idok := str(s["id"])
		if !ok || !idok || slices.Contains(ids, id) {
			b.errf(CodeBibliography, base, "bibliography core_sources[%d] must be an object with a unique id", i)
			allReconciled = false
			continue
		}
		ids = append(ids, id)
		st, _ := s["status"].(string)
		switch st {
		case "reconciled":
			reconciledCount++
		case "coverage_debt":
			allReconciled = false
			b.unreported = true // honest debt: no finding names it
		default:
			b.errf(CodeBibliography, base+"/status", "bibliography source %s status %s must be reconciled or coverage_debt", pyfmt.Str(id), pyfmt.Short(s["status"]))
			allReconciled = false
		}
		cids, all := strList(s["candidate_ids"])
		if _, isList := arr(s["candidate_ids"]); !isList || !all || len(uniq(cids)) != len(cids) {
			b.errf(CodeBibliography, base+"/candidate_ids", "bibliography source %s candidate_ids must be a list of distinct non-empty strings", pyfmt.Str(id))
		}
		var wantIDs []string
		for _, cid := range b.order {
			for cl := range b.cands[cid].claims {
				if cl[0] == id {
					wantIDs = append(wantIDs, cid)
				}
			}
		}
		wantIDs = uniq(wantIDs)
		slices.Sort(wantIDs)
		for _, cid := range cids {
			if _, known := b.cands[cid]; !known {
				b.errf(CodeBibliography, base+"/candidate_ids", "bibliography source %s names unknown candidate %s", pyfmt.Str(id), pyfmt.Str(cid))
			}
		}
		if !sameSet(cids, wantIDs) {
			b.errf(CodeBibliography, base+"/candidate_ids", "bibliography source %s candidate_ids %s do not equal the candidates discovered from its bibliography %s", pyfmt.Str(id), pyfmt.Value(cids), pyfmt.Value(wantIDs))
		}
		if st == "reconciled" {
			b.reconciled[id] = cids
		}
		debt, ok := arr(s["coverage_debt"])
		if !ok {
			b.errf(CodeBibliography, base+"/coverage_debt", "bibliography source %s coverage_debt must be a list", pyfmt.Str(id))
		} else if st == "reconciled" && len(debt) > 0 {
			b.errf(CodeBibliography, base+"/coverage_debt", "reconciled bibliography source %s must have an empty coverage_debt", pyfmt.Str(id))
		}
		ref, _ := s["references_artifact_ref"].(string)
		src, _, err := ResolvePinned(b.root, ref)
		if err != nil {
			b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography source %s references_artifact_ref %v", pyfmt.Str(id), err)
			continue
		}
		mf, ds := ParseFile(ref, src)
		man, _ := obj(mf.Value())
		if len(ds) > 0 || man == nil {
			b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography source %s manifest is not a JSON object", pyfmt.Str(id))
			continue
		}
		if man["source_id"] != id {
			b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest source_id %s does not equal source %s", pyfmt.Short(man["source_id"]), pyfmt.Str(id))
		}
		refs, ok := arr(man["references"])
		if !ok {
			b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest for %s references must be a list", pyfmt.Str(id))
		}
		if n, ok := intVal(s["references_extracted"]); !ok || n != int64(len(refs)) {
			b.errf(CodeBibliography, base+"/references_extracted", "bibliography source %s references_extracted %s must equal the manifest's %d references", pyfmt.Str(id), pyfmt.Short(s["references_extracted"]), len(refs))
		}
		got := map[[2]string]bool{}
		for j, rv := range refs {
			r, ok := obj(rv)
			_, ok1 := str(r["raw_text"])
			loc, ok2 := str(r["locator"])
			cid, _ := r["candidate_id"].(string)
			if !ok || !ok1 || !ok2 {
				b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest for %s references[%d] needs raw_text and locator", pyfmt.Str(id), j)
				continue
			}
			k := [2]string{cid, loc}
			if got[k] {
				b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest for %s repeats candidate %s at %s", pyfmt.Str(id), pyfmt.Str(cid), pyfmt.Str(loc))
			}
			got[k] = true
			if !slices.Contains(cids, cid) {
				b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest for %s references[%d] candidate %s is not among candidate_ids", pyfmt.Str(id), j, pyfmt.Str(cid))
				continue
			}
			cd := b.cands[cid]
			if cd == nil {
				continue
			}
			ident, _ := obj(r["identity"])
			if cd.resolved {
				ck, _ := ident["canonical_id"].(string)
				t, _ := ident["title"].(string)
				if !cd.keys[CanonicalKey(ck)] || NormalizeTitle(t) != cd.title || NormalizeYear(ident["year"]) != cd.year {
					b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest for %s references[%d] identity does not match candidate %s", pyfmt.Str(id), j, pyfmt.Str(cid))
				}
			} else if r["identity_status"] != "unresolved" || !truthy(r["unresolved_reason"]) {
				b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography manifest for %s references[%d] must mark unresolved candidate %s with identity_status unresolved and an unresolved_reason", pyfmt.Str(id), j, pyfmt.Str(cid))
			}
		}
		wantClaims := map[[2]string]bool{}
		for _, cid := range b.order {
			for cl := range b.cands[cid].claims {
				if cl[0] == id {
					wantClaims[[2]string{cid, cl[1]}] = true
				}
			}
		}
		if !sameClaims(got, wantClaims) {
			b.errf(CodeBibliography, base+"/references_artifact_ref", "bibliography source %s: bibliography discovery claims do not match the pinned raw manifest", pyfmt.Str(id))
		}
	}
	if !sameSet(ids, b.selected) {
		b.errf(CodeBibliography, "/bibliography_reconciliation/core_sources", "bibliography core_sources %s must equal the selected core set %s", pyfmt.Value(ids), pyfmt.Value(b.selected))
	}
	unresolved, debt, disp := 0, 0, 0
	coreSet := []string{}
	for _, id := range b.order {
		cd := b.cands[id]
		if !cd.resolved {
			unresolved++
		}
		if cd.disposition == "coverage_debt" {
			debt++
		}
		if cd.disposition != "" {
			disp++
		}
		if cd.disposition == "core" {
			coreSet = append(coreSet, id)
		}
	}
	status := "coverage_debt"
	if b.c.count() == before && allReconciled && unresolved == 0 && debt == 0 && sameSet(coreSet, b.selected) {
		status = "reconciled"
	}
	return map[string]any{"status": status, "core_sources_total": len(b.selected), "core_sources_reconciled": reconciledCount,
		"candidates_total": len(b.order), "candidates_dispositioned": disp, "unresolved_candidates": unresolved, "coverage_debt_candidates": debt}
}

// methodAudit runs MA-1..MA-7 and returns the recomputed receipt (MA-X)
// and the derived status.
func (b *binder) methodAudit(v any) (map[string]any, string) {
	const base = "/method_family_audit"
	structural := false
	fail := func(ptr, format string, args ...any) {
		structural = true
		b.errf(CodeMethodAudit, ptr, format, args...)
	}
	m, _ := obj(v)
	tax, ok := arr(m["taxonomy"])
	if !ok {
		fail(base+"/taxonomy", "method_family_audit.taxonomy must be a list")
	}
	var families []string
	for i, tv := range tax {
		t, _ := obj(tv)
		id, ok := str(t["id"])
		if !ok || slices.Contains(families, id) {
			fail(p(base+"/taxonomy", i), "method_family_audit.taxonomy[%d] needs a unique non-empty id", i)
			continue
		}
		families = append(families, id)
	}
	if len(families) == 0 && len(b.selected) > 0 {
		fail(base+"/taxonomy", "method_family_audit.taxonomy must be non-empty when core sources are selected")
	}
	audits, ok := arr(m["source_audits"])
	if !ok {
		fail(base+"/source_audits", "method_family_audit.source_audits must be a list")
	}
	gaps, srcDesc, citedDesc := 0, 0, 0
	var audited []string
	for i, av := range audits {
		ab := p(base+"/source_audits", i)
		a, _ := obj(av)
		sid, ok := str(a["source_id"])
		if !ok || slices.Contains(audited, sid) {
			fail(ab, "method_family_audit.source_audits[%d] needs a unique source_id", i)
			continue
		}
		audited = append(audited, sid)
		for _, legacy := range []string{"cited_method_descriptions", "cited_method_scan_complete"} {
			if _, has := a[legacy]; has {
				fail(ab+"/"+legacy, "method audit for %s uses the legacy field %s; record bibliography_candidate_screening instead", pyfmt.Str(sid), legacy)
			}
		}
		descs, _ := arr(a["paper_method_descriptions"])
		if len(descs) == 0 {
			fail(ab+"/paper_method_descriptions", "method audit for %s needs non-empty paper_method_descriptions", pyfmt.Str(sid))
		}
		for j, dv := range descs {
			d, msg := checkMethodDescription(dv, "disposition", families)
			if msg != "" {
				fail(p(ab+"/paper_method_descriptions", j), "method audit for %s paper_method_descriptions[%d]: %s", pyfmt.Str(sid), j, msg)
				continue
			}
			if d["disposition"] == "coverage_debt" {
				gaps++
			} else {
				srcDesc++
			}
		}
		screens, ok := arr(a["bibliography_candidate_screening"])
		if !ok {
			fail(ab+"/bibliography_candidate_screening", "method audit for %s bibliography_candidate_screening must be a list", pyfmt.Str(sid))
		}
		var screened []string
		for j, sv := range screens {
			sp := p(ab+"/bibliography_candidate_screening", j)
			s, _ := obj(sv)
			cid, ok := str(s["candidate_id"])
			if !ok || slices.Contains(screened, cid) {
				fail(sp, "method audit for %s screening[%d] needs a unique candidate_id", pyfmt.Str(sid), j)
				continue
			}
			screened = append(screened, cid)
			for _, k := range []string{"locator", "evidence_basis", "rationale"} {
				if _, ok := str(s[k]); !ok {
					fail(sp, "method audit for %s screening of %s needs a non-empty %s", pyfmt.Str(sid), pyfmt.Str(cid), k)
				}
			}
			switch s["disposition"] {
			case "method_bearing":
				if d, msg := checkMethodDescription(s, "method_disposition", families); msg != "" {
					fail(sp, "method audit for %s screening of %s: %s", pyfmt.Str(sid), pyfmt.Str(cid), msg)
				} else if d["method_disposition"] == "coverage_debt" {
					gaps++
				} else {
					citedDesc++
				}
			case "not_method_bearing":
				if s["evidence_basis"] != "source_text" {
					fail(sp+"/evidence_basis", "method audit for %s screening of %s: evidence_basis must be 'source_text' for a not_method_bearing screening, got %s", pyfmt.Str(sid), pyfmt.Str(cid), pyfmt.Short(s["evidence_basis"]))
				}
				for _, k := range []string{"method_features", "family_ids", "method_disposition", "description"} {
					if _, has := s[k]; has {
						fail(sp+"/"+k, "method audit for %s screening of %s is not_method_bearing and must not carry %s", pyfmt.Str(sid), pyfmt.Str(cid), k)
					}
				}
			case "coverage_debt":
				gaps++
			default:
				fail(sp+"/disposition", "method audit for %s screening of %s disposition %s must be method_bearing, not_method_bearing or coverage_debt", pyfmt.Str(sid), pyfmt.Str(cid), pyfmt.Short(s["disposition"]))
			}
		}
		for _, cid := range b.reconciled[sid] {
			if !slices.Contains(screened, cid) {
				gaps++
			}
		}
		for _, cid := range screened {
			if !slices.Contains(b.reconciled[sid], cid) {
				fail(ab+"/bibliography_candidate_screening", "method audit for %s screens %s, which is not a reconciled bibliography candidate of that source", pyfmt.Str(sid), pyfmt.Str(cid))
			}
		}
	}
	if !sameSet(audited, b.selected) {
		fail(base+"/source_audits", "method_family_audit source audits %s must equal the selected core set %s", pyfmt.Value(audited), pyfmt.Value(b.selected))
	}
	n := 0
	for _, a := range audited {
		if slices.Contains(b.selected, a) {
			n++
		}
	}
	status := "coverage_debt"
	if !structural && (len(families) > 0 || len(b.selected) == 0) && gaps == 0 {
		status = "audited"
	}
	if gaps > 0 {
		b.unreported = true // recorded method-family gaps are honest debt
	}
	b.methodExplained = structural && gaps == 0
	return map[string]any{"status": status, "core_sources_total": len(b.selected), "core_sources_audited": n,
		"taxonomy_families": len(families), "source_method_descriptions_audited": srcDesc,
		"cited_method_descriptions_audited": citedDesc, "unresolved_method_family_gaps": gaps}, status
}

// checkMethodDescription runs the MD-rules; dispKey names the disposition
// field ("disposition" or "method_disposition").
func checkMethodDescription(v any, dispKey string, families []string) (map[string]any, string) {
	d, ok := obj(v)
	if !ok {
		return nil, "must be an object"
	}
	desc, ok1 := str(d["description"])
	_, ok2 := str(d["locator"])
	if !ok1 || !ok2 {
		return nil, "description and locator must be non-empty"
	}
	if d["evidence_basis"] != "source_text" {
		return nil, "evidence_basis must be 'source_text'"
	}
	feats, all := strList(d["method_features"])
	if len(feats) == 0 || !all {
		return nil, "method_features must be non-empty strings"
	}
	found := false
	for _, f := range feats {
		if strings.Contains(strings.ToLower(desc), strings.ToLower(f)) {
			found = true
		}
	}
	if !found {
		return nil, "at least one method feature must appear in the description"
	}
	fams, ok := arr(d["family_ids"])
	if !ok {
		return nil, "family_ids must be a list"
	}
	for _, f := range fams {
		if s, _ := f.(string); !slices.Contains(families, s) {
			return nil, "family id " + pyfmt.Short(f) + " is not in the taxonomy"
		}
	}
	switch d[dispKey] {
	case "classified":
		if len(fams) == 0 {
			return nil, "classified descriptions need family_ids"
		}
	case "out_of_scope", "coverage_debt":
		if len(fams) > 0 {
			return nil, dispKey + " other than classified must not carry family_ids"
		}
	default:
		return nil, dispKey + " must be classified, out_of_scope or coverage_debt"
	}
	return d, ""
}

// citationGraph runs the G-rules. A coverage_incomplete ledger may record
// unsaturated seeds as debt (W-5); structural errors are always errors.
func (b *binder) citationGraph(v any) {
	g, _ := obj(v)
	seeds, ok := arr(g["seeds"])
	if !ok {
		b.errf(CodeCitationGraph, "/citation_graph/seeds", "citation_graph.seeds must be a list")
		b.debt = true
		return
	}
	var ids []string
	for i, sv := range seeds {
		sp := p("/citation_graph/seeds", i)
		s, _ := obj(sv)
		id, ok := str(s["id"])
		if !ok || slices.Contains(ids, id) {
			b.errf(CodeCitationGraph, sp, "citation_graph.seeds[%d] needs a unique id", i)
			b.debt = true
			continue
		}
		ids = append(ids, id)
		if s["references_checked"] != true || s["citations_checked"] != true || s["coverage_status"] != "saturated" || truthy(s["gaps"]) {
			b.strict(CodeCitationGraph, sp, "citation graph seed %s is incomplete: references_checked and citations_checked must be true, coverage_status saturated and gaps empty (record coverage_incomplete to keep the gap as debt)", pyfmt.Str(id))
		}
	}
	if !sameSet(ids, b.selected) {
		b.errf(CodeCitationGraph, "/citation_graph/seeds", "citation_graph seeds %s must equal the selected core set %s", pyfmt.Value(ids), pyfmt.Value(b.selected))
		b.debt = true
	}
}

// bindSurveyCores runs the SB-rules.
func (b *binder) bindSurveyCores(s map[string]any) {
	papers, _ := arr(s["papers"])
	var matched []string
	for i, pv := range papers {
		paper, ok := obj(pv)
		if !ok || paper["role"] != "core" {
			continue
		}
		base := p("/papers", i)
		keys := map[string]bool{}
		titles, years := map[string]bool{}, map[string]bool{}
		tri, _ := obj(paper["identity_triangulation"])
		provs, _ := arr(tri["providers"])
		for _, pr := range provs {
			pm, _ := obj(pr)
			if id := scalarString(pm["identifier"]); id != "" {
				if k := CanonicalKey(id); k != "" {
					keys[k] = true
				} else if name, ok := pm["provider"].(string); ok {
					keys["provider:"+pycase.Casefold(strings.TrimSpace(name))+":"+strings.TrimSpace(normNFKC(id))] = true
				}
			}
			if d, ok := pm["doi"].(string); ok {
				if k := CanonicalKey(d); k != "" {
					keys[k] = true
				}
			}
			if t, ok := pm["title"].(string); ok {
				titles[NormalizeTitle(t)] = true
			}
			years[NormalizeYear(pm["year"])] = true
		}
		for _, l := range entryLinks(paper) {
			if k := CanonicalKey(l); k != "" {
				keys[k] = true
			}
		}
		if len(titles) > 1 || len(years) > 1 {
			b.c.add(b.survey, CodeCoreBinding, base+"/identity_triangulation", "survey core papers[%d] identity metadata is not internally consistent (titles or years differ)", i)
			continue
		}
		if len(keys) == 0 {
			b.c.add(b.survey, CodeCoreBinding, base, "survey core papers[%d] has no stable identity key to bind to the detailed ledger", i)
			continue
		}
		var title, year string
		for t := range titles {
			title = t
		}
		for y := range years {
			year = y
		}
		var hits []string
		for _, id := range b.selected {
			cd := b.cands[id]
			if cd == nil {
				continue
			}
			for k := range keys {
				if cd.keys[k] {
					hits = append(hits, id)
					break
				}
			}
		}
		if len(hits) != 1 {
			b.c.add(b.survey, CodeCoreBinding, base, "survey core papers[%d] must match exactly one selected ledger core, matched %s", i, pyfmt.Value(hits))
			continue
		}
		cd := b.cands[hits[0]]
		if cd.title != title || cd.year != year {
			b.c.add(b.survey, CodeCoreBinding, base, "survey core papers[%d] title/year do not match ledger core %s", i, pyfmt.Str(cd.id))
		}
		if slices.Contains(matched, cd.id) {
			b.c.add(b.survey, CodeCoreBinding, base, "survey core papers[%d] binds ledger core %s already bound by another paper", i, pyfmt.Str(cd.id))
		}
		matched = append(matched, cd.id)
	}
	if !sameSet(matched, b.selected) {
		b.c.add(b.survey, CodeCoreBinding, "/papers", "survey core identity set differs from detailed ledger selected_core_ids: survey binds %s, ledger selects %s", pyfmt.Value(uniq(matched)), pyfmt.Value(b.selected))
	}
}

func sameSet(a, b []string) bool {
	x, y := uniq(a), uniq(b)
	if len(x) != len(y) {
		return false
	}
	for _, v := range x {
		if !slices.Contains(y, v) {
			return false
		}
	}
	return true
}

func sameClaims(a, b map[[2]string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func normNFKC(s string) string { return norm.NFKC.String(s) }

var (
	foldTokenRE = lazyre.New(`[a-z0-9]+`)
	latexMarks  = lazy.NewReplacer("\\", " ", "{", "", "}", "", "$", "")
)

// foldText is a reduced port of the citation-triangulation fold_text: NFKD,
// marks dropped, LaTeX braces and commands removed, casefolded, [a-z0-9]
// tokens joined by a space. The reference's Greek and LaTeX symbol tables
// are not ported (docs/deviations.md).
func foldText(s string) string {
	s = latexMarks.Replace(s)
	s = greekNames(s)
	d := norm.NFKD.String(s)
	var b strings.Builder
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return strings.Join(foldTokenRE.FindAllString(pycase.Casefold(b.String()), -1), " ")
}

var greek = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
	"nu", "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"}

// greekNames spells Greek letters the way LaTeX titles write them (α and
// \alpha both fold to "alpha"), the part of the reference's symbol table
// titles need most.
func greekNames(s string) string {
	var b strings.Builder
	for _, r := range s {
		lr := unicode.ToLower(r)
		if lr >= 'α' && lr <= 'ω' {
			b.WriteString(" " + greek[lr-'α'] + " ")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var nameSuffixes = []string{"jr", "sr", "ii", "iii", "iv"}

// familyName extracts a normalized family name ("Family, Given" or
// "Given Family", generational suffixes skipped).
func familyName(s string) string {
	if i := strings.Index(s, ","); i >= 0 {
		return strings.ReplaceAll(foldText(s[:i]), " ", "")
	}
	toks := strings.Fields(foldText(s))
	for len(toks) > 1 && slices.Contains(nameSuffixes, toks[len(toks)-1]) {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}
