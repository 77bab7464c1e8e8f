package output

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/plural"
)

// annotationCap is how many annotations of one kind GitHub shows per step
// (actions/toolkit docs/problem-matchers.md); the rest are dropped.
const annotationCap = 10

// writeGitHub prints GitHub Actions workflow commands, one per finding:
//
//	::error file=src/p/__init__.py,line=12,col=5,endLine=14,endColumn=6,title=GAIA011::message
//
// Columns are code points when the file can be read (never the middle of
// a multi-byte character), and are left out when the finding spans
// several lines, where GitHub ignores them. When more errors or warnings
// than GitHub displays were printed, a closing notice says so and points
// at the SARIF upload or the text output.
func writeGitHub(w io.Writer, ds []diag.Diagnostic, meta Meta) error {
	bw := bufio.NewWriter(w)
	src := newSources(meta.ReadFile)
	counts := map[string]int{}
	for _, d := range ds {
		kind := "error"
		switch {
		case d.Suppressed && !meta.ShowSuppressed:
			continue
		case d.Suppressed:
			kind = "notice"
		case d.Severity != diag.Error:
			kind = "warning"
		}
		counts[kind]++
		msg := d.Message
		if d.Suppressed {
			msg = "[suppressed] " + msg
		}
		bw.WriteString("::" + kind + " " + annotationProps(d, meta, src) + "::" + escapeData(msg) + "\n")
	}
	if counts["error"] > annotationCap || counts["warning"] > annotationCap {
		fmt.Fprintf(bw, "::notice title=nullius::%s\n", escapeData(fmt.Sprintf(
			"nullius reported %s and %s; GitHub shows at most %d of each per step, so see the SARIF upload or the text output for the rest",
			plural.N(counts["error"], "error"), plural.N(counts["warning"], "warning"), annotationCap)))
	}
	return bw.Flush()
}

func annotationProps(d diag.Diagnostic, meta Meta, src *sources) string {
	var props []string
	if d.Path != "" {
		props = append(props, "file="+escapeProperty(repoPath(d.Path, meta)))
	}
	if d.Line > 0 {
		props = append(props, "line="+strconv.Itoa(d.Line))
		sameLine := d.EndLine <= d.Line
		text, known := src.line(d.Path, d.Line)
		col := func(c int) int {
			if known {
				return runeColumn(text, c)
			}
			return c
		}
		if sameLine && d.Column > 0 {
			props = append(props, "col="+strconv.Itoa(col(d.Column)))
		}
		if d.EndLine > d.Line {
			props = append(props, "endLine="+strconv.Itoa(d.EndLine))
		}
		if sameLine && d.Column > 0 && d.EndColumn > d.Column {
			props = append(props, "endColumn="+strconv.Itoa(col(d.EndColumn)))
		}
	}
	props = append(props, "title="+escapeProperty(d.Code))
	return strings.Join(props, ",")
}

// escapeData escapes a workflow command's message the way the official
// toolkit does (actions/toolkit packages/core/src/command.ts).
func escapeData(s string) string { return dataEscaper.Replace(s) }

var (
	dataEscaper     = lazy.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = lazy.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// escapeProperty escapes a workflow command property value: the data
// escapes plus ':' and ','.
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
