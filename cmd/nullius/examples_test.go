package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/matchproto"
)

// TestRuleExamples is the registry proving its own documentation, as
// staticcheck and actionlint do: every registered rule's failing example,
// run through the command that checks that kind of input, must produce
// exactly that rule, and its passing example nothing (no unsuppressed
// finding at all). A rule without runnable examples fails.
//
// How an example runs (docs/rules.md says the same to readers):
//
//   - A txtar archive (the example starts with "$ nullius ..." and/or
//     "-- name --" lines) is a directory: its files, and the command on its
//     first line (default: the command for the rule's Input, or lint the
//     directory).
//   - Otherwise the example is one file, named by the rule's Input; without
//     an Input it is the module src/my_idea/__init__.py of a package named
//     my-idea-gaia, linted without the IR checks.
//   - A JSON example whose file has a clean base in fixtures/rules (the
//     compiled package's .gaia/ir.json, and the artifacts too long to show
//     whole: match-5d0b3e21.json and panel_run_report.json, the valid
//     fixtures of their validators) is merged into that base: objects
//     member by member (a repeated member is kept repeated, null deletes),
//     arrays of objects element by element, matched by "id",
//     "strategy_id", "action_label", "label" or "seat" (unmatched ones are added);
//     any other array replaces the base's.
//   - Every command runs in-process with --format json where it has one;
//     extract's refusal is its "nullius: CODE" line. Extraction examples
//     are a project: the clean package is my-idea-gaia/ (not compiled yet),
//     the fake gaia of fixtures/fakegaia compiles and infers it, and a
//     transcript before the files says what gaia does differently
//     ("$ gaia --version" and its banner, a failing stage and its output).
func TestRuleExamples(t *testing.T) {
	rules := diag.All()
	if len(rules) < 140 {
		t.Fatalf("only %d rules registered", len(rules))
	}
	covered := 0
	for _, r := range rules {
		t.Run(r.Code, func(t *testing.T) {
			bad, badErr := runExample(t, r, r.Bad)
			good, goodErr := runExample(t, r, r.Good)
			badCodes := slices.Compact(slices.Clone(bad))
			ok := badErr == nil && goodErr == nil && slices.Equal(badCodes, []string{r.Code}) && len(good) == 0
			if pendingExamples[r.Code] {
				if ok {
					t.Errorf("%s now runs its examples: remove it from pendingExamples", r.Code)
				}
				return
			}
			covered++
			switch {
			case badErr != nil:
				t.Errorf("failing example does not run: %v\n%s", badErr, r.Bad)
			case goodErr != nil:
				t.Errorf("passing example does not run: %v\n%s", goodErr, r.Good)
			}
			if badErr == nil && !slices.Equal(badCodes, []string{r.Code}) {
				t.Errorf("failing example produced %v, want exactly %s:\n%s", bad, r.Code, r.Bad)
			}
			if goodErr == nil && len(good) != 0 {
				t.Errorf("passing example produced %v, want nothing:\n%s", good, r.Good)
			}
		})
	}
	t.Logf("%d of %d rules prove their examples; %d pending", covered, len(rules), len(pendingExamples))
}

