package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/shlex"
	"github.com/nullius-dev/nullius/pipeline/absorb"
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
//   - A JSON example whose file has a clean base (bases: the compiled
//     package of fixtures/rules/package for .gaia/ir.json, the close-prior
//     project of fixtures/prior/project for artifacts/..., and the
//     artifacts too long to show whole: match-5d0b3e21.json and
//     panel_run_report.json, the valid fixtures of their validators) is
//     merged into that base: objects member by member (a repeated member
//     is kept repeated, null deletes), arrays of objects element by
//     element, matched by their identity member (identityKeys; unmatched
//     ones are added); an empty array or any other array replaces the
//     base's. In the close-prior project "project://P#sha256:<pin>" is
//     the pin of P as the example leaves it (pinAll).
//   - Every command runs in-process with --format json where it has one;
//     extract's refusal is its "nullius: CODE" line. Extraction examples
//     are a project: the clean package is my-idea-gaia/ (not compiled yet),
//     the fake gaia of fixtures/fakegaia compiles and infers it, and a
//     transcript before the files says what gaia does differently
//     ("$ gaia --version" and its banner, a failing stage and its output).
//   - Writeback examples ("$ nullius writeback ...") start from the
//     close-prior project with my-idea-gaia/ bound and extracted
//     (extractForWriteback: posterior.json is what extract printed) and
//     the fake idea store behind a stand-in node; absorb and recover
//     examples from the project of the absorb scripts (absorbProject).
//     writeback refuses with exit 2 and its json document, which counts.
//   - A transcript may hold several "$ nullius" lines: all but the last
//     ran before the example's files were written, in-process, or, with a
//     "# killed at the crash point P" line after it, as a process of its
//     own killed there (runSetup); a file named "<path> (saved during the
//     absorb)" is written at the crash point "linted" of the absorb under
//     test; a $'...' word (a command's argument or a file's name) is
//     ANSI-C quoted, for names holding a line break.
//
// A retired code (diag.Family.Retire: no check reports it any more, and a
// code is never reused) is the only rule without examples: it must state
// why it is retired and carry none.
func TestRuleExamples(t *testing.T) {
	rules := diag.All()
	if len(rules) < 140 {
		t.Fatalf("only %d rules registered", len(rules))
	}
	proved, retired := 0, 0
	for _, r := range rules {
		t.Run(r.Code, func(t *testing.T) {
			if r.Retired != "" {
				retired++
				if r.Bad != "" || r.Good != "" {
					t.Errorf("retired rule %s carries examples", r.Code)
				}
				return
			}
			bad, badErr := runExample(t, r, r.Bad)
			good, goodErr := runExample(t, r, r.Good)
			switch {
			case badErr != nil:
				t.Errorf("failing example does not run: %v\n%s", badErr, r.Bad)
			case goodErr != nil:
				t.Errorf("passing example does not run: %v\n%s", goodErr, r.Good)
			}
			badCodes := slices.Compact(slices.Clone(bad))
			if badErr == nil && !slices.Equal(badCodes, []string{r.Code}) {
				t.Errorf("failing example produced %v, want exactly %s:\n%s", bad, r.Code, r.Bad)
			}
			if goodErr == nil && len(good) != 0 {
				t.Errorf("passing example produced %v, want nothing:\n%s", good, r.Good)
			}
			if !t.Failed() {
				proved++
			}
		})
	}
	t.Logf("%d of %d rules prove their examples; %d retired", proved, len(rules), retired)
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
	setup []setupCmd // commands run before the files are written
	// base names the clean directories (bases) copied first.
	base string
}

var commandLine = regexp.MustCompile(`^\$ nullius (.*)\n`)

// killedLine follows a command of the transcript that was killed at a
// crash point of the absorb transaction (absorb.CrashPoints): "# killed at
// the crash point committed (...)".
var killedLine = regexp.MustCompile(`^# killed at the crash point ([a-z0-9-]+)[^\n]*\n`)

// setupCmd is a command of an example's transcript that runs before the
// example's files are written, killed at killAt when set.
type setupCmd struct {
	args   []string
	killAt string
}

