package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/golden"
)

// The tutorial (docs/tutorial.md) is run as written: every ```console
// block's `$ ` lines are commands, run in order by one bash process (so cd
// and . env.sh carry over, as in the reader's terminal), from a fresh
// $HOME; the block under a line "File `PATH`:" is written to PATH, and the
// ```diff block under "Change `PATH`:" applied to PATH, at its place in the
// text. Each
// command's output (stdout and stderr together, as a terminal shows them)
// is compared with the lines under it, after one normalisation of both
// sides: the temporary home becomes /home/you and every ISO 8601 timestamp
// becomes <time>. A line `...` stands for any number of lines. A command
// must exit 0 unless it ends with `# exit N`. go test -run TestTutorial
// -update rewrites the outputs that differ.

const tutorialPath = "../../docs/tutorial.md"

type tutorialStep struct {
	kind     string // "cmd", "file", "patch"
	line     int    // 1-based line of the command or marker in the doc
	text     string // command, file content or diff
	path     string // file and patch
	want     []string
	wantExit int
	// outStart, outEnd delimit the expected-output lines in the doc
	// (0-based, end exclusive), for -update.
	outStart, outEnd int
}

var (
	fenceRE  = regexp.MustCompile("^(```+)\\s*([A-Za-z0-9_-]*)\\s*$")
	markerRE = regexp.MustCompile("^(File|Change) `([^`\\s]+)`:$")
	exitRE   = regexp.MustCompile(`#\s*exit (\d+)\s*$`)
	timeRE   = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})`)
)

// parseTutorial reads the steps of the tutorial. A ```sh or ```bash block
// is an error: every shell block must be a checked transcript.
func parseTutorial(lines []string) ([]tutorialStep, error) {
	var steps []tutorialStep
	var marker *tutorialStep
	for i := 0; i < len(lines); i++ {
		if m := markerRE.FindStringSubmatch(lines[i]); m != nil {
			marker = &tutorialStep{kind: map[string]string{"File": "file", "Change": "patch"}[m[1]], path: m[2], line: i + 1}
			continue
		}
		f := fenceRE.FindStringSubmatch(lines[i])
		if f == nil {
			if marker != nil && strings.TrimSpace(lines[i]) != "" {
				return nil, fmt.Errorf("line %d: a File or Change line must be followed by its fenced block", marker.line)
			}
			continue
		}
		fence, lang := f[1], f[2]
		start := i + 1
		end := start
		for end < len(lines) && strings.TrimSpace(lines[end]) != fence {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("line %d: unclosed fence", i+1)
		}
		body := lines[start:end]
		switch {
		case marker != nil:
			if marker.kind == "patch" && lang != "diff" {
				return nil, fmt.Errorf("line %d: a Change line needs a ```diff block", marker.line)
			}
			marker.text = strings.Join(body, "\n") + "\n"
			steps = append(steps, *marker)
			marker = nil
		case lang == "console":
			cs, err := parseConsole(body, start)
			if err != nil {
				return nil, err
			}
			steps = append(steps, cs...)
		case lang == "sh" || lang == "bash" || lang == "shell":
			return nil, fmt.Errorf("line %d: a ```%s block would go unchecked; write commands as a ```console transcript", i+1, lang)
		}
		i = end
	}
	return steps, nil
}

// parseConsole splits a transcript into commands and their outputs; first
// is the doc index of the block's first line.
func parseConsole(body []string, first int) ([]tutorialStep, error) {
	var steps []tutorialStep
	for j := 0; j < len(body); {
		if !strings.HasPrefix(body[j], "$ ") {
			return nil, fmt.Errorf("line %d: transcript output with no command above it", first+j+1)
		}
		s := tutorialStep{kind: "cmd", line: first + j + 1}
		cmd := []string{strings.TrimPrefix(body[j], "$ ")}
		j++
		for strings.HasSuffix(cmd[len(cmd)-1], "\\") && j < len(body) {
			cmd = append(cmd, body[j])
			j++
		}
		s.text = strings.Join(cmd, "\n")
		if m := exitRE.FindStringSubmatch(cmd[len(cmd)-1]); m != nil {
			s.wantExit, _ = strconv.Atoi(m[1])
		}
		s.outStart = first + j
		for j < len(body) && !strings.HasPrefix(body[j], "$ ") {
			s.want = append(s.want, body[j])
			j++
		}
		s.outEnd = first + j
		steps = append(steps, s)
	}
	return steps, nil
}

