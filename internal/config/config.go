// Package config reads nullius configuration from `nullius.toml` or the
// `[tool.nullius]` table of `pyproject.toml`, the closest file to each linted
// file winning (no implicit inheritance; `extend` names a base file).
//
// Configuration never hides an error from the gate: a disabled or excluded
// error is marked Suppressed, so `nullius lint` does not fail on it but
// `nullius extract` still marks the result exploration-only and `nullius
// writeback` still refuses (the honesty rule of the spec README). Warnings
// may be switched off entirely.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// File names searched in each directory, in order of precedence.
const (
	NulliusTOML   = "nullius.toml"
	PyprojectTOML = "pyproject.toml"
)

// Settings is the content of one configuration table.
type Settings struct {
	// Extend names another config file (relative to this one) whose
	// settings this one starts from.
	Extend string `toml:"extend"`
	// Exclude lists glob patterns (relative to the config file's directory;
	// `**` matches any number of directories) of files whose findings are
	// suppressed.
	Exclude []string `toml:"exclude"`
	// Warnings false drops every warning-severity finding.
	Warnings *bool `toml:"warnings"`
	// Ignore lists rule codes or names suppressed everywhere.
	Ignore []string `toml:"ignore"`
	// PerFileIgnores maps a glob to the rule codes or names suppressed in
	// the files it matches.
	PerFileIgnores map[string][]string `toml:"per-file-ignores"`
	// CampaignID and NodeID bind a package to its idea in the store; they
	// are read by internal/binding, and only from a package's
	// pyproject.toml. A [tool.nullius] table holding nothing else is not a
	// configuration (binding a package must not hide the project's config).
	CampaignID *string `toml:"campaign-id"`
	NodeID     *string `toml:"node-id"`
}

// Config is one loaded configuration file, with its extends resolved.
type Config struct {
	Path     string // the file it came from
	Dir      string // patterns are relative to this directory
	Settings Settings
	exclude  []*regexp.Regexp
	perFile  []perFile
}

type perFile struct {
	re    *regexp.Regexp
	codes []string
}

// Error is a configuration problem: usage-level (exit 2) at the CLI.
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// Load reads one config file: a nullius.toml (settings at the top level) or
// a pyproject.toml (settings under [tool.nullius]). It returns (nil, nil)
// for a pyproject.toml without a [tool.nullius] table.
func Load(path string) (*Config, error) {
	return load(path, 0)
}

func load(path string, depth int) (*Config, error) {
	if depth > 8 {
		return nil, &Error{path, "extend chain is longer than 8 files (a cycle?)"}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{path, err.Error()}
	}
	data, err := readlimit.ReadFile(abs, readlimit.Config)
	if readlimit.Refused(err) {
		// "<path>: is a FIFO, not a regular file; ...": a FIFO or device
		// named nullius.toml is refused, never waited on.
		return nil, &Error{path, strings.TrimPrefix(err.Error(), abs+" ")}
	}
	if err != nil {
		return nil, &Error{path, fmt.Sprintf("cannot read config: %v", err)}
	}
	var s Settings
	if filepath.Base(abs) == PyprojectTOML {
		raw := map[string]any{}
		if err := toml.Unmarshal(data, &raw); err != nil {
			return nil, &Error{path, tomlMessage(err)}
		}
		tool, _ := raw["tool"].(map[string]any)
		tbl, ok := tool["nullius"]
		if !ok {
			return nil, nil
		}
		m, isTable := tbl.(map[string]any)
		if !isTable {
			return nil, &Error{path, "[tool.nullius] must be a table"}
		}
		if onlyBinding(m) {
			return nil, nil
		}
		sub, err := toml.Marshal(tbl)
		if err != nil {
			return nil, &Error{path, err.Error()}
		}
		data = sub
	}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, &Error{path, tomlMessage(err)}
	}
	if filepath.Base(abs) != PyprojectTOML && (s.CampaignID != nil || s.NodeID != nil) {
		return nil, &Error{path, "campaign-id and node-id bind a package to its idea and belong in the package's pyproject.toml [tool.nullius] (nullius bind writes them), not in a shared configuration file"}
	}
	s.CampaignID, s.NodeID = nil, nil
	c := &Config{Path: abs, Dir: filepath.Dir(abs), Settings: s}
	if s.Extend != "" {
		base, err := load(filepath.Join(c.Dir, s.Extend), depth+1)
		if err != nil {
			return nil, err
		}
		if base != nil {
			c.Settings = merge(base.Settings, s)
		}
	}
	if err := c.compile(); err != nil {
		return nil, err
	}
	return c, nil
}

// onlyBinding reports a [tool.nullius] table that holds the package's
// binding and nothing else.
func onlyBinding(tbl map[string]any) bool {
	n := 0
	for _, k := range []string{"campaign-id", "node-id"} {
		if _, ok := tbl[k]; ok {
			n++
		}
	}
	return n > 0 && n == len(tbl)
}

// merge applies over on top of base: lists extend, scalars override.
func merge(base, over Settings) Settings {
	out := base
	out.Extend = over.Extend
	out.Exclude = append(slices.Clone(base.Exclude), over.Exclude...)
	out.Ignore = append(slices.Clone(base.Ignore), over.Ignore...)
	if over.Warnings != nil {
		out.Warnings = over.Warnings
	}
	out.PerFileIgnores = map[string][]string{}
	for k, v := range base.PerFileIgnores {
		out.PerFileIgnores[k] = v
	}
	for k, v := range over.PerFileIgnores {
		out.PerFileIgnores[k] = append(slices.Clone(out.PerFileIgnores[k]), v...)
	}
	return out
}

