// Package ruletest is analysistest for Python: it runs analyzers over a
// fixture Gaia package through nullius's own driver and checks the
// diagnostics against expectations written in the fixture as comments:
//
//	infer(e, hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale=r)  # want "GAIA011.*off-grade"
//	# want +1 "GAIA032" "GAIA504"
//
// Each quoted pattern is a regexp matched against "CODE message" (a
// suppressed diagnostic reads "CODE message [suppressed]") and must match
// exactly one diagnostic on its line; several patterns may share a line,
// and +N (or -N) moves the expectation N lines down (up). Expectations are read from
// pyscan comment nodes, so a "# want" inside a string never counts; in
// pyproject.toml they are read from comment lines. The test fails on an
// unexpected diagnostic, on an expectation nothing matched, and on an
// empty fixture set, with sorted file:line: complaints. Suggested fixes
// are applied and compared with <file>.golden.
package ruletest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/fix"
	"github.com/nullius-dev/nullius/internal/golden"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/internal/driver"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/pyscan"
)

// expectation is one `want` pattern.
type expectation struct {
	file string
	line int
	re   *regexp.Regexp
	used bool
}

// Run runs the analyzers over the fixture package (or tree of packages)
// at dir and checks its expectations, with inline suppressions applied
// as Lint does. With no analyzers it runs analyzers.All() and checks every
// expectation. With analyzers named, only the codes they own
// (listed in parentheses at the end of each Doc title, e.g. "(GAIA010-012,
// GAIA901)") take part: expectations and diagnostics of other codes are
// left out, so one family can be tested alone over the shared fixtures. It
// returns the diagnostics for further checks.
func Run(t testing.TB, dir string, as ...*analysis.Analyzer) []diag.Diagnostic {
	t.Helper()
	pkgs, ds, err := analyzers.Discover([]string{dir})
	if err != nil {
		t.Fatalf("ruletest: %v", err)
	}
	all := len(as) == 0
	owned := map[string]bool{}
	if all {
		as = analyzers.All()
	} else {
		for _, a := range as {
			rules := diag.Owned(a.Name)
			if len(rules) == 0 {
				t.Fatalf("ruletest: analyzer %s owns no rule (diag.Family(%q) registers none)", a.Name, a.Name)
			}
			for _, r := range rules {
				owned[r.Code] = true
			}
		}
		ds = nil // discovery findings belong to no analyzer
	}
	var files []string
	for _, p := range pkgs {
		got, err := driver.Run(p.Dir, p.Files, as, driver.Options{Suppress: true})
		if err != nil {
			t.Fatalf("ruletest: %s: %v", p.Dir, err)
		}
		ds = append(ds, got...)
		files = append(files, p.Files...)
		files = append(files, filepath.ToSlash(filepath.Join(p.Dir, "pyproject.toml")))
	}
	// Discovery findings (GAIA002, GAIA003) sit in pyproject.toml files
	// that may belong to no package.
	for _, d := range ds {
		if !slices.Contains(files, d.Path) {
			files = append(files, d.Path)
		}
	}
	if len(files) == 0 {
		t.Fatalf("ruletest: found no fixture files under %s", dir)
	}
	exps, problems := expectations(files)
	if !all {
		exps = slices.DeleteFunc(exps, func(e *expectation) bool { return !owned[leadingCode(e.re.String())] })
		ds = slices.DeleteFunc(ds, func(d diag.Diagnostic) bool { return !owned[d.Code] })
	}
	ds = diag.SortDedup(ds)
	problems = append(problems, check(ds, exps)...)
	if all {
		problems = append(problems, checkFixes(files, ds)...)
	}
	slices.Sort(problems)
	for _, p := range problems {
		t.Error(p)
	}
	return ds
}

// checkFixes applies the first suggested fix of every unsuppressed
// diagnostic to its file and compares the result with <file>.golden, as
// analysistest.RunWithSuggestedFixes does. go test -update rewrites the
// golden files. A golden file with no fixes to check is a complaint too.
func checkFixes(files []string, ds []diag.Diagnostic) []string {
	edits := map[string][]diag.Edit{}
	for _, d := range ds {
		if len(d.Fixes) > 0 && !d.Suppressed {
			edits[d.Path] = append(edits[d.Path], d.Fixes[0].Edits...)
		}
	}
	var problems []string
	for _, file := range files {
		goldenFile := file + ".golden"
		want, err := os.ReadFile(goldenFile)
		es := edits[file]
		switch {
		case len(es) == 0 && err == nil:
			problems = append(problems, fmt.Sprintf("%s:1: golden file exists but no diagnostic offers a fix", goldenFile))
			continue
		case len(es) == 0:
			continue
		}
		src, rerr := os.ReadFile(file)
		if rerr != nil {
			problems = append(problems, fmt.Sprintf("%s:1: %v", file, rerr))
			continue
		}
		got, aerr := fix.Apply(src, es)
		if aerr != nil {
			problems = append(problems, fmt.Sprintf("%s:1: the fixes cannot be applied together: %v", file, aerr))
			continue
		}
		if golden.Update() {
			if werr := os.WriteFile(goldenFile, got, 0o644); werr != nil {
				problems = append(problems, fmt.Sprintf("%s:1: %v", goldenFile, werr))
			}
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:1: diagnostics offer fixes but there is no golden file (run with -update)", file))
			continue
		}
		if string(got) != string(want) {
			problems = append(problems, fmt.Sprintf("%s:1: fixed file differs from %s (- golden, + fixed):\n%s", file, filepath.Base(goldenFile), golden.Diff(string(want), string(got))))
		}
	}
	return problems
}

