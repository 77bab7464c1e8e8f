package match

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/matchproto"
)

const validArtifact = `{
  "match_id": "4c9a2d10", "campaign_id": "3b8e1f70", "idea_a_node_id": "1f6c9d5e", "idea_b_node_id": "2a7d0e6f",
  "criteria_commitment": {"committed_at": "2026-07-05T08:00:00+00:00", "criteria": ["tension resolution", "verification cost"],
    "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"},
  "panel": [
    {"reviewer_family": "claude", "model": "claude/fable", "vote": "a", "anchored_arguments": [{"argument": "x", "anchor_type": "literature", "anchor_ref": "https://example.org/x"}], "unanchored_arguments_discarded": 0},
    {"reviewer_family": "glm", "model": "opencode/glm", "vote": "b", "anchored_arguments": [], "unanchored_arguments_discarded": 0},
    {"reviewer_family": "gpt", "model": "codex/gpt", "vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 1},
    {"reviewer_family": "kimi", "model": "kimi/k", "vote": "tie", "anchored_arguments": [], "unanchored_arguments_discarded": 0}
  ],
  "panel_independence": {"mode": "cross_family", "families_present": ["claude", "glm", "gpt", "kimi"], "families_absent": []},
  "independent_runners": true,
  "outcome": {"winner": "a", "vote_margin": 0.25, "decided_at": "2026-07-05T09:00:00+00:00"},
  "observation_write": {"written": false}
}`

const delete = "\x00delete"

// mutate decodes validArtifact and sets (or deletes) the value at path.
func mutate(t *testing.T, src string, val any, path ...any) any {
	t.Helper()
	d, err := matchproto.Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	root := d.Value
	var set func(cur any, path []any) any
	set = func(cur any, path []any) any {
		if len(path) == 0 {
			return val
		}
		switch c := cur.(type) {
		case matchproto.Object:
			k := path[0].(string)
			if len(path) == 1 && val == delete {
				out := matchproto.Object{}
				for _, m := range c {
					if m.Key != k {
						out = append(out, m)
					}
				}
				return out
			}
			next, _ := c.Get(k)
			return c.Set(k, set(next, path[1:]))
		case []any:
			i := path[0].(int)
			c[i] = set(c[i], path[1:])
			return c
		}
		t.Fatalf("bad path %v", path)
		return nil
	}
	return set(root, path)
}

func TestValidArtifactPasses(t *testing.T) {
	d, _ := matchproto.Decode([]byte(validArtifact))
	if ps := ValidateMatch(d.Value); len(ps) != 0 {
		t.Fatalf("valid artifact: %q", Messages(ps))
	}
	if ps, _ := SchemaProblems("pairwise_match_v1.schema.json", []byte(validArtifact)); len(ps) != 0 {
		t.Fatalf("schema rejects valid artifact: %q", Messages(ps))
	}
	w := mutate(t, validArtifact, matchproto.Object{{Key: "written", Value: true}, {Key: "gaia_package_ref", Value: "project://x#sha256:ab"}}, "observation_write")
	if ps := ValidateMatch(w); len(ps) != 0 {
		t.Errorf("written observation: %q", Messages(ps))
	}
	b := mutate(t, validArtifact, matchproto.Object{{Key: "a", Value: matchproto.Object{{Key: "idea_node_id", Value: "1f6c9d5e"}, {Key: "content_sha256", Value: digest.Of(nil)}}}, {Key: "b", Value: matchproto.Object{{Key: "idea_node_id", Value: "2a7d0e6f"}, {Key: "content_sha256", Value: digest.Of([]byte("x"))}}}}, "statement_binding")
	if ps := ValidateMatch(b); len(ps) != 0 {
		t.Errorf("binding: %q", Messages(ps))
	}
	wantProblem(t, ValidateMatch(mutate(t, Marshalled(b), "2a7d0e6f", "statement_binding", "a", "idea_node_id")), "statement_binding.a.idea_node_id")
	wantProblem(t, ValidateMatch(mutate(t, Marshalled(b), "not-a-hash", "statement_binding", "a", "content_sha256")), "content_sha256 must be sha256")
	// W25: the reference's $-anchored match accepts a trailing newline.
	wantProblem(t, ValidateMatch(mutate(t, Marshalled(b), digest.Of(nil)+"\n", "statement_binding", "a", "content_sha256")), "content_sha256 must be sha256")
}

