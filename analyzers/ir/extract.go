package ir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/internal/sentinel"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/pyfmt"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/lazyre"
)

// CompiledIRPin returns the content pin of the exact compiled IR bytes:
// "sha256:" + lower-case hex SHA-256 (§3.6). It is deliberately not Gaia's
// ir_hash, which ignores the `exported` flags.
func CompiledIRPin(irBytes []byte) string {
	return digest.Of(irBytes)
}

// CountObservations is the reference `evidence_count`: the number of
// `metadata.supported_by` entries with pattern "observation" across all
// knowledges, connected to worth or not (§3.2 step 11e). Conditional
// observations are strategies, not supports, and are not counted.
func CountObservations(ir *IR) int {
	n := 0
	for _, k := range ir.Knowledges {
		sups, _ := k.Meta["supported_by"].([]any)
		for _, v := range sups {
			if obj, ok := v.(map[string]any); ok && obj["pattern"] == "observation" {
				n++
			}
		}
	}
	return n
}

// ConnectedEvidenceCount counts only the observations whose path count to
// worth is exactly 1 (W9): evidence that can actually move the posterior.
// It is reported beside, not instead of, the reference evidence_count.
func ConnectedEvidenceCount(ir *IR) int {
	_, g := Check(ir, CheckOptions{})
	return g.ConnectedEvidenceCount()
}

// Beliefs is a loaded .gaia/beliefs.json.
type Beliefs struct {
	Path   string
	Doc    *jsonloc.Doc
	Root   map[string]any
	IRHash string // "" when missing or not a string
}

// LoadBeliefs parses beliefs.json bytes (GAIA207 when they are not a JSON
// object; GAIA104 for repeated keys). A nil Beliefs means unusable.
func LoadBeliefs(path string, src []byte) (*Beliefs, []diag.Diagnostic) {
	doc, err := jsonloc.Parse(src, jsonloc.Options{AllowBOM: true})
	if err != nil {
		return nil, []diag.Diagnostic{syntaxDiag(path, GAIA207, "beliefs.json is not valid UTF-8 JSON", err)}
	}
	r := &reporter{path: path, doc: doc}
	r.duplicates()
	root, ok := doc.Value.(map[string]any)
	if !ok {
		r.at(GAIA207, "", "beliefs.json is not a JSON object (found %s); re-run gaia run infer", jsonType(doc.Value))
		return nil, r.out
	}
	b := &Beliefs{Path: path, Doc: doc, Root: root}
	b.IRHash, _ = root["ir_hash"].(string)
	return b, r.out
}

// ExtractWorthBelief returns the belief of the one entry of `beliefs` whose
// label equals label (§3.2 step 11d). GAIA208 when there is not exactly one
// such entry; GAIA209 when its belief is not a number in [0, 1] (a boolean
// is not a number; an integer 1 is returned as 1.0). The diagnostic is nil
// on success.
func ExtractWorthBelief(b *Beliefs, label string) (float64, *diag.Diagnostic) {
	r := &reporter{path: b.Path, doc: b.Doc}
	list, ok := b.Root["beliefs"].([]any)
	if !ok {
		r.at(GAIA208, "/beliefs", "beliefs.json has no beliefs list (found %s); re-run gaia run infer", describeMember(b.Root, "beliefs"))
		return 0, &r.out[0]
	}
	var labels []string
	var matches []int
	for i, v := range list {
		entry, _ := v.(map[string]any)
		l, isStr := entry["label"].(string)
		if !isStr {
			continue
		}
		labels = append(labels, l)
		if l == label {
			matches = append(matches, i)
		}
	}
	if len(matches) != 1 {
		slices.Sort(labels)
		ptr := "/beliefs"
		if len(matches) > 1 {
			ptr = jsonloc.Pointer("beliefs", matches[1], "label")
		}
		r.at(GAIA208, ptr,
			"expected exactly one belief labelled %s, found %d. Labels present: %s. The top-level claim must be bound to a module variable named %s.",
			pyfmt.Str(label), len(matches), pyfmt.Value(labels), pyfmt.Str(label))
		return 0, &r.out[0]
	}
	entry := list[matches[0]].(map[string]any)
	ptr := jsonloc.Pointer("beliefs", matches[0], "belief")
	f, isNum := number(entry["belief"])
	if !isNum || !finiteUnit(f) {
		r.at(GAIA209, ptr, "belief for %s is not in [0, 1]: %s", pyfmt.Str(label), describeMember(entry, "belief"))
		return 0, &r.out[0]
	}
	return f, nil
}

// staleBeliefs is GAIA212 (W11): beliefs computed from another compile.
func staleBeliefs(b *Beliefs, ir *IR) []diag.Diagnostic {
	if ir.IRHash == "" {
		return nil // GAIA101 already refuses the IR
	}
	r := &reporter{path: b.Path, doc: b.Doc}
	if b.IRHash != ir.IRHash {
		found := "none"
		if v, ok := b.Root["ir_hash"]; ok {
			found = pyfmt.Describe(v)
		}
		r.at(GAIA212, "/ir_hash",
			"beliefs.json was computed for ir_hash %s but %s has ir_hash %s; re-run gaia run infer so the posterior value and the pin come from one compile",
			found, ir.Path, pyfmt.Str(ir.IRHash))
	}
	return r.out
}

// String renders an observation record for debugging and --explain output.
func (o Observation) String() string {
	return fmt.Sprintf("%s family=%s model=%s root_target=%s paths=%d reuse=%d",
		o.ID, o.Family, o.CorrelationModel, cmpOr(o.RootTarget, "(none)"), o.PathCount, o.ReuseCount)
}

// declRE matches the two contract declarations of an observation rationale.
var declRE = lazyre.New(`(evidence_family|correlation_model)\s*:\s*[a-z0-9._-]+\s*;`)

// ObservationParts splits a valid observation rationale into its evidence
// family, correlation model, reader-facing context (the before-anchor text
// without the declarations, whitespace collapsed) and anchor reference, so
// renderers never show the sentinels as prose (reference test
// test_observation_rationale_parts_hide_contract_sentinels_from_context).
// ok is false when the family or the anchor is invalid.
func ObservationParts(rationale string) (family, model, context, anchor string, ok bool) {
	fam, famOK := sentinel.ParseFamily(rationale)
	if !famOK || !nonEmptyAnchor(rationale) {
		return "", "", "", "", false
	}
	before, after, _ := strings.Cut(rationale, sentinel.AnchorKey)
	context = strings.Join(sentinel.Words(declRE.ReplaceAllString(before, " ")), " ")
	return fam.Token, fam.Model, context, sentinel.Strip(after), true
}
