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
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/memo"
	"github.com/nullius-dev/nullius/internal/plaintoml"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/internal/suggest"
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

// Error is a configuration problem, located in the file that has it when
// the position is known (Line and Col are 1-based; 0 means unknown). At the
// CLI, a --config that does not load is a usage error (exit 2); in a run,
// each package governed by a broken file reports it as a diagnostic
// (RuleInvalid, or GAIA003 for a pyproject.toml that does not parse).
type Error struct {
	Path      string
	Line, Col int
	Msg       string
	// Syntax is true when the file could not be read or is not TOML at
	// all, as opposed to a valid TOML file with a bad setting.
	Syntax bool
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// configExamplePackage is the package the NULLIUS003 examples configure.
const configExamplePackage = "-- pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\n" +
	"-- src/my_idea/__init__.py --\nfrom gaia.engine.lang import claim\n\nworth = claim(\"Matching the two published widths is worth a month of work.\")\n"

// RuleInvalid is the diagnostic of a configuration that cannot be used:
// nullius.toml or the [tool.nullius] table of a pyproject.toml does not
// parse, names an unknown key or rule, or has a bad pattern. The packages it
// governs are not linted (their findings would be filtered by a guess), the
// rest of the run goes on.
var RuleInvalid = &diag.Rule{
	Code: "NULLIUS003", Name: "config-invalid", Severity: diag.Error,
	Title: "a configuration file cannot be used",
	Text: `nullius.toml, or the [tool.nullius] table of a pyproject.toml, governs the packages below
it: which findings are suppressed, whether warnings show. A file that does not parse as TOML,
names a key nullius does not know, lists an unknown rule code or holds a pattern that does
not compile cannot be applied, and guessing would hide or show findings the author did not
mean to. Every package it governs reports this error at the offending line instead of its
findings; other packages are linted as usual. Fix the line the diagnostic points at (the
message names the key and the keys nullius knows). A pyproject.toml that is not valid TOML at
all is GAIA003, since it breaks the package itself.`,
	Bad:    "$ nullius lint .\n-- nullius.toml --\nignore = [\"GAIA505\"\nwarnings = false\n" + configExamplePackage,
	Good:   "$ nullius lint .\n-- nullius.toml --\nignore = [\"GAIA505\"]\nwarnings = false\n" + configExamplePackage,
	Since:  "0.2.0",
	Origin: "nullius", Owner: string(family),
}

// family owns the configuration rule.
const family = diag.Family("config")

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule { return []*diag.Rule{RuleInvalid} }

var _ = family.Declare(ruleList)

// Load reads one config file: a nullius.toml (settings at the top level) or
// a pyproject.toml (settings under [tool.nullius]). It returns (nil, nil)
// for a pyproject.toml without a [tool.nullius] table.
func Load(path string) (*Config, error) {
	return (&loader{read: readFile}).load(path, 0)
}

// readFile is the default reader: the bounded reader with the
// configuration cap.
func readFile(abs string) ([]byte, error) { return readlimit.ReadFile(abs, readlimit.Config) }

// loader loads configuration files with one reader and one cache of
// compiled patterns: a run's many pyproject.toml files often repeat the
// same exclude and per-file-ignores globs, each compiled once.
type loader struct {
	read  func(abs string) ([]byte, error)
	globs memo.Map[*regexp.Regexp]
}

// glob compiles a pattern once per loader (Glob's regexp is safe for
// concurrent use, and so is the cache).
func (l *loader) glob(pattern string) (*regexp.Regexp, error) {
	return l.globs.Get(pattern, func() (*regexp.Regexp, error) { return Glob(pattern) })
}

func (l *loader) load(path string, depth int) (*Config, error) {
	if depth > 8 {
		return nil, &Error{Path: path, Msg: "extend chain is longer than 8 files (a cycle?)"}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error(), Syntax: true}
	}
	data, err := l.read(abs)
	if readlimit.Refused(err) {
		// "<path>: is a FIFO, not a regular file; ...": a FIFO or device
		// named nullius.toml is refused, never waited on.
		return nil, &Error{Path: path, Msg: strings.TrimPrefix(err.Error(), abs+" "), Syntax: true}
	}
	if err != nil {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("cannot read config: %v", err), Syntax: true}
	}
	return l.parse(path, abs, data, depth)
}

