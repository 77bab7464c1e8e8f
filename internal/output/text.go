package output

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fatih/color"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/plural"
)

// textStyle holds the colours of the text format. Each color.Color is
// switched on or off explicitly from Meta.Color: fatih/color otherwise
// decides from its package-global NoColor, which it computes from stdout
// even when we write elsewhere.
type textStyle struct {
	path, errCode, warnCode, faint, summary *color.Color
}

func newTextStyle(on bool) textStyle {
	s := textStyle{
		path:     color.New(color.Bold),
		errCode:  color.New(color.FgRed, color.Bold),
		warnCode: color.New(color.FgYellow, color.Bold),
		faint:    color.New(color.Faint),
		summary:  color.New(color.Bold),
	}
	for _, c := range []*color.Color{s.path, s.errCode, s.warnCode, s.faint, s.summary} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return s
}

// writeText prints one line per finding,
//
//	path:line:col: CODE message
//	path:line:col: CODE [warning] message
//	path:line:col: CODE [suppressed] message      (only with ShowSuppressed)
//
// leaving out a line or column that is unknown (0), then a summary line
// when at least one finding was printed. A clean run prints nothing.
func writeText(w io.Writer, ds []diag.Diagnostic, meta Meta) error {
	st := newTextStyle(meta.Color)
	bw := bufio.NewWriter(w)
	printed := 0
	for _, d := range ds {
		if d.Suppressed && !meta.ShowSuppressed {
			continue
		}
		printed++
		code := st.errCode
		if d.Severity != diag.Error {
			code = st.warnCode
		}
		var tags []string
		if d.Severity != diag.Error {
			tags = append(tags, string(d.Severity))
		}
		if d.Suppressed {
			tags = append(tags, "suppressed")
			code = st.faint
		}
		line := st.path.Sprint(oneLine(position(d))) + ": " + code.Sprint(oneLine(d.Code)) + " "
		if len(tags) > 0 {
			line += st.faint.Sprint("["+strings.Join(tags, ", ")+"]") + " "
		}
		bw.WriteString(line + oneLine(d.Message) + "\n")
	}
	// A run whose every finding is suppressed still says so: silence would
	// read as "nothing to see" (issue 16).
	if s := Summarize(ds, meta.Files); printed > 0 || s.Suppressed > 0 {
		bw.WriteString(st.summary.Sprint(summaryLine(s, meta.ShowSuppressed)) + "\n")
	}
	return bw.Flush()
}

// position renders path:line:col, dropping unknown parts.
func position(d diag.Diagnostic) string {
	p := d.Path
	if p == "" {
		p = "-"
	}
	if d.Line > 0 {
		p += ":" + strconv.Itoa(d.Line)
		if d.Column > 0 {
			p += ":" + strconv.Itoa(d.Column)
		}
	}
	return p
}

// oneLine keeps a finding on one line whatever its message (or a file
// name, which may hold a newline on Unix) holds, so that editors and grep
// can rely on one finding per line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return newlineEscaper.Replace(s)
}

var newlineEscaper = lazy.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)

// String is the summary as the text format ends with, e.g. "2 errors,
// 1 warning in 3 files (1 suppressed)".
func (s Summary) String() string { return summaryLine(s, true) }

// summaryLine is e.g. "2 errors, 1 warning in 2 of 3 files (1 suppressed;
// --show-suppressed lists them)": the files are those the findings are in,
// out of those examined.
func summaryLine(s Summary, shown bool) string {
	out := plural.N(s.Errors, "error") + ", " + plural.N(s.Warnings, "warning")
	switch {
	case s.WithFindings > 0 && s.Files > s.WithFindings:
		out += fmt.Sprintf(" in %d of %s", s.WithFindings, plural.N(s.Files, "file"))
	case s.WithFindings > 0:
		out += " in " + plural.N(s.WithFindings, "file")
	}
	if s.Suppressed > 0 {
		if shown {
			out += fmt.Sprintf(" (%d suppressed)", s.Suppressed)
		} else {
			out += fmt.Sprintf(" (%d suppressed; --show-suppressed lists them)", s.Suppressed)
		}
	}
	return out
}