func tomlMessage(err error) string {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		var keys []string
		for _, e := range sm.Errors {
			row, col := e.Position()
			keys = append(keys, fmt.Sprintf("%q (line %d, column %d)", strings.Join(e.Key(), "."), row, col))
		}
		return "unknown configuration key " + strings.Join(keys, ", ") + "; known keys are extend, exclude, warnings, ignore, per-file-ignores (and campaign-id, node-id in a package's pyproject.toml)"
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d, column %d: %s", row, col, de.Error())
	}
	return err.Error()
}

func (c *Config) compile() error {
	for _, g := range c.Settings.Exclude {
		re, err := Glob(g)
		if err != nil {
			return &Error{c.Path, err.Error()}
		}
		c.exclude = append(c.exclude, re)
	}
	for _, code := range c.Settings.Ignore {
		if _, ok := diag.Lookup(code); !ok {
			return &Error{c.Path, fmt.Sprintf("ignore: unknown rule %q; run 'nullius rules' to list them", code)}
		}
	}
	keys := make([]string, 0, len(c.Settings.PerFileIgnores))
	for k := range c.Settings.PerFileIgnores {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, g := range keys {
		re, err := Glob(g)
		if err != nil {
			return &Error{c.Path, err.Error()}
		}
		codes := c.Settings.PerFileIgnores[g]
		for _, code := range codes {
			if _, ok := diag.Lookup(code); !ok {
				return &Error{c.Path, fmt.Sprintf("per-file-ignores %q: unknown rule %q; run 'nullius rules' to list them", g, code)}
			}
		}
		c.perFile = append(c.perFile, perFile{re, codes})
	}
	return nil
}

// Glob compiles a path glob: `**` matches any run of path segments, `*` and
// `?` match within one segment. A pattern without `/` matches the base name
// in any directory.
func Glob(pattern string) (*regexp.Regexp, error) {
	p := filepath.ToSlash(strings.TrimPrefix(pattern, "./"))
	var b strings.Builder
	b.WriteString("^")
	if !strings.Contains(p, "/") {
		b.WriteString("(?:.*/)?")
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			if i+1 < len(p) && p[i+1] == '*' {
				i++
				if i+1 < len(p) && p[i+1] == '/' {
					i++
					b.WriteString("(?:.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("(?:/.*)?$") // a directory pattern covers everything below it
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, fmt.Errorf("bad glob %q: %v", pattern, err)
	}
	return re, nil
}

// Find returns the closest configuration for a file or directory: the first
// directory, walking up from it, holding a nullius.toml or a pyproject.toml
// with a [tool.nullius] table. It returns (nil, nil) when there is none.
func Find(path string) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := abs
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		for _, name := range []string{NulliusTOML, PyprojectTOML} {
			p := filepath.Join(dir, name)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				c, err := Load(p)
				if err != nil {
					return nil, err
				}
				if c != nil {
					return c, nil
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

// Resolver finds and caches the closest config per directory.
type Resolver struct {
	explicit *Config
	byDir    map[string]*Config
}

// NewResolver returns a resolver; explicit, when non-nil (from --config),
// applies to every file.
func NewResolver(explicit *Config) *Resolver {
	return &Resolver{explicit: explicit, byDir: map[string]*Config{}}
}

// For returns the configuration governing the file at path (nil if none).
func (r *Resolver) For(path string) (*Config, error) {
	if r.explicit != nil {
		return r.explicit, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(abs)
	if c, ok := r.byDir[dir]; ok {
		return c, nil
	}
	c, err := Find(dir)
	if err != nil {
		return nil, err
	}
	r.byDir[dir] = c
	return c, nil
}

// Apply applies each finding's governing configuration: warnings dropped
// when switched off, findings in excluded files or of ignored rules marked
// Suppressed (never dropped, so the gate still sees errors).
func (r *Resolver) Apply(ds []diag.Diagnostic) ([]diag.Diagnostic, error) {
	out := ds[:0:0]
	for _, d := range ds {
		c, err := r.For(d.Path)
		if err != nil {
			return nil, err
		}
		if c == nil {
			out = append(out, d)
			continue
		}
		if d.Severity == diag.Warning && c.Settings.Warnings != nil && !*c.Settings.Warnings {
			continue
		}
		if c.suppresses(d) {
			d.Suppressed = true
		}
		out = append(out, d)
	}
	return out, nil
}

func (c *Config) suppresses(d diag.Diagnostic) bool {
	abs, err := filepath.Abs(d.Path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(c.Dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = filepath.ToSlash(d.Path)
	}
	rel = filepath.ToSlash(rel)
	for _, re := range c.exclude {
		if re.MatchString(rel) {
			return true
		}
	}
	if matchesCode(c.Settings.Ignore, d) {
		return true
	}
	for _, pf := range c.perFile {
		if pf.re.MatchString(rel) && matchesCode(pf.codes, d) {
			return true
		}
	}
	return false
}

// matchesCode reports whether list names d's rule by code or by name.
func matchesCode(list []string, d diag.Diagnostic) bool {
	for _, s := range list {
		if strings.EqualFold(s, d.Code) || strings.EqualFold(s, d.Name) {
			return true
		}
	}
	return false
}