// strictDecoder decodes data refusing unknown keys.
func strictDecoder(data []byte) *toml.Decoder {
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec
}

// readSettings reads the settings of a configuration file: the top
// level of a nullius.toml, the [tool.nullius] table of a pyproject.toml
// (nil when there is none). A file of the plain shape Gaia packages have
// is read from the TOML parser's expressions (quickSettings); anything
// else, errors included, by go-toml's strict decoder (decodeSettings),
// which costs a run ~50 us on its first use (its reflection plan and
// pools), and a bound package's pyproject.toml has a [tool.nullius] table
// (campaign-id, node-id). FuzzQuickSettings holds the two to the same
// result.
func readSettings(path string, data []byte, pyproject bool) (*Settings, error) {
	if s, ok := quickSettings(data, pyproject); ok {
		return s, nil
	}
	return decodeSettings(path, data, pyproject)
}

// decodeSettings is readSettings with go-toml's strict decoder, which
// refuses unknown keys (in a pyproject.toml, only inside [tool.nullius]).
func decodeSettings(path string, data []byte, pyproject bool) (*Settings, error) {
	if !pyproject {
		var s Settings
		if err := strictDecoder(data).Decode(&s); err != nil {
			return nil, tomlError(path, err, data)
		}
		return &s, nil
	}
	var doc nulliusTable
	err := strictDecoder(data).Decode(&doc)
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		// The rest of pyproject.toml is not ours to judge: only keys
		// inside [tool.nullius] are unknown configuration keys.
		var own []toml.DecodeError
		for _, e := range sm.Errors {
			if k := e.Key(); len(k) > 2 && k[0] == "tool" && k[1] == "nullius" {
				own = append(own, e)
			}
		}
		err = nil
		if len(own) > 0 {
			err = &toml.StrictMissingError{Errors: own}
		}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) && slices.Equal(de.Key(), []string{"tool", "nullius"}) {
		line, col := de.Position()
		return nil, &Error{Path: path, Line: line, Col: col, Msg: "[tool.nullius] must be a table"}
	}
	if err != nil {
		return nil, tomlError(path, err, data)
	}
	return doc.Tool.Nullius, nil
}

