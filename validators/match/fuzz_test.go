package match

import (
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

// FuzzParseRoster: the roster parser never panics and never returns both a
// roster and problems, and an accepted roster keeps the protocol floor.
func FuzzParseRoster(f *testing.F) {
	f.Add(rosterFixture)
	f.Add(`{"version": 1, "families": {"host": {"runner": "native", "models": {"default": "h"}}}, "policy": null}`)
	f.Add(`{"version": 1.0, "families": {"a": {"runner": "kimi", "available": "no", "models": []}}}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := matchproto.Decode([]byte(src))
		if err != nil {
			return
		}
		r, ps := ParseRoster(d.Value)
		if (r == nil) == (len(ps) == 0) {
			t.Fatalf("roster %v with problems %v", r, ps)
		}
		if r != nil && r.Minimum < 3 {
			t.Fatalf("minimum %d below the floor", r.Minimum)
		}
	})
}

// FuzzValidateMatch: the artifact validator never panics on any JSON.
func FuzzValidateMatch(f *testing.F) {
	f.Add(validArtifact)
	f.Add(`{"panel": [1, {"seat": true}], "panel_independence": {"mode": "single_family", "families_present": [1]}, "outcome": []}`)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := matchproto.Decode([]byte(src))
		if err != nil {
			return
		}
		_ = ValidateMatch(d.Value)
		_ = ValidateReport(d.Value)
		_ = ValidateVoteRecord(d.Value)
		_ = ValidateCommitment(d.Value, "")
	})
}

// FuzzExtractVote: the extractor never panics and what it returns is an
// object that is not the prompt's example.
func FuzzExtractVote(f *testing.F) {
	for _, s := range []string{
		"```json\n{\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```",
		"```json\n{\"vote\": \"tie\", \"anchored_arguments\": [{\"argument\": \"...\", \"anchor_type\": \"literature\", \"anchor_ref\": \"...\"}], \"unanchored_arguments_discarded\": 0}\n```\n{\"vote\": \"b\"}",
		"prose {\"x\": 1} more {\"vote\": NaN}", "~~~\n{}\n~~~", "[{\"vote\": \"a\"}]", "",
	} {
		f.Add(s)
	}
	ex := matchproto.ExampleVote()
	f.Fuzz(func(t *testing.T, text string) {
		o, err := matchproto.ExtractVote(text, ex)
		if err == nil && o == nil {
			t.Fatal("nil object without error")
		}
		if err == nil {
			_ = ValidateVotePayload(o, "")
		}
	})
}
