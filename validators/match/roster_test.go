package match

import (
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

// rosterFixture is ROSTER of §7.
const rosterFixture = `{
  "version": 1,
  "families": {
    "claude": {"runner": "native", "models": {"default": "fable", "strong": "opus"}},
    "gpt": {"runner": "codex", "models": {"default": "gpt-5.6-terra", "strong": "gpt-5.6-sol", "fast": "gpt-5.6-luna"}},
    "glm": {"runner": "opencode", "models": {"default": "zhipuai-coding-plan/glm-5.2"}, "notes": "via opencode"},
    "kimi": {"runner": "kimi", "models": {"default": "kimi-code/kimi-for-coding"}},
    "gemini": {"runner": "gemini", "available": false, "notes": "no local access on this machine"}
  },
  "policy": {"cross_family_minimum": 3, "when_below_minimum": "native_subagents"}
}`

func TestParseRosterFixture(t *testing.T) {
	d, _ := matchproto.Decode([]byte(rosterFixture))
	r, ps := ParseRoster(d.Value)
	if len(ps) != 0 {
		t.Fatal(Messages(ps))
	}
	if strings.Join(r.Labels(), ",") != "claude,gpt,glm,kimi,gemini" || r.Minimum != 3 {
		t.Errorf("order %v min %d", r.Labels(), r.Minimum)
	}
	c, _ := r.Family("claude")
	if c != (matchproto.Family{Label: "claude", Runner: "native", Model: "fable", Available: true, Notes: ""}) {
		t.Errorf("claude = %+v", c)
	}
	g, _ := r.Family("gemini")
	if g.Available || g.Model != "" || g.Notes != "no local access on this machine" {
		t.Errorf("gemini = %+v", g)
	}
	b, ps := ParseRoster(matchproto.BuiltinRoster())
	if len(ps) != 0 || strings.Join(b.Labels(), ",") != "host" || b.Families[0].Runner != "native" || b.Minimum != 3 {
		t.Errorf("builtin: %v %+v", Messages(ps), b)
	}
	if r, _ := ParseRoster(mutate(t, rosterFixture, jsonInt(4), "policy", "cross_family_minimum")); r == nil || r.Minimum != 4 {
		t.Error("minimum 4 not accepted")
	}
	accept := map[string]any{
		"own tiers repeat":  mutate(t, rosterFixture, "gpt-5.6-terra", "families", "gpt", "models", "strong"),
		"opencode distinct": mutate(t, rosterFixture, matchproto.Object{{Key: "runner", Value: "opencode"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "moonshot/kimi-k3"}}}}, "families", "kimi"),
		"_notes array":      mutate(t, rosterFixture, []any{"a", "b"}, "_notes"),
	}
	for name, v := range accept {
		if _, ps := ParseRoster(v); len(ps) != 0 {
			t.Errorf("%s: %q", name, Messages(ps))
		}
	}
}

// TestParseRosterRejectsBadShapes is test_parse_roster_rejects_bad_shapes
// plus the named rejection tests of §7.5.
func TestParseRosterRejectsBadShapes(t *testing.T) {
	glm := matchproto.Object{{Key: "runner", Value: "opencode"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "zhipuai-coding-plan/glm-5.2"}}}}
	tests := []struct {
		name string
		val  any
		path []any
		want string
	}{
		{"version 2", jsonInt(2), []any{"version"}, "version must be the integer 1"},
		{"version true", true, []any{"version"}, "version must be the integer 1"},
		{"version 1.0", jsonNumber("1.0"), []any{"version"}, "version must be the integer 1"},
		{"version string", "1", []any{"version"}, "version must be the integer 1"},
		{"version missing", delete, []any{"version"}, "version must be the integer 1"},
		{"top-level extra", "x", []any{"extra"}, "unknown top-level keys"},
		{"families empty", matchproto.Object{}, []any{"families"}, "non-empty object"},
		{"warp-drive", matchproto.Object{{Key: "runner", Value: "warp-drive"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "q"}}}}, []any{"families", "qwen"}, "runner must be one of"},
		{"no default", matchproto.Object{{Key: "fast", Value: "x"}}, []any{"families", "gpt", "models"}, `must carry a "default" entry`},
		{"placeholder model", "<CONFIRM-FROM-RUNNER>", []any{"families", "kimi", "models", "default"}, "plain model string"},
		{"second native", matchproto.Object{{Key: "runner", Value: "native"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "x"}}}}, []any{"families", "host"}, "exactly one native seat"},
		{"BadLabel", matchproto.Object{{Key: "runner", Value: "gemini"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "x"}}}}, []any{"families", "BadLabel"}, "family label"},
		{"label newline", matchproto.Object{{Key: "runner", Value: "gemini"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "x"}}}}, []any{"families", "qwen\n"}, "family label"},
		{"model newline", "gpt-5.6-terra\n", []any{"families", "gpt", "models", "default"}, "plain model string"},
		{"model list", []any{"x"}, []any{"families", "gpt", "models", "default"}, "models['default'] must be a plain model string"},
		{"family extra", "x", []any{"families", "gpt", "surprise"}, "unknown keys"},
		{"minimum 2", jsonInt(2), []any{"policy", "cross_family_minimum"}, "cannot lower it"},
		{"substitute", "substitute", []any{"policy", "when_below_minimum"}, "when_below_minimum"},
		{"policy extra", "x", []any{"policy", "surprise"}, "policy has unknown keys"},
		{"policy null", nil, []any{"policy"}, "policy must be an object"},
		{"dedicated kimi", matchproto.Object{{Key: "runner", Value: "kimi"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "other/model"}}}}, []any{"families", "glm"}, "dedicated runner 'kimi'"},
		{"dedicated unavailable", matchproto.Object{{Key: "runner", Value: "kimi"}, {Key: "available", Value: false}}, []any{"families", "glm"}, "dedicated runner 'kimi'"},
		{"identical pair", glm, []any{"families", "kimi"}, "identical (runner, model) pair (opencode, zhipuai-coding-plan/glm-5.2)"},
		{"pair on other tier", matchproto.Object{{Key: "runner", Value: "opencode"}, {Key: "models", Value: matchproto.Object{{Key: "default", Value: "x/y"}, {Key: "strong", Value: "zhipuai-coding-plan/glm-5.2"}}}}, []any{"families", "kimi"}, "identical (runner, model) pair (opencode, zhipuai-coding-plan/glm-5.2)"},
		{"available not bool", "yes", []any{"families", "gpt", "available"}, "available must be a boolean"},
		{"notes not string", jsonInt(1), []any{"families", "gpt", "notes"}, "notes must be a string"},
		{"models missing", delete, []any{"families", "gpt", "models"}, "required unless the family is declared unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ps := ParseRoster(mutate(t, rosterFixture, tt.val, tt.path...))
			if r != nil {
				t.Fatal("accepted")
			}
			wantProblem(t, ps, tt.want)
		})
	}
	_, ps := ParseRoster([]any{})
	wantProblem(t, ps, "roster must be a JSON object")
}
