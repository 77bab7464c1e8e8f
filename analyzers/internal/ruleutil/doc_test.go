package ruleutil

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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

// TestPackageCommentMatchesGoParser: the line scanner gives exactly what
// go/parser's CommentGroup.Text gives, on every analyzer's doc.go.
func TestPackageCommentMatchesGoParser(t *testing.T) {
	docs, err := filepath.Glob("../../*/doc.go")
	if err != nil || len(docs) < 5 {
		t.Fatalf("doc.go files: %v %v", docs, err)
	}
	for _, p := range docs {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil || f.Doc == nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, err := packageComment(string(src))
		if err != nil || got != f.Doc.Text() {
			t.Errorf("%s: packageComment = %q, %v; go/parser %q", p, got, err, f.Doc.Text())
		}
	}
}

// TestSectionDocIsExtractDoc: the fast path MustExtractDoc takes gives
// what extractDoc gives, on every analyzer's doc.go and on variations of
// a small one (directives, runs of empty lines, a last section, CRLF).
func TestSectionDocIsExtractDoc(t *testing.T) {
	docs, err := filepath.Glob("../../*/doc.go")
	if err != nil || len(docs) < 5 {
		t.Fatalf("doc.go files: %v %v", docs, err)
	}
	type tc struct{ name, content string }
	var cases []tc
	for _, p := range docs {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{filepath.Base(filepath.Dir(p)), string(src)})
	}
	const small = "// Package p does things.\n//\n// # Analyzer p\n//\n// p: check the things  \n//\n//\n// More about\n//go:generate x\n//   the things.\n//\n// # Analyzer q\n//\n// q: another\npackage p\n"
	cases = append(cases, tc{"p", small}, tc{"q", small}, tc{"p", strings.ReplaceAll(small, "\n", "\r\n")},
		tc{"p", strings.Replace(small, "// # Analyzer q", "// # q", 1)},
		tc{"p", strings.Replace(small, "// # Analyzer p\n", "\n// # Analyzer p\n", 1)})
	fast := 0
	for _, c := range cases {
		want, err := extractDoc(c.content, c.name)
		got, ok := sectionDoc(c.content, c.name)
		if ok {
			fast++
		}
		if ok && (err != nil || got != want) {
			t.Errorf("%s: sectionDoc = %q; extractDoc = %q, %v", c.name, got, want, err)
		}
		if !ok && err == nil && c.name != "p" {
			t.Errorf("%s: sectionDoc declined a doc extractDoc reads", c.name)
		}
	}
	if fast < len(docs) {
		t.Errorf("sectionDoc read %d of %d docs", fast, len(cases))
	}
}
