package ruleutil

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// MustExtractDoc returns the Doc of analyzer name from the text of its
// package's doc.go, so the doc is written once, as the package comment,
// and godoc and Analyzer.Doc cannot drift apart (x/tools does the same in
// internal/analysis/analyzerutil). The comment holds a section
//
//	# Analyzer NAME
//
//	NAME: SUMMARY
//
//	Full description...
//
// and the result is the section without its heading and "NAME: " prefix:
// the summary line, a blank line, the description. It panics when the
// section is missing, a programming error every test run catches.
func MustExtractDoc(content, name string) string {
	doc, err := extractDoc(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

func extractDoc(content, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return "", fmt.Errorf("doc.go of analyzer %s: %v", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc.go of analyzer %s has no package comment", name)
	}
	_, section, ok := strings.Cut(f.Doc.Text(), "\n# Analyzer "+name+"\n")
	if !ok {
		return "", fmt.Errorf("doc.go has no %q section", "# Analyzer "+name)
	}
	if i := strings.Index(section, "\n# "); i >= 0 {
		section = section[:i]
	}
	section = strings.TrimSpace(section)
	body, ok := strings.CutPrefix(section, name+":")
	if !ok {
		return "", fmt.Errorf("doc.go section %q does not start with %q", "# Analyzer "+name, name+":")
	}
	return strings.TrimSpace(body), nil
}
