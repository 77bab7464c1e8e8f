package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nullius-dev/nullius/internal/fakes"
	"github.com/nullius-dev/nullius/internal/golden"
)

// TestMain registers the CLI as the in-process program "nullius" for the
// testscript scripts. The wrapper records the exit status in $WORK/.exit so
// the `exitcode N` command can assert 1 versus 2 (testscript itself only
// tells zero from non-zero).
func TestMain(m *testing.M) {
	// A Go test that needs nullius as a real process of its own (to signal
	// it) runs this test binary with NULLIUS_TEST_MAIN=1.
	if os.Getenv("NULLIUS_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	programs := fakes.Programs()
	programs["holdlock"] = holdLock
	programs["tutorial-patch"] = tutorialPatchMain // applies the tutorial's diff blocks (tutorial_test.go)
	programs["nullius"] = func() {
		installTestHooks()
		code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		if dir := os.Getenv("WORK"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, ".exit"), []byte(strconv.Itoa(code)), 0o644)
		}
		os.Exit(code)
	}
	testscript.Main(m, programs)
}

// TestScripts runs every testdata/script/*.txtar scenario. Run with
// -testwork to keep the work directories, -update to refresh golden output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       golden.Update(),
		Setup: func(env *testscript.Env) error {
			root, err := filepath.Abs("../..")
			if err != nil {
				return err
			}
			env.Setenv("REPO", root)        // the repository root, for fixtures
			env.Setenv("NO_COLOR", "1")     // plain text unless a script says otherwise
			env.Setenv("HOME", env.WorkDir) // no user config leaks in
			return nil
		},
		// [root]: the tests run as root, so permission bits do not stop
		// reads.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "ci":
				// [ci]: running under .ci/run, which installs what every
				// script needs, so a missing tool is a failure, not a skip.
				return os.Getenv("CI") != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// pane start|wait|capture: a command in a tmux pane (pane_test.go).
			"pane": paneCmd,
			// schemavalid SCHEMA FILE: FILE validates against the JSON
			// Schema SCHEMA (its $schema picks the draft), for checking
			// json and sarif output end to end; a FILE.jsonl is JSON lines
			// (--progress json), each line starting with '{' validated.
			"schemavalid": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: schemavalid SCHEMA FILE")
				}
				err := validateAgainst(ts.MkAbs(args[0]), ts.MkAbs(args[1]))
				if neg && err == nil {
					ts.Fatalf("%s validates against %s", args[1], args[0])
				}
				if !neg && err != nil {
					ts.Fatalf("%s: %v", args[1], err)
				}
			},
			// genfile PATH SIZE LINE: write LINE (a Go string body, so \n
			// and \xff work) over and over until PATH holds at least SIZE
			// bytes, for the huge-input and non-UTF-8 scripts.
			"genfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: genfile PATH SIZE LINE")
				}
				size, err := strconv.Atoi(args[1])
				ts.Check(err)
				line, err := strconv.Unquote(`"` + args[2] + `"`)
				ts.Check(err)
				if line == "" {
					ts.Fatalf("genfile: empty LINE")
				}
				var b strings.Builder
				for b.Len() < size {
					b.WriteString(line)
				}
				path := ts.MkAbs(args[0])
				ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
				ts.Check(os.WriteFile(path, []byte(b.String()), 0o644))
			},
			// mkfifo PATH: make a named pipe (no writer ever opens it, so a
			// reader that opens it blocks: the scripts prove none does).
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: mkfifo PATH")
				}
				ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
			},
			// errline PATTERN: the last command's stderr is exactly one
			// line, and it matches PATTERN (no stack trace, no second line).
			"errline": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: errline PATTERN")
				}
				text := ts.ReadFile("stderr")
				if strings.Count(text, "\n") != 1 || !strings.HasSuffix(text, "\n") {
					ts.Fatalf("stderr is not one line:\n%s", text)
				}
				re, err := regexp.Compile(args[0])
				ts.Check(err)
				if !re.MatchString(strings.TrimSuffix(text, "\n")) {
					ts.Fatalf("stderr %q does not match %q", text, args[0])
				}
			},
			// waitfile PATH: wait until PATH exists (a background step
			// says it got somewhere); bounded, so a broken script fails.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: waitfile PATH")
				}
				for range 6000 {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
				ts.Fatalf("%s did not appear within 5 minutes", args[0])
			},
			// lockwaiters DIR N: wait until N processes have DIR's nullius
			// lock file open: the holder and N-1 steps waiting for it.
			"lockwaiters": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: lockwaiters DIR N")
				}
				want, err := strconv.Atoi(args[1])
				ts.Check(err)
				for range 6000 {
					n, err := lockOpeners(ts.MkAbs(args[0]))
					ts.Check(err)
					if n >= want {
						return
					}
					time.Sleep(50 * time.Millisecond)
				}
				ts.Fatalf("fewer than %d processes opened the lock of %s within 5 minutes", want, args[0])
			},
			// exitcode N: the last `exec nullius` exited with status N.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: exitcode N")
				}
				got := strings.TrimSpace(ts.ReadFile(filepath.Join(ts.Getenv("WORK"), ".exit")))
				if (got == args[0]) == neg {
					ts.Fatalf("exit status %s, want %s%s", got, map[bool]string{true: "not ", false: ""}[neg], args[0])
				}
			},
		},
	})
}

// validateAgainst validates the JSON file against the schema file.
func validateAgainst(schemaPath, path string) error {
	load := func(p string) (any, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return jsonschema.UnmarshalJSON(f)
	}
	doc, err := load(schemaPath)
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		return err
	}
	// The schemas beside it, under their $id, for $refs between them
	// (writeback_result_v1 refers to nullius_report_v1's definitions).
	siblings, _ := filepath.Glob(filepath.Join(filepath.Dir(schemaPath), "*.schema.json"))
	for _, sp := range siblings {
		if sp == schemaPath {
			continue
		}
		sd, err := load(sp)
		if err != nil {
			return err
		}
		if m, ok := sd.(map[string]any); ok {
			if id, ok := m["$id"].(string); ok {
				if err := c.AddResource(id, sd); err != nil {
					return err
				}
			}
		}
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		return err
	}
	if strings.HasSuffix(path, ".jsonl") {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := 0
		for i, line := range strings.Split(string(data), "\n") {
			if !strings.HasPrefix(line, "{") {
				continue
			}
			n++
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
			if err == nil {
				err = sch.Validate(inst)
			}
			if err != nil {
				return fmt.Errorf("line %d: %w", i+1, err)
			}
		}
		if n == 0 {
			return fmt.Errorf("no JSON line in %s", path)
		}
		return nil
	}
	inst, err := load(path)
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}
