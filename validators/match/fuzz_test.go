package match

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAnalyzeStatement: the statement parser never panics, keeps only
// anchored lines whose refs are card evidence, and its rebuild re-parses to
// the same arguments (the rebuild is a fixed point).
func FuzzAnalyzeStatement(f *testing.F) {
	seeds := []string{
		"criteria_commitment: " + hashG2 + "\nidea_node_id: 1f6c9d5e\n## tension resolution\nGood. [anchor: literature -> " + evA + "]\n## Honest weaknesses\nNarrow.\n",
		"## verification cost\nE=mc² [anchor: computation -> artifact://x/y.json]\r\n### Tension Resolution ###\nx [anchor: literature -> a] [anchor: literature -> " + evA + "]",
		"\ufeff# \uff3banchor: literature -> " + evA + "\uff3d\n\x1c\x85\u2028##\t\tverification cost\n",
		"",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	allowed := map[string]bool{evA: true, "artifact://x/y.json": true}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		a := AnalyzeStatement(text, crit, allowed)
		for _, sec := range a.Sections {
			for _, arg := range sec {
				if !allowed[arg.AnchorRef] || arg.Text == "" || strings.ContainsAny(arg.Text, "\n\r") {
					t.Fatalf("kept a bad argument %+v", arg)
				}
			}
		}
		out := Rebuild("a", "1f6c9d5e", hashG2, a)
		b := AnalyzeStatement(out, crit, allowed)
		if b.Anchored() != a.Anchored() {
			t.Fatalf("rebuild is not a fixed point: %d vs %d anchored\n%s", a.Anchored(), b.Anchored(), out)
		}
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
	ex := ExampleVote()
	f.Fuzz(func(t *testing.T, text string) {
		o, err := ExtractVote(text, ex)
		if err == nil && o == nil {
			t.Fatal("nil object without error")
		}
		if err == nil {
			_ = ValidateVotePayload(o, "")
		}
	})
}

// FuzzParseRoster: the roster parser never panics and never returns both a
// roster and problems, and an accepted roster keeps the protocol floor.
func FuzzParseRoster(f *testing.F) {
	f.Add(rosterFixture)
	f.Add(`{"version": 1, "families": {"host": {"runner": "native", "models": {"default": "h"}}}, "policy": null}`)
	f.Add(`{"version": 1.0, "families": {"a": {"runner": "kimi", "available": "no", "models": []}}}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, src string) {
		d, err := Decode([]byte(src))
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
		d, err := Decode([]byte(src))
		if err != nil {
			return
		}
		_ = ValidateMatch(d.Value)
		_ = ValidateReport(d.Value)
		_ = ValidateVoteRecord(d.Value)
		_ = ValidateCommitment(d.Value, "")
	})
}
