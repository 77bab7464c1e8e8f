package matchproto

import (
	"encoding/json"

	"github.com/nullius-dev/nullius/internal/lazyre"
)

// Runners returns the runners a roster family may declare (§5.2).
func Runners() []string {
	return []string{"native", "codex", "opencode", "kimi", "gemini", "claude-cli"}
}

// ModelRE is the form of a plain model string.
var ModelRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._/:-]*$`)

// Family is one parsed roster family.
type Family struct {
	Label     string
	Runner    string
	Model     string // models.default; "" for an unavailable family without models
	Available bool
	Notes     string
}

// Roster is a parsed agents.json v1 (§5.2), families in file order.
type Roster struct {
	Families []Family
	Minimum  int
}

// Family returns the family labelled label.
func (r *Roster) Family(label string) (Family, bool) {
	for _, f := range r.Families {
		if f.Label == label {
			return f, true
		}
	}
	return Family{}, false
}

// Native returns the native family, if any.
func (r *Roster) Native() (Family, bool) {
	for _, f := range r.Families {
		if f.Runner == "native" {
			return f, true
		}
	}
	return Family{}, false
}

// Labels returns the family labels in roster order.
func (r *Roster) Labels() []string {
	out := make([]string, len(r.Families))
	for i, f := range r.Families {
		out[i] = f.Label
	}
	return out
}

// BuiltinRoster is the roster used when none is found (§5.1): a single
// native family labelled "host", floor 3.
func BuiltinRoster() Object {
	return Object{
		{Key: "version", Value: json.Number("1")},
		{Key: "families", Value: Object{{Key: "host", Value: Object{{Key: "runner", Value: "native"}, {Key: "models", Value: Object{{Key: "default", Value: "host-subagent"}}}}}}},
		{Key: "policy", Value: Object{{Key: "cross_family_minimum", Value: json.Number("3")}, {Key: "when_below_minimum", Value: "native_subagents"}}},
	}
}