// tutorialScript is the bash script that runs the steps, writing step i's
// output to $out/i and its exit status to $out/i.rc.
func tutorialScript(steps []tutorialStep) string {
	const eof = "NULLIUS_TUTORIAL_EOF"
	var b strings.Builder
	b.WriteString("tutorial_out=$1\n")
	for i, s := range steps {
		switch s.kind {
		case "cmd":
			fmt.Fprintf(&b, "{ %s\n} >\"$tutorial_out/%d\" 2>&1\necho $? >\"$tutorial_out/%d.rc\"\n", s.text, i, i)
		case "file":
			fmt.Fprintf(&b, "mkdir -p -- \"$(dirname -- %s)\" && cat >%s <<'%s'\n%s%s\necho $? >\"$tutorial_out/%d.rc\"\n",
				shellQuote(s.path), shellQuote(s.path), eof, s.text, eof, i)
		case "patch":
			fmt.Fprintf(&b, "tutorial-patch %s >\"$tutorial_out/%d\" 2>&1 <<'%s'\n%s%s\necho $? >\"$tutorial_out/%d.rc\"\n",
				shellQuote(s.path), i, eof, s.text, eof, i)
		}
	}
	return b.String()
}

// tutorialPatchMain is the tutorial-patch program: it applies the diff on
// stdin to the file named by its argument. Each hunk is a run of lines;
// the '-' and ' ' lines must occur exactly once in the file, in order, and
// are replaced by the ' ' and '+' lines.
func tutorialPatchMain() {
	if err := applyTutorialPatch(os.Args[1], os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "tutorial-patch:", err)
		os.Exit(1)
	}
}

func applyTutorialPatch(path string, diff io.Reader) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var old, new []string
	sc := bufio.NewScanner(diff)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "-"):
			old = append(old, l[1:])
		case strings.HasPrefix(l, "+"):
			new = append(new, l[1:])
		case strings.HasPrefix(l, " "):
			old, new = append(old, l[1:]), append(new, l[1:])
		case l == "":
			old, new = append(old, ""), append(new, "")
		default:
			return fmt.Errorf("diff line %q starts with none of '-', '+', ' '", l)
		}
	}
	from := strings.Join(old, "\n") + "\n"
	if n := strings.Count(string(src), from); n != 1 {
		return fmt.Errorf("%s: the lines to replace occur %d times, want once:\n%s", path, n, from)
	}
	return os.WriteFile(path, []byte(strings.Replace(string(src), from, strings.Join(new, "\n")+"\n", 1)), 0o644)
}

func normaliseTutorial(s, home string) string {
	s = strings.ReplaceAll(s, home, "/home/you")
	return timeRE.ReplaceAllString(s, "<time>")
}