// quickSettings reads the settings of a plain configuration file (package
// plaintoml) as decodeSettings does. ok is false, and the decoder reads
// the file, for any other shape and whenever the settings hold a key it
// does not know, a value of another type, a table other than
// per-file-ignores, or tool, nullius or a setting spelled in another case
// (the decoder matches a field by its lower-case form).
func quickSettings(data []byte, pyproject bool) (s *Settings, ok bool) {
	if !pyproject {
		s = &Settings{}
	}
	ok = plaintoml.Walk(data, func(path [][]byte) bool {
		rest, in, plain := settingsPath(path, pyproject)
		if !in {
			return plain
		}
		if s == nil {
			s = &Settings{}
		}
		// per-file-ignores' map is made with its first entry, as the
		// decoder makes it.
		return len(rest) == 0 || len(rest) == 1 && string(rest[0]) == "per-file-ignores"
	}, func(table [][]byte, key []byte, v *unstable.Node) bool {
		rest, in, _ := settingsPath(table, pyproject)
		switch {
		case !in:
			// No value where the decoder wants the tool or nullius table.
			return !(len(table) == 0 && is(key, "tool") || len(table) == 1 && string(table[0]) == "tool" && is(key, "nullius"))
		case len(rest) == 0:
			return s.setPlain(key, v)
		}
		codes, ok := plaintoml.Strings(v) // an entry of [per-file-ignores]
		if ok {
			if s.PerFileIgnores == nil {
				s.PerFileIgnores = map[string][]string{}
			}
			s.PerFileIgnores[string(key)] = codes
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	return s, true
}

// settingsPath places a table path of a configuration file: in the
// settings (every path of a nullius.toml; [tool.nullius] and below in a
// pyproject.toml), with the part below them; plain is false for a path
// the decoder would read into them by another spelling of tool or nullius.
func settingsPath(path [][]byte, pyproject bool) (rest [][]byte, in, plain bool) {
	switch {
	case !pyproject:
		return path, true, true
	case len(path) >= 1 && plaintoml.Respelled(path[0], "tool"),
		len(path) >= 2 && string(path[0]) == "tool" && plaintoml.Respelled(path[1], "nullius"):
		return nil, false, false
	case len(path) >= 2 && string(path[0]) == "tool" && string(path[1]) == "nullius":
		return path[2:], true, true
	}
	return nil, false, true
}

// is reports whether key is word in any case the decoder matches.
func is(key []byte, word string) bool { return string(key) == word || plaintoml.Respelled(key, word) }

// setPlain sets the setting key to the plain value v, as
// the decoder would; it reports false for a key it does not know (also
// per-file-ignores, a table given a value) or a value of another type.
// TestQuickSettingsKnowsEverySetting holds it to Settings' toml keys: a
// setting it lacked would still be decoded, only without the quick path.
func (s *Settings) setPlain(key []byte, v *unstable.Node) (ok bool) {
	str := func() (*string, bool) {
		if v.Kind != unstable.String {
			return nil, false
		}
		x := string(v.Data)
		return &x, true
	}
	switch string(key) {
	case "extend":
		var p *string
		if p, ok = str(); ok {
			s.Extend = *p
		}
	case "exclude":
		s.Exclude, ok = plaintoml.Strings(v)
	case "ignore":
		s.Ignore, ok = plaintoml.Strings(v)
	case "warnings":
		if ok = v.Kind == unstable.Bool; ok {
			b := string(v.Data) == "true"
			s.Warnings = &b
		}
	case "campaign-id":
		s.CampaignID, ok = str()
	case "node-id":
		s.NodeID, ok = str()
	}
	return ok
}

// nulliusTable is the part of a pyproject.toml configuration reads: the
// [tool.nullius] table, decoded from the file itself so every error keeps
// its real line and column.
type nulliusTable struct {
	Tool struct {
		Nullius *Settings `toml:"nullius"`
	} `toml:"tool"`
}

// parse builds the configuration of one file from its bytes.
func (l *loader) parse(path, abs string, data []byte, depth int) (*Config, error) {
	pyproject := filepath.Base(abs) == PyprojectTOML
	n, err := readSettings(path, data, pyproject)
	if err != nil || n == nil {
		return nil, err
	}
	s := *n
	if pyproject && onlyBinding(s) {
		return nil, nil
	}
	if !pyproject && (s.CampaignID != nil || s.NodeID != nil) {
		key := "campaign-id"
		if s.CampaignID == nil {
			key = "node-id"
		}
		line, col := locate(data, false, key)
		return nil, &Error{Path: path, Line: line, Col: col, Msg: "campaign-id and node-id bind a package to its idea and belong in the package's pyproject.toml [tool.nullius] (nullius bind writes them), not in a shared configuration file"}
	}
	s.CampaignID, s.NodeID = nil, nil
	c := &Config{Path: abs, Dir: filepath.Dir(abs), Settings: s}
	if s.Extend != "" {
		base, err := l.load(filepath.Join(c.Dir, s.Extend), depth+1)
		var ce *Error
		if errors.As(err, &ce) && ce.Path != path && depth == 0 && ce.Line == 0 {
			// The base file could not be read at all: say so at the extend
			// line of this file.
			ce.Line, ce.Col = locate(data, pyproject, "extend")
		}
		if err != nil {
			return nil, err
		}
		if base != nil {
			c.Settings = merge(base.Settings, s)
		}
	}
	if err := c.compile(path, data, pyproject, l.glob); err != nil {
		return nil, err
	}
	return c, nil
}

// locate returns the 1-based line and column of the first occurrence of
// needle in a config file (after the [tool.nullius] header of a
// pyproject.toml), for errors found after decoding; (0, 0) when it does
// not occur.
func locate(data []byte, pyproject bool, needle string) (int, int) {
	from := 0
	if pyproject {
		if i := bytes.Index(data, []byte("nullius")); i >= 0 {
			from = i
		}
	}
	i := bytes.Index(data[from:], []byte(needle))
	if i < 0 {
		return 0, 0
	}
	i += from
	line := 1 + bytes.Count(data[:i], []byte("\n"))
	return line, i - (bytes.LastIndexByte(data[:i], '\n') + 1) + 1
}

// onlyBinding reports a [tool.nullius] table that holds the package's
// binding and nothing else.
func onlyBinding(s Settings) bool {
	return (s.CampaignID != nil || s.NodeID != nil) && s.Extend == "" && s.Exclude == nil &&
		s.Warnings == nil && s.Ignore == nil && s.PerFileIgnores == nil
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

// tomlError locates a decode error: a TOML syntax error (Syntax), a value
// of the wrong type, or unknown keys (at the first one).
func tomlError(path string, err error, data []byte) *Error {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		var keys []string
		for _, e := range sm.Errors {
			row, col := e.Position()
			k := e.Key()
			if len(k) > 2 && k[0] == "tool" && k[1] == "nullius" {
				k = k[2:] // [tool.nullius] warnigns: the key is "warnigns"
			}
			keys = append(keys, fmt.Sprintf("%q%s (line %d, column %d)", strings.Join(k, "."),
				suggest.DidYouMean(suggest.Closest(k[len(k)-1], knownKeys)), row, col))
		}
		line, col := sm.Errors[0].Position()
		return &Error{Path: path, Line: line, Col: col, Msg: "unknown configuration key " + strings.Join(keys, ", ") + "; known keys are extend, exclude, warnings, ignore, per-file-ignores (and campaign-id, node-id in a package's pyproject.toml)"}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		// A wrong type names its key; a syntax error has none.
		if len(de.Key()) == 0 {
			return &Error{Path: path, Line: row, Col: col, Syntax: true,
				Msg: "not valid TOML: " + strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return &Error{Path: path, Line: row, Col: col, Msg: wrongType(de, data)}
	}
	return &Error{Path: path, Msg: err.Error(), Syntax: true}
}

// knownKeys are the configuration keys, for "did you mean" (Settings'
// toml keys: TestQuickSettingsKnowsEverySetting).
var knownKeys = []string{"extend", "exclude", "warnings", "ignore", "per-file-ignores", "campaign-id", "node-id"}

// expected says, per configuration key, what its value must be, with an
// example line: the file's own terms, not the Go field it decodes into.
// It is built on first use, not at every process start (issue 15).
var expected = lazy.New(buildExpected)

// buildExpected builds expected on first use.
func buildExpected() map[string]string {
	return map[string]string{
		"extend":           `a string, the path of another configuration file (extend = "../nullius.toml")`,
		"exclude":          `an array of glob patterns (exclude = ["tests/**"])`,
		"warnings":         `true or false (warnings = false)`,
		"ignore":           `an array of rule codes or names (ignore = ["GAIA505"])`,
		"per-file-ignores": `a table of glob = array of rule codes (per-file-ignores = { "tests/**" = ["GAIA011"] })`,
		"campaign-id":      `a string (campaign-id = "c0ffee12")`,
		"node-id":          `a string (node-id = "n0de0001")`,
	}
}

// tomlKinds names go-toml's value kinds as a TOML author says them.
// It is built on first use, not at every process start (issue 15).
var tomlKinds = lazy.New(buildTomlKinds)

// buildTomlKinds builds tomlKinds on first use.
func buildTomlKinds() map[string]string {
	return map[string]string{
		"string": "a string", "integer": "an integer", "float": "a float", "boolean": "a boolean",
		"array": "an array", "table": "a table", "inline": "an inline table",
		"datetime": "a date-time", "date": "a date", "time": "a time",
	}
}

// wrongType is the message for a value of the wrong type (issue 16: it
// said "cannot decode TOML string into struct field
// config.Settings.Warnings of type bool"): the key, what it must be, and
// what the file holds there, e.g. `warnings must be true or false
// (warnings = false), not a string: "no"`.
func wrongType(de *toml.DecodeError, data []byte) string {
	key := de.Key()
	if len(key) >= 2 && key[0] == "tool" && key[1] == "nullius" {
		key = key[2:]
	}
	if len(key) == 0 {
		return "[tool.nullius] must be a table"
	}
	name, want := key[0], cmp.Or(expected.Get()[key[0]], "another type")
	m := decodeKind.FindStringSubmatch(de.Error())
	if m == nil {
		return name + " must be " + want
	}
	got, goType := cmp.Or(tomlKinds.Get()[m[1]], m[1]), m[2]
	// go-toml names the Go type it decoded into: a string inside a list
	// setting is one element, a []string inside per-file-ignores one entry.
	if name == "per-file-ignores" && (goType == "[]string" || goType == "string") {
		name, want = "each per-file-ignores entry", `an array of rule codes or names ("tests/**" = ["GAIA011"])`
	}
	if goType == "string" && (name == "exclude" || name == "ignore" || name == "each per-file-ignores entry") {
		got = "an array holding " + got
	}
	row, col := de.Position()
	if v := valueAt(data, row, col); v != "" {
		return fmt.Sprintf("%s must be %s, not %s: %s", name, want, got, v)
	}
	return fmt.Sprintf("%s must be %s, not %s", name, want, got)
}

// decodeKind reads go-toml's "cannot decode TOML <kind> into ... of type
// <go type>" (the kind found, and the Go type, which is only used to tell
// an array element from the array).
var decodeKind = lazyre.New(`cannot decode TOML (\w+) into .* of type (\S+)`)

// valueAt is the TOML value that starts at line:col of data: a quoted
// string to its closing quote, an array or inline table to its matching
// bracket on that line, anything else to the next delimiter; at most 40
// bytes.
func valueAt(data []byte, line, col int) string {
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) {
		return ""
	}
	rest := string(lines[line-1][col-1:])
	end := len(rest)
	switch rest[0] {
	case '"', '\'':
		if i := strings.IndexByte(rest[1:], rest[0]); i >= 0 {
			end = i + 2
		}
	case '[', '{':
		depth := 0
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			if depth == 0 {
				end = i + 1
				break
			}
		}
	default:
		if i := strings.IndexAny(rest, ",]} \t#"); i >= 0 {
			end = i
		}
	}
	v := strings.TrimSpace(rest[:end])
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	return v
}

// compile checks the settings and compiles the patterns; data is the
// file (path as the caller spelled it), for locating what is wrong.
func (c *Config) compile(path string, data []byte, pyproject bool, glob func(string) (*regexp.Regexp, error)) error {
	fail := func(needle, msg string) error {
		line, col := locate(data, pyproject, needle)
		return &Error{Path: path, Line: line, Col: col, Msg: msg}
	}
	for _, g := range c.Settings.Exclude {
		re, err := glob(g)
		if err != nil {
			return fail(g, err.Error())
		}
		c.exclude = append(c.exclude, re)
	}
	for _, code := range c.Settings.Ignore {
		if _, ok := diag.Lookup(code); !ok {
			return fail(code, fmt.Sprintf("ignore: unknown rule %q; run 'nullius rules' to list them", code))
		}
	}
	keys := make([]string, 0, len(c.Settings.PerFileIgnores))
	for k := range c.Settings.PerFileIgnores {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, g := range keys {
		re, err := glob(g)
		if err != nil {
			return fail(g, err.Error())
		}
		codes := c.Settings.PerFileIgnores[g]
		for _, code := range codes {
			if _, ok := diag.Lookup(code); !ok {
				return fail(code, fmt.Sprintf("per-file-ignores %q: unknown rule %q; run 'nullius rules' to list them", g, code))
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
	return NewResolverWith(ResolverOptions{}).ForDir(dir)
}

// ResolverOptions configure a Resolver.
type ResolverOptions struct {
	// Explicit, when non-nil (from --config), applies to every file.
	Explicit *Config
	// Cwd makes relative paths absolute; "" means the working directory,
	// asked once.
	Cwd string
	// Read reads a configuration file by absolute path; nil means the
	// bounded reader. A lint run passes its cache, so each pyproject.toml
	// is read once for both discovery and configuration.
	Read func(abs string) ([]byte, error)
	// Lookup reports whether the directory dir (absolute) holds a file
	// (not a directory) named name, with known false when the caller has
	// not listed dir; the resolver then stats the file itself. A lint run
	// answers from the directory listings of its walk.
	Lookup func(dir, name string) (exists, known bool)
	// Plain, when set, reports that the pyproject.toml at abs (absolute,
	// clean) decoded without error and has no [tool.nullius] table, so it
	// is not decoded again: it is no configuration. A lint run answers for
	// the pyproject.toml files its discovery decoded.
	Plain func(abs string) bool
}

// Resolver finds the closest configuration of each directory once and
// remembers it, errors included. It is safe for concurrent use: a lint
// run's workers share one.
type Resolver struct {
	opts  ResolverOptions
	l     *loader
	byDir memo.Map[*Config]
}

// NewResolverWith returns a resolver with options.
func NewResolverWith(opts ResolverOptions) *Resolver {
	if opts.Cwd == "" {
		opts.Cwd, _ = os.Getwd()
	}
	if opts.Cwd != "" {
		opts.Cwd = filepath.Clean(opts.Cwd) // abs appends to it
	}
	if opts.Read == nil {
		opts.Read = readFile
	}
	return &Resolver{opts: opts, l: &loader{read: opts.Read}}
}

// abs makes path absolute and clean against the resolver's working
// directory (filepath.Abs asks the OS for it on every call). Its result
// is the key of the resolver's memo and the directory resolve walks up
// from, so it must be clean: one directory, one key.
func (r *Resolver) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	if path == "." {
		return r.opts.Cwd
	}
	// A finding's path is clean (made by filepath.Join): appending it to
	// the clean working directory is what Join would give, without a
	// Clean of the whole path per finding. Clean allocates nothing for a
	// clean path; a clean relative path holds ".." only at its start; a
	// clean working directory ends in a separator only as the root.
	cwd := r.opts.Cwd
	if cwd != "" && !os.IsPathSeparator(cwd[len(cwd)-1]) && filepath.Clean(path) == path && !strings.HasPrefix(path, "..") {
		return cwd + string(filepath.Separator) + path
	}
	return filepath.Join(cwd, path)
}

// For returns the configuration governing the file at path (nil if none).
func (r *Resolver) For(path string) (*Config, error) {
	if r.opts.Explicit != nil {
		return r.opts.Explicit, nil
	}
	return r.ForDir(filepath.Dir(r.abs(path)))
}

// ForDir returns the configuration governing the files of directory dir.
func (r *Resolver) ForDir(dir string) (*Config, error) {
	if r.opts.Explicit != nil {
		return r.opts.Explicit, nil
	}
	return r.forAbs(r.abs(dir))
}

// forAbs is ForDir for an absolute, clean directory.
func (r *Resolver) forAbs(dir string) (*Config, error) {
	return r.byDir.Get(dir, func() (*Config, error) { return r.resolve(dir) })
}

// resolve finds dir's own configuration, or its parent's.
func (r *Resolver) resolve(dir string) (*Config, error) {
	for _, name := range [...]string{NulliusTOML, PyprojectTOML} {
		if !r.holds(dir, name) {
			continue
		}
		path := filepath.Join(dir, name)
		if name == PyprojectTOML && r.opts.Plain != nil && r.opts.Plain(path) {
			continue
		}
		c, err := r.l.load(path, 0)
		if err != nil || c != nil {
			return c, err
		}
	}
	parent := filepath.Dir(dir)
	if parent == dir {
		return nil, nil
	}
	return r.forAbs(parent) // filepath.Dir gives an absolute, clean path
}

// holds reports whether dir has a file (not a directory) named name.
func (r *Resolver) holds(dir, name string) bool {
	if r.opts.Lookup != nil {
		if exists, known := r.opts.Lookup(dir, name); known {
			return exists
		}
	}
	fi, err := os.Stat(filepath.Join(dir, name))
	return err == nil && !fi.IsDir()
}

// Configure applies the configuration governing one finding: keep is
// false for a warning switched off; an excluded file or ignored rule
// marks it Suppressed. The error is that configuration's, if it cannot be
// loaded (d is then returned as it was).
func (r *Resolver) Configure(d diag.Diagnostic) (_ diag.Diagnostic, keep bool, _ error) {
	c, err := r.For(d.Path)
	if err != nil || c == nil {
		return d, true, err
	}
	if d.Severity == diag.Warning && c.Settings.Warnings != nil && !*c.Settings.Warnings {
		return d, false, nil
	}
	if c.suppresses(d, r.abs(d.Path)) {
		d.Suppressed = true
	}
	return d, true, nil
}

// suppresses reports whether c suppresses d, whose path is abs.
func (c *Config) suppresses(d diag.Diagnostic, abs string) bool {
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
