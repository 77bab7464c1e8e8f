package match

import (
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// Templates are the three texts the judge-prompt digest covers. Assembly
// recomputes the digest from the current templates, so a template upgrade
// makes an older panel stale (§4.3).
type Templates struct {
	Body, System, Binding string
}

// DefaultTemplates returns nullius's own judge templates.
func DefaultTemplates() Templates {
	return Templates{Body: matchproto.JudgePromptTemplate, System: matchproto.JudgeSystemPrompt, Binding: matchproto.BindingTemplate}
}

// LoadCommitment reads and validates a commitment file.
func LoadCommitment(path, what string) (matchproto.Object, error) {
	v, err := readJSON(path, what, readlimit.Small)
	if err != nil {
		return nil, err
	}
	if ps := vm.ValidateCommitment(v, ""); len(ps) > 0 {
		return nil, refuse("%s failed validation: %s", what, vm.Join(ps))
	}
	return v.(matchproto.Object), nil
}

// LoadMaterials applies §3.1 to a materials directory: the five files, the
// commitment, and for each side the hash line, the node line, and the
// statement contract, returning the rebuilt statements.
//
// Beyond the reference (W4, W20), each statement's node must equal the
// node_id of its own card summary: a swapped statement is refused here,
// before any judge runs, not only at assembly.
func LoadMaterials(dir string, wordCap int) (*matchproto.Materials, error) {
	names := []string{"commitment.json", "card_summary_a.md", "card_summary_b.md", "statement_a.md", "statement_b.md"}
	texts := map[string]string{}
	for _, n := range names {
		p := filepath.Join(dir, n)
		// A file linked in from elsewhere could change under the
		// materials' lock (issue 7).
		if err := contained(dir, n); err != nil {
			return nil, err
		}
		// A FIFO or device in the set is an I/O refusal (exit 2), before
		// anything opens it.
		if _, err := readlimit.Regular(p); readlimit.Refused(err) {
			return nil, err
		} else if err != nil {
			return nil, refuse("materials file missing: %s", p)
		}
		if n == "commitment.json" {
			continue
		}
		t, err := readText(p)
		if readlimit.Refused(err) {
			return nil, err
		}
		if err != nil {
			return nil, refuse("cannot read %s: %v", p, err)
		}
		texts[n] = t
	}
	commitment, err := LoadCommitment(filepath.Join(dir, "commitment.json"), "commitment.json")
	if err != nil {
		return nil, err
	}
	hash := mustString(commitment, "commitment_hash")
	criteria := stringsOf(commitment, "criteria")
	if err := matchproto.CheckCriteriaHeadings(criteria); err != nil {
		return nil, refuse("commitment.json: %v", err)
	}
	m := &matchproto.Materials{Commitment: commitment, Hash: hash, Criteria: criteria,
		SummaryA: texts["card_summary_a.md"], SummaryB: texts["card_summary_b.md"],
		RawA: texts["statement_a.md"], RawB: texts["statement_b.md"]}
	for _, side := range []string{"a", "b"} {
		raw, summary := m.RawA, m.SummaryA
		if side == "b" {
			raw, summary = m.RawB, m.SummaryB
		}
		name := "statement_" + side + ".md"
		declared := matchproto.StatementHashLine(raw)
		if declared == "" && strings.HasPrefix(raw, "\ufeff") {
			return nil, refuse("%s starts with a UTF-8 byte-order mark, so it does not open with a 'criteria_commitment: sha256:...' line; save it without the BOM", name)
		}
		if declared == "" {
			return nil, refuse("%s does not open with a 'criteria_commitment: sha256:...' line; the first non-empty line must declare the commitment hash", name)
		}
		if declared != hash {
			return nil, refuse("%s declares %s but the commitment file has %s; refusing to run a panel over mismatched materials", name, declared, hash)
		}
		if node, want := matchproto.StatementNodeLine(raw), matchproto.SummaryNodeID(summary); node != "" && want != "" && node != want {
			return nil, refuse("%s argues for node %s but card_summary_%s.md is node %s; refusing to run a panel over mismatched materials", name, node, side, want)
		}
		v, err := matchproto.VerifyAgainstSummary(side, raw, hash, criteria, summary, wordCap)
		if err != nil {
			return nil, refuse("%v", err)
		}
		if side == "a" {
			m.StatementA = v
		} else {
			m.StatementB = v
		}
	}
	return m, nil
}

// Prompt is a rendered judge prompt.
type Prompt struct {
	Body, System, Digest, File string
}

// RenderPrompt renders the judge prompt of verified materials (§4.1-4.3).
func RenderPrompt(m *matchproto.Materials, t Templates) (*Prompt, error) {
	body, err := matchproto.FillTemplate(t.Body, map[string]string{
		"COMMITMENT_HASH": m.Hash,
		"COMMITMENT_JSON": matchproto.MarshalIndent(m.Commitment),
		"CARD_SUMMARY_A":  matchproto.Fence(matchproto.PyStrip(m.SummaryA)),
		"CARD_SUMMARY_B":  matchproto.Fence(matchproto.PyStrip(m.SummaryB)),
		"STATEMENT_A":     matchproto.Fence(matchproto.PyStrip(m.StatementA.Rebuilt)),
		"STATEMENT_B":     matchproto.Fence(matchproto.PyStrip(m.StatementB.Rebuilt)),
	})
	if err != nil {
		return nil, refuse("%v", err)
	}
	d := matchproto.PromptDigest(body, t.System, t.Binding)
	return &Prompt{Body: body, System: t.System, Digest: d, File: body + replaceOnce(t.Binding, "%s", d)}, nil
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

func mustString(o matchproto.Object, k string) string {
	v, _ := o.Get(k)
	s, _ := v.(string)
	return s
}

func stringsOf(o matchproto.Object, k string) []string {
	v, _ := o.Get(k)
	var out []string
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			out = append(out, s)
		}
	case []string:
		out = t
	}
	return out
}

// Summary is what a rendering step did, for the CLI to print.
type Summary struct{ Written []string }

func (s *Summary) add(p string) { s.Written = append(s.Written, p) }