// Marshalled renders v as the JSON text mutate reads.
func Marshalled(v any) string { return string(matchproto.Marshal(v)) }

// TestValidatorCatchesMutations is test_validator_catches_mutations (§7.3).
func TestValidatorCatchesMutations(t *testing.T) {
	d, _ := matchproto.Decode([]byte(validArtifact))
	panel0, _ := d.Value.(matchproto.Object).Get("panel")
	first2 := panel0.([]any)[:2]
	tests := []struct {
		name string
		val  any
		path []any
		want string
	}{
		{"delete match_id", delete, []any{"match_id"}, "missing top-level key: match_id"},
		{"match_id XYZ", "XYZ", []any{"match_id"}, "not an engine short id"},
		{"match_id uuid", "123e4567-e89b-12d3-a456-426614174000", []any{"match_id"}, "not an engine short id"},
		{"campaign abcdilou", "abcdilou", []any{"campaign_id"}, "not an engine short id"},
		{"campaign upper", "ABCDEFGH", []any{"campaign_id"}, "not an engine short id"},
		{"idea_a 7 chars", "1f6c9d5", []any{"idea_a_node_id"}, "not an engine short id"},
		{"idea_a newline", "1f6c9d5e\n", []any{"idea_a_node_id"}, "not an engine short id"},
		{"idea_b = idea_a", "1f6c9d5e", []any{"idea_b_node_id"}, "equals"},
		{"extra top-level", "x", []any{"surprise"}, "unknown top-level keys"},
		{"criteria changed", []any{"x", "y"}, []any{"criteria_commitment", "criteria"}, "does not match"},
		{"panel empty", []any{}, []any{"panel"}, "non-empty array"},
		{"family GPT", "GPT", []any{"panel", 0, "reviewer_family"}, "family label"},
		{"family newline", "gpt\n", []any{"panel", 0, "reviewer_family"}, "family label"},
		{"family repeated", "claude", []any{"panel", 1, "reviewer_family"}, "more than once"},
		{"seat on cross", jsonInt(1), []any{"panel", 0, "seat"}, "do not number seats"},
		{"delete independence", delete, []any{"panel_independence"}, "missing top-level key: panel_independence"},
		{"mode mixed", "mixed", []any{"panel_independence", "mode"}, "mode must be one of"},
		{"present empty", []any{}, []any{"panel_independence", "families_present"}, "non-empty array"},
		{"present drops kimi", []any{"claude", "glm", "gpt"}, []any{"panel_independence", "families_present"}, "do not match"},
		{"absent no reason", []any{matchproto.Object{{Key: "family", Value: "gemini"}}}, []any{"panel_independence", "families_absent"}, "reason must be a non-empty string"},
		{"absent also voted", []any{matchproto.Object{{Key: "family", Value: "claude"}, {Key: "reason", Value: "also voted"}}}, []any{"panel_independence", "families_absent"}, "both present and absent"},
		{"independence extra", "x", []any{"panel_independence", "surprise"}, "panel_independence has unknown keys"},
		{"vote abstain", "abstain", []any{"panel", 0, "vote"}, "vote must be one of"},
		{"entry extra", "x", []any{"panel", 0, "surprise"}, "unknown keys: surprise"},
		{"anchor_type vibes", "vibes", []any{"panel", 0, "anchored_arguments", 0, "anchor_type"}, "anchor_type must be one of"},
		{"anchor_ref blank", "  ", []any{"panel", 0, "anchored_arguments", 0, "anchor_ref"}, "anchor_ref must be a non-empty string"},
		{"discards -1", jsonInt(-1), []any{"panel", 0, "unanchored_arguments_discarded"}, "integer >= 0"},
		{"discards true", true, []any{"panel", 0, "unanchored_arguments_discarded"}, "integer >= 0"},
		{"discards 1.0", jsonNumber("1.0"), []any{"panel", 0, "unanchored_arguments_discarded"}, "integer >= 0"},
		{"model empty", "", []any{"panel", 0, "model"}, "model must be a non-empty string"},
		{"winner b", "b", []any{"outcome", "winner"}, "does not match the panel tally"},
		{"margin 0.9", jsonNumber("0.9"), []any{"outcome", "vote_margin"}, "does not match the panel tally"},
		{"margin 1.5", jsonNumber("1.5"), []any{"outcome", "vote_margin"}, "must lie in"},
		{"decided 2001", "2001-01-01T00:00:00+00:00", []any{"outcome", "decided_at"}, "precedes"},
		{"delete decided_at", delete, []any{"outcome", "decided_at"}, "outcome is missing key: decided_at"},
		{"written no", "no", []any{"observation_write", "written"}, "must be a boolean"},
		{"ref empty", "", []any{"observation_write", "gaia_package_ref"}, "gaia_package_ref must be a non-empty string"},
		{"observation extra", "x", []any{"observation_write", "surprise"}, "observation_write has unknown keys"},
		{"rationale blank", "   ", []any{"rationale"}, "non-empty string"},
		{"panel 2 entries", first2, []any{"panel"}, "at least 3"},
		{"delete runners", delete, []any{"independent_runners"}, "missing top-level key: independent_runners"},
		{"runners yes", "yes", []any{"independent_runners"}, "independent_runners must be a boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantProblem(t, ValidateMatch(mutate(t, validArtifact, tt.val, tt.path...)), tt.want)
		})
	}
}

