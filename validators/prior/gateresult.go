package prior

import (
	"slices"
	"time"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

var (
	routes  = []string{"open_problem", "mechanism", "method", "framework"}
	dateRE  = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)
	slugRE  = lazyre.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	gateKey = []string{"anchors", "artifact", "date", "idea_slug", "rejection_reason", "route", "verdict"}
)

// CheckGateResult validates a gate_result_v1 admission verdict (§1.5). The
// reference documents it but never validates it; nullius does.
func CheckGateResult(f *File) []diag.Diagnostic {
	c := &checker{}
	g, ok := requireObject(c, f, CodeGateResult, "gate_result_v1")
	if !ok {
		return c.result()
	}
	if g["artifact"] != "gate_result_v1" {
		c.add(f, CodeGateResult, "/artifact", "artifact %s must be \"gate_result_v1\"", pyfmt.Short(g["artifact"]))
	}
	for _, k := range gateKey {
		if _, has := g[k]; !has {
			c.add(f, CodeGateResult, "", "gate_result_v1 is missing %s", k)
		}
	}
	if s, ok := g["idea_slug"].(string); ok && !slugRE.MatchString(s) {
		c.add(f, CodeGateResult, "/idea_slug", "idea_slug %s must be a kebab-case slug", pyfmt.Str(s))
	} else if _, has := g["idea_slug"]; has && !ok {
		c.add(f, CodeGateResult, "/idea_slug", "idea_slug must be a string, got %s", kind(g["idea_slug"]))
	}
	verdict, _ := g["verdict"].(string)
	if _, has := g["verdict"]; has && verdict != "passed" && verdict != "rejected" {
		c.add(f, CodeGateResult, "/verdict", "verdict %s must be 'passed' or 'rejected'", pyfmt.Short(g["verdict"]))
	}
	if r, has := g["route"]; has {
		if s, _ := r.(string); !slices.Contains(routes, s) {
			c.add(f, CodeGateResult, "/route", "route %s must be one of open_problem, mechanism, method, framework", pyfmt.Short(r))
		}
	}
	reason, hasReason := g["rejection_reason"]
	switch {
	case verdict == "passed" && reason != nil:
		c.add(f, CodeGateResult, "/rejection_reason", "a passed verdict must have rejection_reason null, got %s", pyfmt.Short(reason))
	case verdict == "rejected" && !truthy(reason) && hasReason:
		c.add(f, CodeGateResult, "/rejection_reason", "a rejected verdict must state its rejection_reason")
	}
	anchors, ok := arr(g["anchors"])
	if _, has := g["anchors"]; has && !ok {
		c.add(f, CodeGateResult, "/anchors", "anchors must be a list of {statement, reference}")
	}
	if verdict == "passed" && ok && len(anchors) == 0 {
		c.add(f, CodeGateResult, "/anchors", "a passed verdict needs at least one anchor {statement, reference}")
	}
	for i, av := range anchors {
		a, ok := obj(av)
		_, ok1 := str(a["statement"])
		_, ok2 := str(a["reference"])
		if !ok || !ok1 || !ok2 {
			c.add(f, CodeGateResult, p("/anchors", i), "anchors[%d] needs a non-empty statement and reference", i)
		}
	}
	if d, has := g["date"]; has {
		s, _ := d.(string)
		if _, err := time.Parse("2006-01-02", s); !dateRE.MatchString(s) || err != nil {
			c.add(f, CodeGateResult, "/date", "date %s must be a calendar date YYYY-MM-DD", pyfmt.Short(d))
		}
	}
	return c.result()
}

// CheckSurvey validates a literature_survey_v1 file on its own: S, E and R
// rules and the ledger binding (an empty root is itself a finding: the
// pinned ledger cannot be recomputed without it).
func CheckSurvey(f *File, root string) []diag.Diagnostic {
	c := &checker{}
	status := checkSurvey(c, f)
	if s, ok := obj(f.Value()); ok {
		if cov, ok := obj(s["coverage"]); ok {
			bindLedger(c, f, s, cov, root, status)
		}
	}
	return c.result()
}

// CheckMatrix validates a close-prior matrix on its own (M-rules).
func CheckMatrix(f *File) []diag.Diagnostic {
	c := &checker{}
	_, st := checkMatrix(c, f)
	if st.coverage == "metadata_only" && f.Doc != nil {
		if _, ok := obj(f.Value()); ok {
			c.add(f, CodeCoverageStatus, "/coverage_status", "metadata_only coverage cannot enter writeback or allocation guidance; read the sources and rebuild the matrix")
		}
	}
	return c.result()
}

// CheckLedger validates a detailed saturation ledger on its own: it is bound
// through a synthetic receipt so every PA/C/I/B/MA/G rule runs. root
// resolves the ledger's own pinned side files.
func CheckLedger(f *File, root string) []diag.Diagnostic {
	c := &checker{}
	l, ok := requireObject(c, f, CodeLedgerPin, "detailed ledger")
	if !ok {
		return c.result()
	}
	if root == "" {
		c.add(f, CodeLedgerPin, "", "project_root is required to resolve the ledger's pinned side files; create .nullius/ at the project root or pass --project-root")
		return c.result()
	}
	b := &binder{c: c, root: root, ledger: f, cands: map[string]*candidate{}, reconciled: map[string][]string{}, start: c.count()}
	b.declared, _ = l["final_status"].(string)
	if b.declared != "saturated" && b.declared != "coverage_incomplete" {
		c.add(f, CodeLedgerStatus, "/final_status", "detailed ledger final_status %s must be saturated or coverage_incomplete", pyfmt.Short(l["final_status"]))
	}
	b.providers(l["providers"])
	if _, ok := str(l["stop_reason"]); !ok {
		b.errf(CodeLedgerStatus, "/stop_reason", "detailed ledger stop_reason is required")
	}
	if !b.candidatePool(l["candidate_pool"]) {
		return c.result()
	}
	bib := b.bibliography(l["bibliography_reconciliation"])
	_, derived := b.methodAudit(l["method_family_audit"])
	b.checkMethodStatus(l["method_family_audit"], derived)
	b.citationGraph(l["citation_graph"])
	if len(b.selected) == 0 && b.declared == "saturated" {
		b.errf(CodeEmptySaturation, "/candidate_pool/selected_core_ids", "detailed ledger selects no core sources; an empty ledger is not saturated, record coverage_incomplete")
	}
	if b.declared == "saturated" || b.declared == "coverage_incomplete" {
		b.checkClosure(l, b.closure(bib, derived))
	}
	return c.result()
}
