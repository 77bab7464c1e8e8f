package prior

import (
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// gradeOf maps an exact (P(E|H), P(E|¬H)) raising pair to its grade.
func gradeOf(h, nh float64) string {
	switch {
	case h == 0.75 && nh == 0.25:
		return "weakest"
	case h == 0.9 && nh == 0.09:
		return "substantial"
	case h == 0.9 && nh == 0.03:
		return "strong"
	}
	return ""
}

// gradeRank orders the grades, weakest first (0: not a grade).
func gradeRank(g string) int {
	switch g {
	case "weakest":
		return 1
	case "substantial":
		return 2
	case "strong":
		return 3
	}
	return 0
}

var (
	resolutionEvidence = lazyre.New(`resolution_evidence:\s*(mechanism|discriminating_test|demonstrated_partial_resolution)`)
)

// CheckTensionIR runs T-1..T-11: the matrix's tension_resolution grade must
// equal the raising updates compiled into the Gaia IR. matrix and ir are the
// parsed files; findings are reported against the matrix.
func CheckTensionIR(matrix *File, ir any) []diag.Diagnostic {
	c := &checker{}
	checkTensionIR(c, matrix, ir)
	return c.result()
}

func checkTensionIR(c *checker, mf *File, irv any) {
	m, ok1 := obj(mf.Value())
	ir, ok2 := obj(irv)
	if !ok1 || !ok2 {
		c.add(mf, CodeTensionIR, "", "close-prior matrix and compiled Gaia IR must both be JSON objects")
		return
	}
	ks, _ := arr(ir["knowledges"])
	var tensionIDs []string
	for _, kv := range ks {
		k, _ := obj(kv)
		if k["label"] == "tension_resolution" {
			id, _ := k["id"].(string)
			tensionIDs = append(tensionIDs, id)
		}
	}
	if len(tensionIDs) > 1 {
		c.add(mf, CodeTensionIR, "/tension_resolution", "compiled Gaia IR must have at most one tension_resolution claim, found %d", len(tensionIDs))
		return
	}
	var raising []string
	if len(tensionIDs) == 1 {
		strats, _ := arr(ir["strategies"])
		for i, sv := range strats {
			s, _ := obj(sv)
			prem, _ := arr(s["premises"])
			cp, _ := arr(s["conditional_probabilities"])
			if s["type"] != "infer" || len(prem) != 1 || prem[0] != tensionIDs[0] || len(cp) != 2 {
				continue
			}
			nh, ok1 := floatVal(cp[0])
			h, ok2 := floatVal(cp[1])
			if !ok1 || !ok2 {
				c.add(mf, CodeTensionIR, "/tension_resolution", "compiled Gaia strategy %d on tension_resolution has non-numeric likelihoods", i)
				continue
			}
			if h <= nh {
				continue
			}
			g := gradeOf(h, nh)
			if g == "" {
				c.add(mf, CodeTensionIR, "/tension_resolution", "compiled Gaia strategy %d raises tension_resolution with an off-grade raising likelihood pair (%v, %v)", i, h, nh)
				continue
			}
			raising = append(raising, g)
			if !resolutionEvidence.MatchString(preAnchor(s)) {
				c.add(mf, CodeTensionIR, "/tension_resolution", "compiled Gaia strategy %d raises resolution without an idea-specific pre-anchor clause resolution_evidence: mechanism|discriminating_test|demonstrated_partial_resolution; tension existence or a plan alone is insufficient", i)
			}
		}
	}
	tr, _ := obj(m["tension_resolution"])
	grade, _ := tr["grade"].(string)
	multi, hasMulti := strList(tr["raising_likelihood_grades"])
	if tr["raising_likelihood_grades"] == nil {
		hasMulti = false
	}
	switch {
	case len(raising) == 0:
		if grade != "" || len(multi) > 0 {
			c.add(mf, CodeTensionIR, "/tension_resolution/grade", "close-prior matrix declares a raising tension_resolution grade %s but the compiled Gaia IR has no raising update", pyfmt.Str(grade))
		}
	case grade == "":
		c.add(mf, CodeTensionIR, "/tension_resolution", "compiled Gaia IR raises tension_resolution but the matrix has no tension_resolution grade")
	case len(raising) == 1:
		if grade != raising[0] {
			c.add(mf, CodeTensionIR, "/tension_resolution/grade", "tension_resolution grade %s does not match compiled Gaia raising grade %s", pyfmt.Str(grade), pyfmt.Str(raising[0]))
		} else if hasMulti && !slices.Equal(multi, raising) {
			c.add(mf, CodeTensionIR, "/tension_resolution/raising_likelihood_grades", "tension_resolution raising_likelihood_grades %s does not match the compiled grade multiset %s", pyfmt.Value(multi), pyfmt.Value(raising))
		}
	default:
		strongest := raising[0]
		for _, g := range raising {
			if gradeRank(g) > gradeRank(strongest) {
				strongest = g
			}
		}
		if grade != strongest {
			c.add(mf, CodeTensionIR, "/tension_resolution/grade", "tension_resolution grade %s must equal the strongest compiled grade %s", pyfmt.Str(grade), pyfmt.Str(strongest))
		}
		a, b := slices.Clone(multi), slices.Clone(raising)
		slices.Sort(a)
		slices.Sort(b)
		if !hasMulti || !slices.Equal(a, b) {
			c.add(mf, CodeTensionIR, "/tension_resolution/raising_likelihood_grades", "compiled Gaia IR has several raising updates; the matrix must record the exact multiset %s in raising_likelihood_grades", pyfmt.Value(b))
		}
	}
}

// preAnchor joins a strategy's step reasoning (null as empty) and cuts it at
// the first "anchor:".
func preAnchor(s map[string]any) string {
	steps, _ := arr(s["steps"])
	var parts []string
	for _, st := range steps {
		m, _ := obj(st)
		if r, ok := m["reasoning"].(string); ok {
			parts = append(parts, r)
		}
	}
	j := strings.Join(parts, "\n")
	if i := strings.Index(j, "anchor:"); i >= 0 {
		j = j[:i]
	}
	return j
}

// CheckIRAnchors runs PRIOR505 (W-11): no anchor in the compiled IR may
// name the source link of a matrix entry that was never read.
func CheckIRAnchors(matrix *File, irv any) []diag.Diagnostic {
	c := &checker{}
	m, ok1 := obj(matrix.Value())
	ir, ok2 := obj(irv)
	if !ok1 || !ok2 {
		return nil
	}
	unread := map[string]int{}
	entries, _ := arr(m["entries"])
	for i, ev := range entries {
		e, _ := obj(ev)
		if rs := e["read_status"]; rs == "metadata_only" || rs == "unavailable" {
			for _, l := range entryLinks(e) {
				unread[l] = i
			}
		}
	}
	if len(unread) == 0 {
		return nil
	}
	for _, a := range irAnchors(ir) {
		for link, i := range unread {
			if strings.Contains(a.text, link) {
				c.add(matrix, CodeUnreadAnchor, p("/entries", i, "read_status"),
					"compiled Gaia %s anchors on %s, but entries[%d] is %v: a paper never read cannot anchor a likelihood; read it or change the anchor",
					a.where, pyfmt.Str(link), i, entries[i].(map[string]any)["read_status"])
			}
		}
	}
	return diag.SortDedup(c.result())
}

type irAnchor struct{ where, text string }

// irAnchors collects the anchor tails of step reasoning and observation
// rationales.
func irAnchors(ir map[string]any) []irAnchor {
	var out []irAnchor
	tail := func(s string) string {
		if i := strings.Index(s, "anchor:"); i >= 0 {
			return s[i+len("anchor:"):]
		}
		return ""
	}
	strats, _ := arr(ir["strategies"])
	for i, sv := range strats {
		s, _ := obj(sv)
		steps, _ := arr(s["steps"])
		for _, st := range steps {
			m, _ := obj(st)
			if r, ok := m["reasoning"].(string); ok && tail(r) != "" {
				out = append(out, irAnchor{"strategy " + itoa(i), tail(r)})
			}
		}
	}
	ks, _ := arr(ir["knowledges"])
	for _, kv := range ks {
		k, _ := obj(kv)
		md, _ := obj(k["metadata"])
		sup, _ := arr(md["supported_by"])
		for _, sv := range sup {
			s, _ := obj(sv)
			if r, ok := s["rationale"].(string); ok && tail(r) != "" {
				label, _ := k["label"].(string)
				out = append(out, irAnchor{"observation of " + label, tail(r)})
			}
		}
	}
	return out
}
