// Package output prints diagnostics in every format nullius supports:
// text, json, sarif and github. Each format lives in its own file as a pure
// function from a diagnostic list and a Meta to an io.Writer: no printer
// reads the environment, touches a global or writes a file. File
// destinations are written atomically by the caller (cmd/nullius).
//
// What the formats show:
//
//   - text hides suppressed findings unless Meta.ShowSuppressed, and ends
//     with one summary line only when it printed at least one finding, so a
//     clean run prints nothing at all.
//   - json and sarif always carry every finding, suppressed ones included
//     (json with "suppressed": true, sarif with an inSource suppression), so
//     a machine reader never loses a finding.
//   - github hides suppressed findings unless Meta.ShowSuppressed (then they
//     are notices): an annotation cannot be marked as suppressed.
//
// Columns: diagnostics count UTF-8 bytes. SARIF has no byte column kind
// (only utf16CodeUnits and unicodeCodePoints), so the SARIF printer reads
// the flagged line through Meta.ReadFile, converts to code points and says
// columnKind "unicodeCodePoints"; when the file cannot be read it reports
// the whole line rather than a column it cannot vouch for. The github
// printer converts the same way, so a column never lands inside a
// multi-byte character.
package output

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
)

// Meta is what a printer may need besides the diagnostics.
type Meta struct {
	Command string // e.g. "lint", "validate match"
	// Version returns the nullius version; only the printers that print
	// it ask (reading the build info would cost every run). Nil is "".
	Version func() string
	Color   bool // text only: colourise
	Files   int  // number of files examined, for the summary
	// ShowSuppressed makes text and github print suppressed findings too.
	ShowSuppressed bool
	// WorkDir is the absolute directory relative diagnostic paths are
	// relative to (the process working directory); "" means they are used
	// as given.
	WorkDir string
	// SrcRoot is the absolute repository root SARIF URIs are made relative
	// to (%SRCROOT%); "" means WorkDir.
	SrcRoot string
	// ReadFile returns the content of the file a diagnostic names (its Path
	// as given). SARIF uses it to turn byte columns into code-point columns
	// and to fingerprint the flagged line; github uses it for columns.
	// nil, or an error, means the content is unknown: SARIF then reports
	// whole-line regions rather than guessing a column.
	ReadFile func(path string) ([]byte, error)
	// Result, when not nil, is a command's own outcome (absorb's
	// "absorbed"/"refused", writeback's ids): json only, its fields (it must
	// encode as a JSON object) follow "summary" in the version-1 document,
	// so one document carries the located findings and what the command did.
	Result any
}

func (m Meta) version() string {
	if m.Version == nil {
		return ""
	}
	return m.Version()
}

// Target is one requested output: a format and an optional file path
// ("" means stdout).
type Target struct {
	Format string
	Path   string
}

// Formats lists the supported format names.
func Formats() []string { return []string{"text", "json", "sarif", "github"} }

// ParseTargets parses a --format value such as "text,sarif:out.sarif". A
// path of "-" means stdout. At most one target may go to stdout, and no
// file may be named twice.
func ParseTargets(spec string) ([]Target, error) {
	var out []Target
	stdout := 0
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, path, hasPath := strings.Cut(part, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		if !slices.Contains(Formats(), name) {
			return nil, fmt.Errorf("unknown format %q; use one of %s, each optionally with :FILE", name, strings.Join(Formats(), ", "))
		}
		if hasPath && path == "" {
			return nil, fmt.Errorf("format %q has an empty file name after ':'; write %s:FILE, or %s for stdout", part, name, name)
		}
		if path == "-" {
			path = ""
		}
		if path == "" {
			stdout++
		} else if seen[path] {
			return nil, fmt.Errorf("file %q is named by two formats; give each format its own file", path)
		}
		seen[path] = true
		out = append(out, Target{Format: name, Path: path})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no output format given; use one of %s", strings.Join(Formats(), ", "))
	}
	if stdout > 1 {
		return nil, fmt.Errorf("--format %q sends more than one format to stdout; give the others a file (e.g. sarif:out.sarif)", spec)
	}
	return out, nil
}

// Write prints ds in format to w. It sorts and deduplicates a copy of ds
// first, so every format is deterministic whatever the caller passed.
func Write(w io.Writer, format string, ds []diag.Diagnostic, meta Meta) error {
	ds = diag.SortDedup(slices.Clone(ds))
	switch format {
	case "text":
		return writeText(w, ds, meta)
	case "json":
		return writeJSON(w, ds, meta)
	case "sarif":
		return writeSARIF(w, ds, meta)
	case "github":
		return writeGitHub(w, ds, meta)
	}
	return fmt.Errorf("unknown format %q; use one of %s", format, strings.Join(Formats(), ", "))
}

// Summary counts findings by severity.
type Summary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Suppressed int `json:"suppressed"`
	Files      int `json:"files"` // files examined
	// WithFindings is the number of files the unsuppressed findings are
	// in: the text summary's "in 1 of 2 files" (issue 16: "5 errors in 2
	// files" when all five were in one). Not in the json document, whose
	// summary is fixed by schemas/nullius_report_v1.
	WithFindings int `json:"-"`
}

// Summarize counts ds. A suppressed finding counts only as suppressed.
func Summarize(ds []diag.Diagnostic, files int) Summary {
	s := Summary{Files: files}
	paths := map[string]bool{}
	for _, d := range ds {
		switch {
		case d.Suppressed:
			s.Suppressed++
			continue
		case d.Severity == diag.Error:
			s.Errors++
		default:
			s.Warnings++
		}
		if d.Path != "" {
			paths[d.Path] = true
		}
	}
	s.WithFindings = len(paths)
	return s
}
