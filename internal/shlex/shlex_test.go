package shlex

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestSplitMatchesPython replays the table CPython's shlex.split produced
// (scripts/runner_template_golden.py): every word, byte for byte, and
// every error message.
func TestSplitMatchesPython(t *testing.T) {
	b, err := os.ReadFile("testdata/split.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases []struct {
			In    string    `json:"in"`
			Words *[]string `json:"words"`
			Error string    `json:"error"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) < 600 {
		t.Fatalf("only %d cases", len(golden.Cases))
	}
	for _, c := range golden.Cases {
		words, err := Split(c.In)
		switch {
		case c.Words == nil && (err == nil || err.Error() != c.Error):
			t.Errorf("Split(%q) = %q, %v; Python: ValueError %q", c.In, words, err, c.Error)
		case c.Words != nil && (err != nil || !slices.Equal(words, *c.Words) || (words == nil) != (len(*c.Words) == 0)):
			t.Errorf("Split(%q) = %q, %v; Python: %q", c.In, words, err, *c.Words)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{`a "b c" 'd'`, `"\"`, `x\`, `'`, "a\\\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil && err != ErrNoClosingQuotation && err != ErrNoEscapedCharacter {
			t.Fatalf("unknown error %v", err)
		}
		for _, w := range words {
			if len(w) > len(s) {
				t.Fatalf("word %q longer than its input %q", w, s)
			}
		}
	})
}