// ansiCQuoted is a bash ANSI-C quoted word, $'...': how a transcript
// writes a name holding a line break (MATCH064), in a command line and in
// a file's name.
var ansiCQuoted = regexp.MustCompile(`\$'(?:[^'\\]|\\.)*'`)

// ansiC decodes a $'...' word: \n, \t, \\ and \'.
func ansiC(q string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\'`, "'")
	return r.Replace(q[2 : len(q)-1])
}

// duringAbsorb marks a file of an absorb example that an editor saves
// while the absorb runs: it is written at the crash point "linted" (both
// modules edited and linted, the artifact not yet checked again).
const duringAbsorb = " (saved during the absorb)"

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
	// The transcript: nullius commands, each perhaps killed at a crash
	// point; the last one is the command the example is about, the others
	// ran before the example's files were written.
	var cmds []setupCmd
	for {
		if m := commandLine.FindStringSubmatch(text); m != nil {
			args, err := shlex.Split(ansiCQuoted.ReplaceAllStringFunc(m[1], func(q string) string {
				// One word, escapes resolved: a line break inside double
				// quotes is kept by the POSIX splitter.
				return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(ansiC(q)) + `"`
			}))
			if err != nil {
				return nil, fmt.Errorf("command line: %v", err)
			}
			cmds = append(cmds, setupCmd{args: args})
			text = text[len(m[0]):]
			continue
		}
		if m := killedLine.FindStringSubmatch(text); m != nil && len(cmds) > 0 {
			cmds[len(cmds)-1].killAt = m[1]
			text = text[len(m[0]):]
			continue
		}
		break
	}
	if len(cmds) > 0 || strings.HasPrefix(text, "-- ") {
		if len(cmds) > 0 {
			last := cmds[len(cmds)-1]
			if last.killAt != "" {
				return nil, fmt.Errorf("the example's own command is killed")
			}
			ex.args, ex.setup = last.args, cmds[:len(cmds)-1]
		}
		a := txtar.Parse([]byte(text))
		if strings.TrimSpace(string(a.Comment)) != "" {
			return nil, fmt.Errorf("text before the first file: %q", a.Comment)
		}
		for _, f := range a.Files {
			name := f.Name
			if ansiCQuoted.MatchString(name) {
				name = ansiC(name)
			}
			add(name, f.Data)
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
		switch ex.args[0] {
		case "extract":
			// The clean package, as its author left it: not compiled yet.
			ex.base = "extract"
		case "writeback":
			ex.base = "writeback"
		case "recover":
			ex.base = "absorb"
		case "match":
			if len(ex.args) > 1 && ex.args[1] == "absorb" {
				ex.base = "absorb"
			}
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

// baseDir is a clean directory of fixtures/ copied into an example's
// directory at at, without its .gaia/ when noIR.
type baseDir struct {
	dir, at string
	noIR    bool
}

// bases are the clean directories examples start from.
var bases = map[string][]baseDir{
	// The compiled package of the IR examples.
	"package": {{dir: "rules/package"}},
	// The extraction examples: a project whose package my-idea-gaia/ is
	// that package before compiling.
	"extract": {{dir: "rules/package", at: "my-idea-gaia", noIR: true}},
	// The close-prior project: survey, matrix, ledger and its pinned side
	// files, report, gate result, and the compiled package as
	// my-idea-gaia/; the whole gate passes on it (saturated).
	"project": {{dir: "prior/project"}, {dir: "rules/package", at: "my-idea-gaia"}},
	// The writeback examples: that project with the package's sources,
	// bound and extracted before the example (extractForWriteback), and
	// the idea engine's RPC program.
	"writeback": {{dir: "prior/project"}, {dir: "rules/package", at: "my-idea-gaia", noIR: true}, {dir: "rules/idea-engine", at: "idea-engine"}},
}

// baseFor names the clean base an example file is merged into.
func baseFor(input string) string {
	switch {
	case strings.HasPrefix(input, ".gaia/"):
		return "package"
	case strings.HasPrefix(input, "artifacts/"):
		return "project"
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
	case base == "survey.json":
		return []string{"validate", "survey", input}, nil
	case base == "close_prior_matrix.json":
		return []string{"validate", "matrix", input}, nil
	case base == "literature-ledger.json":
		return []string{"validate", "ledger", input}, nil
	case base == "gate_result.json":
		return []string{"validate", "gate-result", input}, nil
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
	if err := materialise(t, dir, ex); err != nil {
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
	// writeback refuses with exit 2 and its json document; any other
	// exit 2 is an error, not a finding.
	if code == exitError && args[0] != "writeback" {
		return nil, fmt.Errorf("nullius %s: exit %d: %s", strings.Join(args, " "), code, strings.TrimSpace(errb.String()))
	}
	var res struct {
		Diagnostics []diag.Diagnostic `json:"diagnostics"`
		Status      string            `json:"status"` // writeback's outcome
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, fmt.Errorf("nullius %s: exit %d, output is not JSON: %v\n%s%s", strings.Join(args, " "), code, err, out.String(), errb.String())
	}
	if args[0] == "writeback" && (res.Status == "refused") != (len(res.Diagnostics) > 0) {
		return nil, fmt.Errorf("nullius %s: exit %d, status %q with %d findings: %s", strings.Join(args, " "), code, res.Status, len(res.Diagnostics), strings.TrimSpace(errb.String()))
	}
	if args[0] == "writeback" && res.Status != "written" && res.Status != "refused" {
		return nil, fmt.Errorf("nullius %s: exit %d, status %q: %s", strings.Join(args, " "), code, res.Status, strings.TrimSpace(errb.String()))
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
	setFakeGaia(t)
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

// materialise writes the base (if any), prepares it (the writeback
// examples: the package bound and extracted), then the example's files in
// order, each a second newer than the one before, so an example can say
// which file is stale (GAIA213). A JSON file of the example is merged into
// the file of that name when there is one.
func materialise(t *testing.T, dir string, ex *example) error {
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
	type file struct{ src, rel string }
	var files []file
	for _, b := range bases[ex.base] {
		root := filepath.Join(exampleRepo, "fixtures", filepath.FromSlash(b.dir))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if b.noIR && strings.HasPrefix(filepath.ToSlash(rel), ".gaia/") {
				return nil
			}
			files = append(files, file{p, filepath.ToSlash(filepath.Join(b.at, rel))})
			return nil
		})
		if err != nil {
			return err
		}
	}
	// Sources before the compiled files, as a compile leaves them.
	slices.SortStableFunc(files, func(a, b file) int {
		return boolInt(strings.Contains(a.rel, ".gaia/")) - boolInt(strings.Contains(b.rel, ".gaia/"))
	})
	for _, f := range files {
		data, err := os.ReadFile(f.src)
		if err != nil {
			return err
		}
		if err := write(f.rel, data); err != nil {
			return err
		}
	}
	switch ex.base {
	case "writeback":
		if err := extractForWriteback(t, dir); err != nil {
			return err
		}
	case "absorb":
		if err := absorbProject(dir); err != nil {
			return err
		}
	}
	for _, c := range ex.setup {
		if err := runSetup(t, dir, c); err != nil {
			return err
		}
	}
	// writeFile writes an example file, merged into its clean base.
	writeFile := func(name string, data []byte) error {
		// A JSON file with a clean base (a file of the base, or an artifact
		// too long to show whole) is merged into it.
		base, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			base, err = os.ReadFile(filepath.Join(exampleRepo, filepath.FromSlash(baseFile(ex.base, name))))
		}
		if err == nil && strings.HasSuffix(name, ".json") {
			if data, err = mergeJSON(base, data); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
		return write(name, data)
	}
	var now []string
	during := map[string][]byte{}
	for _, name := range ex.order {
		if file, ok := strings.CutSuffix(name, duringAbsorb); ok {
			during[file] = ex.files[name]
			continue
		}
		if err := writeFile(name, ex.files[name]); err != nil {
			return err
		}
		now = append(now, name)
	}
	if len(during) > 0 {
		t.Cleanup(func() { absorb.SetCrashHook(nil) })
		absorb.SetCrashHook(func(point, _ string) {
			if point != "linted" {
				return
			}
			for name, data := range during {
				if err := writeFile(name, data); err != nil {
					t.Errorf("saving %s during the absorb: %v", name, err)
				}
			}
		})
	}
	return pinAll(dir, now)
}

// absorbProject is the project the absorb examples start from, as the
// absorb scripts make it: a project root, two scaffolded packages bound to
// the two ideas of fixtures/absorb/match-5d0b3e21.json (A 1f6c9d5e, B
// 2a7d0e6f) with the fixtures' finished root modules, and the match
// artifact in campaign/artifacts/matches/.
func absorbProject(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, ".nullius"), 0o755); err != nil {
		return err
	}
	graphs := filepath.Join(dir, "graphs")
	if err := os.MkdirAll(graphs, 0o755); err != nil {
		return err
	}
	copyFile := func(from, to string) error {
		data, err := os.ReadFile(filepath.Join(exampleRepo, "fixtures", "absorb", from))
		if err != nil {
			return err
		}
		to = filepath.Join(dir, filepath.FromSlash(to))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	}
	for _, idea := range []struct{ slug, node string }{{"idea-one", "1f6c9d5e"}, {"idea-two", "2a7d0e6f"}} {
		args := []string{"scaffold", "--slug", idea.slug, "--dest", graphs, "--campaign-id", "3b8e1f70", "--node-id", idea.node}
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb); code != exitOK {
			return fmt.Errorf("nullius scaffold: exit %d: %s", code, errb.String())
		}
		mod := strings.ReplaceAll(idea.slug, "-", "_")
		if err := copyFile(mod+".py", "graphs/"+idea.slug+"-gaia/src/"+mod+"/__init__.py"); err != nil {
			return err
		}
	}
	return copyFile("match-5d0b3e21.json", "campaign/artifacts/matches/match-5d0b3e21.json")
}

// runSetup runs a command of the transcript in dir: in-process, or, when
// it is killed at a crash point, as a process of its own (the test
// binary's nullius program, which kills itself there with SIGKILL).
func runSetup(t *testing.T, dir string, c setupCmd) error {
	if c.killAt == "" {
		t.Chdir(dir)
		var out, errb bytes.Buffer
		if code := run(c.args, strings.NewReader(""), &out, &errb); code != exitOK {
			return fmt.Errorf("nullius %s: exit %d: %s", strings.Join(c.args, " "), code, errb.String())
		}
		return nil
	}
	if !slices.Contains(absorb.CrashPoints, c.killAt) {
		return fmt.Errorf("%q is not a crash point of absorb", c.killAt)
	}
	cmd := exec.Command("nullius", c.args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NULLIUS_TEST_CRASH_AT="+c.killAt)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		return fmt.Errorf("nullius %s was not killed at %s: %v\n%s", strings.Join(c.args, " "), c.killAt, err, out)
	}
	return nil
}

// The idea the writeback examples' package is bound to, and the store
// that holds it.
const exampleCampaign, exampleNode = "c0ffee12", "n0de0001"

// extractForWriteback binds the project's package to the example idea
// and extracts it with the stand-in gaia, leaving what the writeback
// examples start from: the compiled, inferred package, its extraction
// record, and the payload extract printed in posterior.json. The idea
// store is the fake store of internal/fakes behind a stand-in node, so
// "--rpc 'node idea-engine/bin/idea-rpc.mjs'" reaches it.
func extractForWriteback(t *testing.T, dir string) error {
	pkg := filepath.Join(dir, "my-idea-gaia")
	setFakeGaia(t)
	for _, args := range [][]string{
		{"bind", "--package", pkg, "--campaign-id", exampleCampaign, "--node-id", exampleNode},
		{"extract", "--package", pkg, "--output", filepath.Join(dir, "posterior.json"), "--no-render", "--gaia", filepath.Join(exampleRepo, "fixtures", "fakegaia", "gaia")},
	} {
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb); code != exitOK {
			return fmt.Errorf("nullius %s: exit %d: %s", args[0], code, errb.String())
		}
	}
	state, err := os.ReadFile(filepath.Join(exampleRepo, "fixtures", "rules", "idea-store.json"))
	if err != nil {
		return err
	}
	store := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(store, state, 0o644); err != nil {
		return err
	}
	t.Setenv("FAKE_IDEA_STORE_STATE", store)
	t.Setenv("FAKE_IDEA_STORE_LOG", "")
	t.Setenv("NULLIUS_IDEA_RPC", "")
	bin := t.TempDir()
	fake, err := exec.LookPath("fake-idea-store")
	if err != nil {
		return err
	}
	node := "#!/bin/sh\n# A stand-in node: runs the fake idea store whatever script it is given.\nexec " + fake + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "node"), []byte(node), 0o755); err != nil {
		return err
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return nil
}