// outputMatches compares output lines with expected ones, `...` matching
// any run of lines.
func outputMatches(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if outputMatches(got[k:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && outputMatches(got[1:], want[1:])
}

func TestTutorial(t *testing.T) {
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the tutorial needs %s on PATH: %v", tool, err)
		}
	}
	doc, err := os.ReadFile(tutorialPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(doc), "\n"), "\n")
	steps, err := parseTutorial(lines)
	if err != nil {
		t.Fatalf("%s: %v", tutorialPath, err)
	}
	home := t.TempDir()
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	out := t.TempDir()
	script := filepath.Join(t.TempDir(), "tutorial.sh")
	if err := os.WriteFile(script, []byte(tutorialScript(steps)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script, out)
	cmd.Dir = home
	// A clean environment: the reader's shell has nothing nullius reads.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C.UTF-8", "TZ=UTC",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Tutorial Reader", "GIT_AUTHOR_EMAIL=reader@example.org",
		"GIT_COMMITTER_NAME=Tutorial Reader", "GIT_COMMITTER_EMAIL=reader@example.org",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=init.defaultBranch", "GIT_CONFIG_VALUE_0=main"}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash: %v\n%s", err, b)
	}
	update := golden.Update()
	rewritten := false
	for i, s := range steps {
		rc, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("%d.rc", i)))
		if err != nil {
			t.Fatalf("%s:%d: the step did not run (an earlier one stopped the shell?)", tutorialPath, s.line)
		}
		code, _ := strconv.Atoi(strings.TrimSpace(string(rc)))
		got, _ := os.ReadFile(filepath.Join(out, strconv.Itoa(i)))
		if s.kind != "cmd" {
			if code != 0 {
				t.Errorf("%s:%d: %s %s failed: %s", tutorialPath, s.line, s.kind, s.path, got)
			}
			continue
		}
		if code != s.wantExit {
			t.Errorf("%s:%d: $ %s\nexited %d, want %d; output:\n%s", tutorialPath, s.line, s.text, code, s.wantExit, got)
		}
		gotLines := strings.Split(strings.TrimSuffix(normaliseTutorial(string(got), home), "\n"), "\n")
		if len(got) == 0 {
			gotLines = nil
		}
		var want []string
		for _, w := range s.want {
			want = append(want, normaliseTutorial(w, home))
		}
		if outputMatches(gotLines, want) {
			continue
		}
		if update {
			fresh := strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(got), home, "/home/you"), "\n"), "\n")
			if len(got) == 0 {
				fresh = nil
			}
			for k := s.outStart; k < s.outEnd; k++ {
				lines[k] = "\x00" // dropped below
			}
			switch {
			case len(fresh) == 0:
			case s.outEnd > s.outStart:
				lines[s.outStart] = strings.Join(fresh, "\n")
			default:
				lines[s.outStart-1] += "\n" + strings.Join(fresh, "\n")
			}
			rewritten = true
			continue
		}
		t.Errorf("%s:%d: $ %s\noutput differs (normalised; if the change is meant, go test ./cmd/nullius -run TestTutorial -update and review the diff):\n--- got\n%s\n--- want\n%s", tutorialPath, s.line, s.text,
			strings.Join(gotLines, "\n"), strings.Join(want, "\n"))
	}
	if rewritten {
		var b bytes.Buffer
		for _, l := range lines {
			if l != "\x00" {
				b.WriteString(l + "\n")
			}
		}
		if err := os.WriteFile(tutorialPath, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the outputs that differed in %s; review the diff", tutorialPath)
	}
}

// The parser reads transcripts, markers and continuation lines, and
// refuses what would go unchecked.
func TestParseTutorial(t *testing.T) {
	doc := strings.Split("text\n```console\n$ a \\\n  --b\nout 1\n$ false  # exit 1\n```\nFile `x/y.txt`:\n\n```text\nhello\n```\nChange `x/y.txt`:\n```diff\n-hello\n+bye\n```\n", "\n")
	steps, err := parseTutorial(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 4 || steps[0].text != "a \\\n  --b" || len(steps[0].want) != 1 || steps[1].wantExit != 1 ||
		steps[2].kind != "file" || steps[2].text != "hello\n" || steps[3].kind != "patch" {
		t.Fatalf("steps: %+v", steps)
	}
	for _, bad := range []string{"```sh\nls\n```", "```console\noutput first\n```", "File `a`:\ntext\n```text\nx\n```", "Change `a`:\n```text\nx\n```", "```console\n$ x"} {
		if _, err := parseTutorial(strings.Split(bad, "\n")); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if !outputMatches([]string{"a", "b", "c"}, []string{"a", "...", "c"}) || outputMatches([]string{"a", "b"}, []string{"a", "c"}) {
		t.Error("elision")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("one\ntwo\nthree\n"), 0o644)
	if err := applyTutorialPatch(p, strings.NewReader(" one\n-two\n+2\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\n2\nthree\n" {
		t.Errorf("patched: %q", b)
	}
	if err := applyTutorialPatch(p, strings.NewReader("-two\n")); err == nil {
		t.Error("a patch whose lines are gone applied")
	}
}
