package match

import (
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

func TestValidateVotePayload(t *testing.T) {
	ok := `{"vote": "a", "anchored_arguments": [{"argument": "x", "anchor_type": "computation", "anchor_ref": "y", "extra": 1}], "unanchored_arguments_discarded": 0, "note": "extra top-level key"}`
	if ps := ValidateVotePayload(jsonNumber(ok), ""); len(ps) != 0 {
		t.Fatal(Messages(ps))
	}
	cleaned := matchproto.CleanVote(jsonNumber(ok).(matchproto.Object))
	if string(matchproto.MarshalCompact(cleaned)) != `{"vote":"a","anchored_arguments":[{"argument":"x","anchor_type":"computation","anchor_ref":"y"}],"unanchored_arguments_discarded":0}` {
		t.Errorf("CleanVote = %s", matchproto.MarshalCompact(cleaned))
	}
	bad := map[string]string{
		`{"vote": "maybe", "anchored_arguments": [], "unanchored_arguments_discarded": 0}`:                                                              "vote must be one of",
		`{"vote": "a", "anchored_arguments": {}, "unanchored_arguments_discarded": 0}`:                                                                  "must be an array",
		`{"vote": "a", "anchored_arguments": [1], "unanchored_arguments_discarded": 0}`:                                                                 "must be an object",
		`{"vote": "a", "anchored_arguments": [{"argument": " ", "anchor_type": "literature", "anchor_ref": "r"}], "unanchored_arguments_discarded": 0}`: "argument must be a non-empty string",
		`{"vote": "a", "anchored_arguments": [{"argument": "x", "anchor_type": "vibes", "anchor_ref": "r"}], "unanchored_arguments_discarded": 0}`:      "anchor_type must be one of",
		`{"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": true}`:                                                               "integer >= 0",
		`{"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 1.0}`:                                                                "integer >= 0",
		`{"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": -1}`:                                                                 "integer >= 0",
		`[]`: "not a JSON object",
	}
	for src, want := range bad {
		wantProblem(t, ValidateVotePayload(jsonNumber(src), ""), want)
	}
	big := `{"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 123456789012345678901234567890}`
	if ps := ValidateVotePayload(jsonNumber(big), ""); len(ps) != 0 {
		t.Errorf("arbitrary-precision int refused: %q", Messages(ps))
	}
}
