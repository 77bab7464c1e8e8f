package matchproto

import (
	"strings"
	"testing"
)

func TestTallyAndTier(t *testing.T) {
	tests := []struct {
		votes  string
		winner string
		margin float64
		tier   int
		label  string
	}{
		{"a a b tie", "a", 0.25, 3, "split"},
		{"a b tie tie", "tie", 0, 0, "no observation"},
		{"a a a", "a", 1, 10, "unanimous"},
		{"a a b", "a", 1.0 / 3, 3, "split"},
		{"a a tie", "a", 2.0 / 3, 10, "unanimous"},
		{"a a b b", "tie", 0, 0, "no observation"},
		{"b b b", "b", 1, 10, "unanimous"},
		// W28: the reference maps [a, tie, tie] to tier 10, the same as a
		// unanimous panel; nullius needs a majority for tier 10.
		{"a tie tie", "a", 1.0 / 3, 3, "split"},
		{"a tie tie tie tie", "a", 0.2, 3, "split"},
	}
	for _, tt := range tests {
		tr, err := Tally(strings.Fields(tt.votes))
		if err != nil {
			t.Fatal(err)
		}
		if tr.Winner != tt.winner || tr.Margin != tt.margin {
			t.Errorf("%s: winner %s margin %v", tt.votes, tr.Winner, tr.Margin)
		}
		tier, label, err := Tier(tr)
		if err != nil || tier != tt.tier || !strings.Contains(label, tt.label) {
			t.Errorf("%s: tier %d %q %v", tt.votes, tier, label, err)
		}
	}
	tr, _ := Tally([]string{"a", "a"})
	if _, _, err := Tier(tr); err == nil {
		t.Error("tier defined below 3 votes")
	}
	if _, err := Tally(nil); err == nil {
		t.Error("empty tally accepted")
	}
	if _, err := Tally([]string{"maybe"}); err == nil {
		t.Error("bad vote accepted")
	}
}

func TestExtractVote(t *testing.T) {
	ex := ExampleVote()
	if ex == nil {
		t.Fatal("example vote does not parse")
	}
	real := "```json\n{\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```"
	exampleFence := "```json\n" + `{"vote": "tie", "anchored_arguments": [{"argument": "...", "anchor_type": "literature", "anchor_ref": "..."}], "unanchored_arguments_discarded": 0}` + "\n```"
	tests := []struct {
		name, text, vote, err string
	}{
		{"fenced", "Here is my vote.\n" + real + "\nThanks.", "a", ""},
		// W16: the reference records the quoted example (tie).
		{"example then real", "The prompt asks for:\n" + exampleFence + "\nMy answer:\n" + real, "a", ""},
		{"only example", exampleFence, "", "no JSON object"},
		{"uppercase JSON fence", "```JSON\n{\"vote\": \"b\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```", "b", ""},
		{"tilde fence", "~~~\n{\"vote\": \"b\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n~~~", "b", ""},
		{"bare", `{"vote": "tie", "anchored_arguments": [], "unanchored_arguments_discarded": 2}`, "tie", ""},
		{"brace fallback", `I vote: {"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 0} done`, "a", ""},
		{"array", `[{"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 0}]`, "a", ""},
		{"garbage", "I refuse to vote.", "", "no JSON object"},
		// W16: prose with a stray {…} before an unfenced vote.
		{"stray braces then vote", `Using {x} as a set: {"vote": "b", "anchored_arguments": [], "unanchored_arguments_discarded": 0} is my vote.`, "b", ""},
		{"example fenced then unfenced vote", exampleFence + "\nMine: {\"vote\": \"a\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}", "a", ""},
		{"two unfenced votes", `{"vote": "a", "anchored_arguments": [], "unanchored_arguments_discarded": 0} or maybe {"vote": "b", "anchored_arguments": [], "unanchored_arguments_discarded": 0}`, "", "cannot tell"},
		{"NaN", `{"vote": "a", "x": NaN}`, "", "no JSON object"},
		{"two votes", real + "\n```json\n{\"vote\": \"b\", \"anchored_arguments\": [], \"unanchored_arguments_discarded\": 0}\n```", "", "cannot tell"},
		{"same vote twice", real + "\n" + real, "a", ""},
		{"duplicate keys", `{"vote": "a", "vote": "b"}`, "", "no JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ExtractVote(tt.text, ex)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v, _ := o.Get("vote"); v != tt.vote {
				t.Errorf("vote = %v, want %s", v, tt.vote)
			}
		})
	}
}