// pendingExamples are the rules whose examples do not run yet. It is not
// an exemption list: it may only shrink (a listed rule whose examples
// start to pass fails the test until it is removed), and every entry says
// what is missing.
// TODO(registry): write runnable examples for these and empty the list.
var pendingExamples = setOf(
	// Pairwise-match: MATCH003 needs a file only the JSON Schema refuses
	// (the semantic rules run first and caught every candidate tried);
	// MATCH060-067 need the absorb harness (two packages, a match
	// artifact, the absorb journal).
	"MATCH003", "MATCH060", "MATCH061", "MATCH062", "MATCH063", "MATCH064", "MATCH065",
	"MATCH066", "MATCH067",
	// Close-prior gate: the examples are fragments; they need a clean
	// project (survey, matrix, ledger and its pinned side files, report,
	// gate result) in fixtures/rules to merge into.
	"PRIOR001", "PRIOR002", "PRIOR010", "PRIOR011", "PRIOR012", "PRIOR013", "PRIOR020",
	"PRIOR021", "PRIOR022", "PRIOR030", "PRIOR031", "PRIOR040", "PRIOR041", "PRIOR042",
	"PRIOR043", "PRIOR044", "PRIOR045", "PRIOR046", "PRIOR047", "PRIOR048", "PRIOR050",
	"PRIOR051", "PRIOR052", "PRIOR053", "PRIOR054", "PRIOR055", "PRIOR056", "PRIOR057",
	"PRIOR060", "PRIOR070", "PRIOR080", "PRIOR501", "PRIOR502", "PRIOR503", "PRIOR504", "PRIOR505",
	// Writeback refusals (PRIOR101-113): need the writeback harness (a
	// project with an extraction record, the fake idea store).
	"PRIOR101", "PRIOR102", "PRIOR103", "PRIOR104", "PRIOR105", "PRIOR106", "PRIOR107",
	"PRIOR108", "PRIOR109", "PRIOR110", "PRIOR111", "PRIOR112", "PRIOR113",
	// No check reports REPORT013: `report links --check` reports a bare
	// literature id as REPORT010 (writeback accepts either code).
	"REPORT013",
)

func setOf(codes ...string) map[string]bool {
	m := map[string]bool{}
	for _, c := range codes {
		m[c] = true
	}
	return m
}

// example is a materialised example: files to write and a command.
type example struct {
	// gaia is what the (fake) gaia does, from the example's transcript:
	// "version" its --version banner, "compile"/"check"/"infer" the output
	// of a stage that fails.
	gaia  map[string]string
	files map[string][]byte
	order []string // files in the order written (later files are newer)
	args  []string
	// base names a clean directory of fixtures/rules copied first, into
	// baseAt (the example's directory when empty).
	base, baseAt string
}

var commandLine = regexp.MustCompile(`^\$ nullius (.*)\n`)

// gaiaBlock is a gaia command of an extraction example's transcript and
// what it printed: "$ gaia --version\ngaia-lang 0.5.0a41\n".
var gaiaBlock = regexp.MustCompile(`^\$ gaia (--version|build compile|build check|run infer)[^\n]*\n((?:[^$-][^\n]*\n)*)`)

// parseExample turns a rule's example text into files and a command.
func parseExample(r diag.Rule, text string) (*example, error) {
	ex := &example{files: map[string][]byte{}, gaia: map[string]string{}}
	for {
		m := gaiaBlock.FindStringSubmatch(text)
		if m == nil {
			break
		}
		stage := map[string]string{"--version": "version", "build compile": "compile", "build check": "check", "run infer": "infer"}[m[1]]
		ex.gaia[stage] = strings.TrimSuffix(m[2], "\n")
		text = text[len(m[0]):]
	}
	add := func(name string, data []byte) {
		ex.files[name] = data
		ex.order = append(ex.order, name)
	}
	if m := commandLine.FindStringSubmatch(text); m != nil || strings.HasPrefix(text, "-- ") {
		if m != nil {
			ex.args = strings.Fields(m[1])
			text = text[len(m[0]):]
		}
		a := txtar.Parse([]byte(text))
		if strings.TrimSpace(string(a.Comment)) != "" {
			return nil, fmt.Errorf("text before the first file: %q", a.Comment)
		}
		for _, f := range a.Files {
			add(f.Name, f.Data)
		}
		switch {
		case ex.args != nil:
		case r.Input != "":
			args, err := commandFor(r.Input)
			if err != nil {
				return nil, err
			}
			ex.args = args
		default:
			ex.args = []string{"lint", "--no-config", "."}
		}
		ex.base = baseFor(r.Input)
		if ex.args[0] == "extract" {
			// The clean package, as its author left it: not compiled yet.
			ex.base, ex.baseAt = "package", "my-idea-gaia"
		}
		return ex, nil
	}
	switch {
	case r.Input == "":
		add("pyproject.toml", []byte("[project]\nname = \"my-idea-gaia\"\n"))
		add("src/my_idea/__init__.py", []byte(text))
		ex.args = []string{"lint", "--no-ir", "--no-config", "."}
	default:
		add(r.Input, []byte(text))
		ex.base = baseFor(r.Input)
		args, err := commandFor(r.Input)
		if err != nil {
			return nil, err
		}
		ex.args = args
	}
	return ex, nil
}

