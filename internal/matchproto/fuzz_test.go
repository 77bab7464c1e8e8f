package matchproto

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