// check matches diagnostics against expectations and returns complaints.
func check(ds []diag.Diagnostic, exps []*expectation) []string {
	var problems []string
	for _, d := range ds {
		text := d.Code + " " + d.Message
		if d.Suppressed {
			text += " [suppressed]"
		}
		i := slices.IndexFunc(exps, func(e *expectation) bool {
			return !e.used && e.file == d.Path && e.line == d.Line && e.re.MatchString(text)
		})
		if i < 0 {
			problems = append(problems, fmt.Sprintf("%s:%d: unexpected diagnostic: %s", d.Path, d.Line, text))
			continue
		}
		exps[i].used = true
	}
	for _, e := range exps {
		if !e.used {
			problems = append(problems, fmt.Sprintf("%s:%d: no diagnostic was reported matching %q", e.file, e.line, e.re))
		}
	}
	return problems
}

// expectations reads the want comments of every file.
func expectations(files []string) ([]*expectation, []string) {
	var exps []*expectation
	var problems []string
	p := pyscan.NewParser()
	defer p.Close()
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			if strings.HasSuffix(file, "pyproject.toml") {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s:1: %v", file, err))
			continue
		}
		for _, c := range comments(p, file, src) {
			es, err := parseWant(file, c.line, c.text)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s:%d: %v", file, c.line, err))
			}
			exps = append(exps, es...)
		}
	}
	return exps, problems
}

type comment struct {
	line int
	text string
}

// comments returns the comments of a file: pyscan comment nodes for
// Python, whole-line `#` comments for TOML. A Python file that does not
// parse (a GAIA000 fixture) falls back to lines starting with '#'.
func comments(p *pyscan.Parser, file string, src []byte) []comment {
	var out []comment
	if strings.HasSuffix(file, ".py") {
		if m, err := p.Parse(file, src); err == nil && len(m.Syntax) == 0 {
			for _, c := range m.Comments {
				out = append(out, comment{int(c.Span.Start.Line), c.Text})
			}
			return out
		}
	}
	for i, line := range strings.Split(string(src), "\n") {
		if j := strings.Index(line, "# want"); j >= 0 && (strings.HasPrefix(strings.TrimSpace(line), "#") || !strings.HasSuffix(file, ".toml")) {
			out = append(out, comment{i + 1, line[j:]})
		}
	}
	return out
}

// parseWant parses `# want [+N] "re" ...`; other comments give nothing.
func parseWant(file string, line int, text string) ([]*expectation, error) {
	// A want may share its comment with a directive under test:
	// `# nullius: ignore[X] reason  # want "..."`.
	if i := strings.LastIndex(text, "# want "); i > 0 {
		text = text[i:]
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(text, "#")), "want")
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return nil, nil
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "-") {
		n := strings.IndexAny(rest, " \t")
		if n < 0 {
			return nil, fmt.Errorf("want %s: no pattern", rest)
		}
		off, err := strconv.Atoi(rest[:n])
		if err != nil {
			return nil, fmt.Errorf("bad want offset %q", rest[:n])
		}
		line += off
		rest = strings.TrimSpace(rest[n:])
	}
	var exps []*expectation
	for rest != "" {
		s, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, fmt.Errorf("want: expected a quoted pattern at %q", rest)
		}
		pat, _ := strconv.Unquote(s)
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("want: %v", err)
		}
		exps = append(exps, &expectation{file: file, line: line, re: re})
		rest = strings.TrimSpace(rest[len(s):])
	}
	if len(exps) == 0 {
		return nil, fmt.Errorf("want without a pattern")
	}
	return exps, nil
}

var leadRE = lazyre.New(`^[A-Z]+[0-9]{3}`)

// leadingCode returns the rule code a want pattern starts with, or "".
func leadingCode(pattern string) string { return leadRE.FindString(pattern) }