// setFakeGaia points the stand-in gaia (fixtures/fakegaia) at the clean
// package's compile and inference: it compiles fixtures/rules/package's
// IR and infers fixtures/rules/beliefs.json, and does nothing else.
func setFakeGaia(t *testing.T) {
	fixture := func(rel string) string { return filepath.Join(exampleRepo, "fixtures", filepath.FromSlash(rel)) }
	t.Setenv("FAKE_GAIA_IR", fixture("rules/package/.gaia/ir.json"))
	t.Setenv("FAKE_GAIA_BELIEFS", fixture("rules/beliefs.json"))
	t.Setenv("FAKE_GAIA_VERSION", "")
	t.Setenv("FAKE_GAIA_FAIL", "")
}

// pinPlaceholder is a pinned project reference whose digest an example
// leaves to the harness: "project://<path>#sha256:<pin>" stands for the
// sha256 of <path> as the example leaves it (what a tool writing the
// reference records).
var pinPlaceholder = regexp.MustCompile(`project://([^\s#"]+)#sha256:<pin>`)

// pinned reads the bytes a reference to rel pins: the file, or for a
// package directory its compiled .gaia/ir.json (gaia_package_ref).
func pinned(dir, rel string) ([]byte, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		p = filepath.Join(p, ".gaia", "ir.json")
	}
	return os.ReadFile(p)
}