func jsonNumber(s string) any { d, _ := matchproto.Decode([]byte(s)); return d.Value }

// test_validator_rejects_single_family_artifact_claiming_independent_runners.
func TestSingleFamilyArtifact(t *testing.T) {
	sf := `{"match_id": "4c9a2d10", "campaign_id": "3b8e1f70", "idea_a_node_id": "1f6c9d5e", "idea_b_node_id": "2a7d0e6f",
  "criteria_commitment": {"committed_at": "2026-07-05T08:00:00+00:00", "criteria": ["tension resolution", "verification cost"],
    "commitment_hash": "sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"},
  "panel": [
    {"reviewer_family": "host", "seat": 1, "model": "host/host-subagent", "vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 0},
    {"reviewer_family": "host", "seat": 2, "model": "host/host-subagent", "vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 0},
    {"reviewer_family": "host", "seat": 3, "model": "host/host-subagent", "vote": "tie", "anchored_arguments": [], "unanchored_arguments_discarded": 0}],
  "panel_independence": {"mode": "single_family", "families_present": ["host"], "families_absent": []},
  "independent_runners": false,
  "outcome": {"winner": "a", "vote_margin": 0.6666666666666666, "decided_at": "2026-07-05T09:00:00+00:00"},
  "observation_write": {"written": false}}`
	d, _ := matchproto.Decode([]byte(sf))
	if ps := ValidateMatch(d.Value); len(ps) != 0 {
		t.Fatalf("valid single-family artifact: %q", Messages(ps))
	}
	if ps, _ := SchemaProblems("pairwise_match_v1.schema.json", []byte(sf)); len(ps) != 0 {
		t.Fatalf("schema: %q", Messages(ps))
	}
	wantProblem(t, ValidateMatch(mutate(t, sf, true, "independent_runners")), "never independent runners")
	ps, _ := SchemaProblems("pairwise_match_v1.schema.json", matchproto.Marshal(mutate(t, sf, true, "independent_runners")))
	if len(ps) == 0 {
		t.Error("schema accepts single_family with independent_runners true")
	}
	wantProblem(t, ValidateMatch(mutate(t, sf, jsonInt(2), "panel", 2, "seat")), "appears more than once")
	wantProblem(t, ValidateMatch(mutate(t, sf, delete, "panel", 2, "seat")), "missing its seat number")
	wantProblem(t, ValidateMatch(mutate(t, sf, "gpt", "panel", 2, "reviewer_family")), "mixes families")
	// The schema carries minItems 3 on the panel (§6.6).
	ps, _ = SchemaProblems("pairwise_match_v1.schema.json", matchproto.Marshal(mutate(t, sf, []any{}, "panel")))
	wantProblem(t, ps, "minItems")
}

// jsonInt is an integer as a decoded JSON value.
func jsonInt(n int) json.Number { return json.Number(strconv.Itoa(n)) }