// baseFor names the clean base an example file is merged into.
func baseFor(input string) string {
	if strings.HasPrefix(input, ".gaia/") {
		return "package"
	}
	return ""
}

// commandFor is the command that checks a file of that name.
func commandFor(input string) ([]string, error) {
	switch base := filepath.Base(input); {
	case strings.HasPrefix(input, ".gaia/"):
		return []string{"lint", "--no-config", "."}, nil
	case base == "commitment.json":
		return []string{"validate", "commitment", input}, nil
	case strings.HasPrefix(base, "match-"):
		return []string{"validate", "match", input}, nil
	case base == "agents.json":
		return []string{"validate", "roster", input}, nil
	case strings.HasPrefix(input, "votes/"):
		return []string{"validate", "vote", input}, nil
	case base == "panel_run_report.json":
		return []string{"validate", "panel-report", input}, nil
	case strings.HasSuffix(base, ".md"):
		return []string{"report", "--both-checks", input}, nil
	}
	return nil, fmt.Errorf("no command checks a file named %q", input)
}

// runExample materialises an example in a fresh directory, runs its
// command and returns the codes of the unsuppressed findings, sorted.
func runExample(t *testing.T, r diag.Rule, text string) ([]string, error) {
	t.Helper()
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("the example is empty")
	}
	ex, err := parseExample(r, text)
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	if err := materialise(dir, ex); err != nil {
		return nil, err
	}
	t.Chdir(dir)
	if len(ex.args) >= 2 && ex.args[0] == "report" && ex.args[1] == "--both-checks" {
		file := ex.args[2]
		a, errA := runJSON([]string{"report", "posteriors", "--check", file})
		b, errB := runJSON([]string{"report", "links", "--check", "--project-root", ".", file})
		if errA != nil {
			return nil, errA
		}
		if errB != nil {
			return nil, errB
		}
		return sorted(append(a, b...)), nil
	}
	if ex.args[0] == "extract" {
		return runExtract(t, dir, ex)
	}
	codes, err := runJSON(ex.args)
	return sorted(codes), err
}

func sorted(s []string) []string { slices.Sort(s); return s }