// pinAll replaces the pin placeholders of the example's files, a file
// after the files it pins (a ledger pins its side files, a survey the
// ledger).
func pinAll(dir string, names []string) error {
	todo := slices.Clone(names)
	for len(todo) > 0 {
		progress := false
		for i := 0; i < len(todo); i++ {
			p := filepath.Join(dir, filepath.FromSlash(todo[i]))
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			ready := true
			for _, m := range pinPlaceholder.FindAllSubmatch(data, -1) {
				target, err := pinned(dir, string(m[1]))
				if err != nil {
					return fmt.Errorf("%s pins %s: %v", todo[i], m[1], err)
				}
				ready = ready && !pinPlaceholder.Match(target)
			}
			if !ready {
				continue
			}
			out := pinPlaceholder.ReplaceAllFunc(data, func(ref []byte) []byte {
				m := pinPlaceholder.FindSubmatch(ref)
				target, _ := pinned(dir, string(m[1]))
				return []byte(fmt.Sprintf("project://%s#sha256:%x", m[1], sha256.Sum256(target)))
			})
			if !bytes.Equal(out, data) {
				st, err := os.Stat(p)
				if err != nil {
					return err
				}
				if err := os.WriteFile(p, out, 0o644); err != nil {
					return err
				}
				if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
					return err
				}
			}
			todo = slices.Delete(todo, i, i+1)
			i--
			progress = true
		}
		if !progress {
			return fmt.Errorf("pins that cannot be resolved (a cycle) in %v", todo)
		}
	}
	return nil
}

// baseFile is the clean artifact an example file of that name is merged
// into: a valid fixture of the artifact's own tests.
func baseFile(base, name string) string {
	if base == "absorb" && path.Base(name) == "match-5d0b3e21.json" {
		return "fixtures/absorb/match-5d0b3e21.json" // moved elsewhere in the project
	}
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
		case m.Value == nil:
			if i >= 0 {
				out = slices.Delete(out, i, i+1)
			}
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
	if len(patch) == 0 {
		return patch // [] empties the list
	}
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

// identityKeys name the member that identifies an element of a list, in
// order of preference: knowledges and ledger candidates by id, strategies,
// actions, seats, survey papers (ref_key), matrix entries (reference),
// ledger audits and manifests (source_id, candidate_id), request logs
// (query).
var identityKeys = []string{"id", "strategy_id", "action_label", "label", "seat", "ref_key", "reference", "source_id", "candidate_id", "query"}

func identity(o matchproto.Object) (string, any) {
	for _, key := range identityKeys {
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
