// Package output prints diagnostics in every format nullius supports:
// text, json, sarif and github. Printers are pure functions from a sorted
// diagnostic list to an io.Writer; file destinations are written atomically
// by the caller.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
)

// Meta is what a printer may need besides the diagnostics.
type Meta struct {
	Command string // e.g. "lint", "validate match"
	Version string // nullius version
	Color   bool   // text only: colourise
	Files   int    // number of files examined, for the summary
}

// Target is one requested output: a format and an optional file path
// ("" means stdout).
type Target struct {
	Format string
	Path   string
}

// Formats lists the supported format names.
func Formats() []string { return []string{"text", "json", "sarif", "github"} }

// ParseTargets parses a --format value such as "text,sarif:out.sarif".
// At most one target may go to stdout.
func ParseTargets(spec string) ([]Target, error) {
	var out []Target
	stdout := 0
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, path, _ := strings.Cut(part, ":")
		if !known(name) {
			return nil, fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(Formats(), ", "))
		}
		if path == "" {
			stdout++
		}
		out = append(out, Target{Format: name, Path: path})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no output format given (want one of %s)", strings.Join(Formats(), ", "))
	}
	if stdout > 1 {
		return nil, fmt.Errorf("--format %q sends more than one format to stdout; give the others a file (e.g. sarif:out.sarif)", spec)
	}
	return out, nil
}

func known(name string) bool {
	for _, f := range Formats() {
		if f == name {
			return true
		}
	}
	return false
}

// Write prints ds (already sorted with diag.SortDedup) in format to w.
func Write(w io.Writer, format string, ds []diag.Diagnostic, meta Meta) error {
	switch format {
	case "text":
		return writeText(w, ds, meta)
	case "json":
		return writeJSON(w, ds, meta)
	}
	return fmt.Errorf("format %q is not implemented yet", format)
}

// Summary counts findings by severity.
type Summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Suppressed int `json:"suppressed"`
	Files      int `json:"files"`
}

// Summarize counts ds.
func Summarize(ds []diag.Diagnostic, files int) Summary {
	s := Summary{Files: files}
	for _, d := range ds {
		switch {
		case d.Suppressed:
			s.Suppressed++
		case d.Severity == diag.Error:
			s.Errors++
		default:
			s.Warnings++
		}
	}
	return s
}

func writeText(w io.Writer, ds []diag.Diagnostic, meta Meta) error {
	for _, d := range ds {
		if d.Suppressed {
			continue
		}
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}

func writeJSON(w io.Writer, ds []diag.Diagnostic, meta Meta) error {
	if ds == nil {
		ds = []diag.Diagnostic{}
	}
	doc := struct {
		Version     int               `json:"version"`
		Tool        string            `json:"tool"`
		Diagnostics []diag.Diagnostic `json:"diagnostics"`
		Summary     Summary           `json:"summary"`
	}{1, "nullius", ds, Summarize(ds, meta.Files)}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
