package schemas

import (
	"strings"
	"testing"
)

// Every embedded artifact schema compiles, once: a second Compile returns
// the same compiled schema (validating many files never recompiles it).
func TestCompileOnce(t *testing.T) {
	// The input schemas the validators compile (the output schemas refer
	// to one another and are checked with a loader in their own tests).
	for _, name := range []string{
		"literature_survey_v1.schema.json", "close_prior_matrix.schema.json", "saturation_ledger.schema.json",
		"pairwise_match_v1.schema.json", "match_commitment_v1.schema.json", "vote_record_v1.schema.json",
		"panel_run_report_v1.schema.json", "agents_v1.schema.json", "posterior_payload.schema.json",
	} {
		a, err := Compile(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b, _ := Compile(name); a != b {
			t.Errorf("%s compiled twice", name)
		}
	}
	if _, err := Compile("nope.schema.json"); err == nil || !strings.Contains(err.Error(), "is not embedded") {
		t.Errorf("a missing schema: %v", err)
	}
}
