package ruleutil

import (
	"strings"
	"testing"
)

func TestExtractDoc(t *testing.T) {
	const content = `// Package p does things.
//
// # Analyzer p
//
// p: check the things
//
// More about the things.
//
// # Analyzer q
//
// q: another
package p
`
	got, err := extractDoc(content, "p")
	if want := "check the things\n\nMore about the things."; err != nil || got != want {
		t.Errorf("extractDoc = %q, %v; want %q", got, err, want)
	}
	for _, tt := range []struct{ content, name, want string }{
		{content, "r", `no "# Analyzer r" section`},
		{strings.Replace(content, "// p: check", "// check", 1), "p", `does not start with "p:"`},
		{"package p\n", "p", "no package comment"},
		{"not go", "p", "doc.go of analyzer p"},
	} {
		if _, err := extractDoc(tt.content, tt.name); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("extractDoc(%q) error = %v, want %q", tt.name, err, tt.want)
		}
	}
}
