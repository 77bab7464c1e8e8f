package fakes

import "testing"

// The argue stub credits the first anchor of the statement it votes for,
// never one of the other side or of the prompt's own instructions.
func TestStatementAnchor(t *testing.T) {
	prompt := []byte("Rules: cite as [anchor: literature -> https://rules.example]\n\n" +
		"### Advocacy statement for Idea A\n\n````markdown\n# Advocacy statement: Idea A\n\n## cost\n\nCheap to check. [anchor: computation -> artifact://a/pilot.json]\n````\n\n" +
		"### Advocacy statement for Idea B\n\n````markdown\n## cost\n\nNo anchor here.\nAlready measured. [anchor: literature -> https://b.example/paper]\n````\n\n## Required output\n")
	for side, want := range map[string][3]string{
		"a": {"Cheap to check.", "computation", "artifact://a/pilot.json"},
		"b": {"Already measured.", "literature", "https://b.example/paper"},
	} {
		m := statementAnchor(prompt, side)
		if m == nil || string(m[1]) != want[0] || string(m[2]) != want[1] || string(m[3]) != want[2] {
			t.Errorf("side %s: got %q, want %q", side, m, want)
		}
	}
	if m := statementAnchor([]byte("### Advocacy statement for Idea A\nnothing\n### Advocacy statement for Idea B\n[anchor: x -> y]"), "a"); m != nil {
		t.Errorf("statement A has no anchor, got %q", m)
	}
}
