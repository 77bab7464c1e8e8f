package ruleutil

import (
	"errors"
	"fmt"
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
//
// It runs at package initialisation, for every analyzer, in every nullius
// process, so it first looks in extracted (docs_gen.go, this function's
// results recorded by TestExtractedDocs): a doc.go of the recorded length
// is neither read nor copied at start (issue 15: ~10 analyzers' docs, each
// touched and built anew, were a third of our packages' init). Otherwise
// the usual doc.go is read by sectionDoc, which turns only the section's
// lines into text; anything else takes extractDoc.
func MustExtractDoc(content, name string) string {
	for _, e := range extracted {
		if e.name == name && e.size == len(content) {
			return e.doc
		}
	}
	if doc, ok := sectionDoc(content, name); ok {
		return doc
	}
	doc, err := extractDoc(content, name)
	if err != nil {
		panic(err)
	}
	return doc
}

func extractDoc(content, name string) (string, error) {
	text, err := packageComment(content)
	if err != nil {
		return "", fmt.Errorf("doc.go of analyzer %s: %v", name, err)
	}
	if text == "" {
		return "", fmt.Errorf("doc.go of analyzer %s has no package comment", name)
	}
	_, section, ok := strings.Cut(text, "\n# Analyzer "+name+"\n")
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

// sectionDoc is extractDoc for a doc.go whose section heading is a line
// "// # Analyzer NAME" of the comment block right before the package
// clause, building only the section's text; ok is false for anything else
// (extractDoc then says what is wrong). TestSectionDocIsExtractDoc
// compares the two.
func sectionDoc(content, name string) (doc string, ok bool) {
	heading := "\n// # Analyzer " + name + "\n"
	i := strings.Index(content, heading)
	if i < 0 {
		return "", false
	}
	// The heading follows a text line of the same comment block.
	prev := content[strings.LastIndexByte(content[:i], '\n')+1 : i]
	if !strings.HasPrefix(prev, "//") || strings.HasPrefix(prev, "//go:") || strings.HasPrefix(prev, "//line ") {
		return "", false
	}
	rest := content[i+len(heading):]
	var b strings.Builder
	b.Grow(len(rest))
	lines, prevEmpty, ended := 0, false, false
	for {
		line, tail, more := strings.Cut(rest, "\n")
		rest = tail
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(line, "package ") {
			break
		}
		l, isComment := strings.CutPrefix(line, "//")
		if !isComment || !more {
			return "", false // not the package comment
		}
		if ended || strings.HasPrefix(l, "go:") || strings.HasPrefix(l, "line ") {
			continue // past the section, or a directive (not text)
		}
		l = strings.TrimRight(strings.TrimPrefix(l, " "), " \t")
		if l == "" && prevEmpty {
			continue // runs of empty lines are one
		}
		if lines > 0 && strings.HasPrefix(l, "# ") {
			ended = true // the next section
			continue
		}
		if lines > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		lines++
		prevEmpty = l == ""
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(b.String()), name+":")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(body), true
}

// packageComment returns the text of the // comment block right before
// the package clause of a Go file, as go/ast's CommentGroup.Text gives it
// (markers and the first space removed, trailing spaces trimmed, runs of
// empty lines made one, leading and trailing empty lines dropped). It
// runs at package initialisation, for every analyzer, so it scans lines
// instead of parsing the file (TestPackageCommentMatchesGoParser compares
// the two on every analyzer's doc.go).
func packageComment(src string) (string, error) {
	var lines []string
	for line := range strings.Lines(src) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "//"):
			lines = append(lines, line)
		case strings.HasPrefix(line, "package "):
			return commentText(lines), nil
		case strings.TrimSpace(line) == "":
			lines = nil // a blank line ends a comment group
		default:
			return "", errors.New("no package clause after the comment (only // comments are supported)")
		}
	}
	return "", errors.New("no package clause")
}

// commentText is CommentGroup.Text for // lines.
func commentText(lines []string) string {
	var out []string
	for _, l := range lines {
		l = strings.TrimPrefix(l, "//")
		if strings.HasPrefix(l, "go:") || strings.HasPrefix(l, "line ") {
			continue // directives are not text
		}
		l = strings.TrimPrefix(l, " ")
		l = strings.TrimRight(l, " \t")
		if l == "" && (len(out) == 0 || out[len(out)-1] == "") {
			continue
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