// runJSON runs a command with --format json and returns the codes of its
// unsuppressed findings.
func runJSON(args []string) ([]string, error) {
	var out, errb bytes.Buffer
	full := append([]string{args[0]}, args[1:]...)
	full = append(full[:len(full):len(full)], "--format", "json")
	code := run(full, strings.NewReader(""), &out, &errb)
	if code == exitError {
		return nil, fmt.Errorf("nullius %s: exit %d: %s", strings.Join(args, " "), code, strings.TrimSpace(errb.String()))
	}
	var res struct {
		Diagnostics []diag.Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, fmt.Errorf("nullius %s: output is not JSON: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	var codes []string
	for _, d := range res.Diagnostics {
		if !d.Suppressed {
			codes = append(codes, d.Code)
		}
	}
	return codes, nil
}

var refusalLine = regexp.MustCompile(`(?m)^nullius: ([A-Z]+[0-9]{3}) `)

// runExtract runs nullius extract with the repository's fake gaia
// (fixtures/fakegaia), which compiles the clean package's IR and infers
// fixtures/rules/beliefs.json unless the example says otherwise: a
// `$ gaia --version` transcript sets its banner, a failing stage's
// transcript makes that stage fail with that output, and a
// .gaia/beliefs.json in the example is what infer writes. It returns the
// rule extraction stopped with, if any.
func runExtract(t *testing.T, dir string, ex *example) ([]string, error) {
	fixture := func(rel string) string { return filepath.Join(exampleRepo, "fixtures", filepath.FromSlash(rel)) }
	t.Setenv("FAKE_GAIA_IR", fixture("rules/package/.gaia/ir.json"))
	t.Setenv("FAKE_GAIA_BELIEFS", fixture("rules/beliefs.json"))
	t.Setenv("FAKE_GAIA_VERSION", "")
	t.Setenv("FAKE_GAIA_FAIL", "")
	for stage, out := range ex.gaia {
		if stage == "version" {
			t.Setenv("FAKE_GAIA_VERSION", out)
			continue
		}
		t.Setenv("FAKE_GAIA_FAIL", stage)
		t.Setenv("FAKE_GAIA_FAIL_OUTPUT", out)
	}
	// A beliefs.json the example shows is what infer writes: move it where
	// the fake reads it from.
	for _, name := range ex.order {
		if strings.HasSuffix(name, ".gaia/beliefs.json") {
			p := filepath.Join(dir, filepath.FromSlash(name))
			out := filepath.Join(t.TempDir(), "beliefs.json")
			if err := os.Rename(p, out); err != nil {
				return nil, err
			}
			t.Setenv("FAKE_GAIA_BELIEFS", out)
		}
	}
	var out, errb bytes.Buffer
	full := append(slices.Clone(ex.args), "--no-render")
	if !slices.Contains(ex.args, "--gaia") {
		full = append(full, "--gaia", fixture("fakegaia/gaia"))
	}
	code := run(full, strings.NewReader(""), &out, &errb)
	if code == exitOK {
		return nil, nil
	}
	if m := refusalLine.FindStringSubmatch(errb.String()); m != nil {
		return []string{m[1]}, nil
	}
	return nil, fmt.Errorf("nullius %s: exit %d without a rule: %s", strings.Join(ex.args, " "), code, errb.String())
}

// exampleRepo is the repository root, seen from this package's directory
// (set before any test changes directory).
var exampleRepo = func() string {
	abs, err := filepath.Abs("../..")
	if err != nil {
		panic(err)
	}
	return abs
}()

// materialise writes the base (if any), then the example's files in
// order, each a second newer than the one before, so an example can say
// which file is stale (GAIA213).
func materialise(dir string, ex *example) error {
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write := func(rel string, data []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		when = when.Add(time.Second)
		return os.Chtimes(p, when, when)
	}
	if ex.base != "" {
		root := filepath.Join(exampleRepo, "fixtures", "rules", ex.base)
		var files []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return err
		}
		// Sources before the compiled files, as a compile leaves them.
		slices.SortStableFunc(files, func(a, b string) int {
			return boolInt(strings.Contains(a, ".gaia")) - boolInt(strings.Contains(b, ".gaia"))
		})
		for _, p := range files {
			rel, _ := filepath.Rel(root, p)
			if ex.baseAt != "" {
				if strings.HasPrefix(filepath.ToSlash(rel), ".gaia/") {
					continue
				}
				rel = filepath.Join(ex.baseAt, rel)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if patch, ok := ex.files[filepath.ToSlash(rel)]; ok && strings.HasSuffix(rel, ".json") {
				merged, err := mergeJSON(data, patch)
				if err != nil {
					return fmt.Errorf("%s: %v", rel, err)
				}
				ex.files[filepath.ToSlash(rel)] = merged
				continue
			}
			if err := write(filepath.ToSlash(rel), data); err != nil {
				return err
			}
		}
	}
	for _, name := range ex.order {
		data := ex.files[name]
		// A JSON file with a clean base (an artifact too long to show
		// whole) is merged into it.
		if base, err := os.ReadFile(filepath.Join(exampleRepo, filepath.FromSlash(baseFile(name)))); err == nil && strings.HasSuffix(name, ".json") {
			if data, err = mergeJSON(base, data); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
		if err := write(name, data); err != nil {
			return err
		}
	}
	return nil
}

// baseFile is the clean artifact an example file of that name is merged
// into: a valid fixture of the artifact's own tests.
func baseFile(name string) string {
	switch name {
	case "match-5d0b3e21.json":
		return "fixtures/match/validate/match/ok_single_family.json"
	case "panel_run_report.json":
		return "fixtures/match/validate/panel-report/ok_single_family.json"
	}
	return "fixtures/rules/" + name
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mergeJSON merges an example into its base. An example that is not a
// JSON object (a syntax error, an array) replaces the base whole.
func mergeJSON(base, patch []byte) ([]byte, error) {
	p, err := matchproto.Decode(patch)
	if err != nil {
		return patch, nil
	}
	po, ok := p.Value.(matchproto.Object)
	if !ok {
		return patch, nil
	}
	b, err := matchproto.Decode(base)
	if err != nil {
		return nil, err
	}
	bo, ok := b.Value.(matchproto.Object)
	if !ok {
		return nil, fmt.Errorf("base is not an object")
	}
	return []byte(matchproto.MarshalIndent(mergeObject(bo, po))), nil
}

func mergeObject(base, patch matchproto.Object) matchproto.Object {
	out := slices.Clone(base)
	replaced := map[string]bool{}
	for _, m := range patch {
		i := slices.IndexFunc(out, func(b matchproto.Member) bool { return b.Key == m.Key })
		switch {
		case m.Value == nil && i >= 0:
			out = slices.Delete(out, i, i+1)
		case i >= 0 && !replaced[m.Key]:
			out[i].Value = mergeValue(out[i].Value, m.Value)
			replaced[m.Key] = true
		default: // a new member, or a repeated one kept repeated
			out = append(out, m)
		}
	}
	return out
}

func mergeValue(base, patch any) any {
	switch p := patch.(type) {
	case matchproto.Object:
		if b, ok := base.(matchproto.Object); ok {
			return mergeObject(b, p)
		}
	case []any:
		if b, ok := base.([]any); ok {
			return mergeArray(b, p)
		}
	}
	return patch
}

// mergeArray merges elements that name an identity the base has; other
// elements with an identity are appended. An array holding anything else
// (scalars, objects without an identity) replaces the base's.
func mergeArray(base, patch []any) []any {
	out := slices.Clone(base)
	for _, pe := range patch {
		po, isObj := pe.(matchproto.Object)
		if !isObj {
			return patch
		}
		key, val := identity(po)
		if key == "" {
			return patch // elements without identity: the example's array replaces the base's
		}
		i := -1
		{
			i = slices.IndexFunc(out, func(be any) bool {
				bo, ok := be.(matchproto.Object)
				if !ok {
					return false
				}
				k, v := identity(bo)
				return k == key && v == val
			})
		}
		if i >= 0 {
			out[i] = mergeObject(out[i].(matchproto.Object), po)
		} else {
			out = append(out, po)
		}
	}
	return out
}

func identity(o matchproto.Object) (string, any) {
	for _, key := range []string{"id", "strategy_id", "action_label", "label", "seat"} {
		for _, m := range o {
			if m.Key == key {
				switch v := m.Value.(type) {
				case string:
					return key, v
				case json.Number:
					return key, v.String()
				}
			}
		}
	}
	return "", nil
}

// TestRuleExampleBasesAreClean: every base the examples start from is
// silent, so a finding in an example comes from the example.
func TestRuleExampleBasesAreClean(t *testing.T) {
	r := diag.Rule{Code: "GAIA100", Input: ".gaia/ir.json"}
	codes, err := runExample(t, r, "{}")
	if err != nil || len(codes) != 0 {
		t.Fatalf("the clean compiled package reports %v, %v", codes, err)
	}
}
