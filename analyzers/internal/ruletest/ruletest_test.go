package ruletest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
)

func TestParseWant(t *testing.T) {
	tests := []struct {
		text  string
		line  int
		pats  []string
		isErr bool
	}{
		{`# want "GAIA011"`, 5, []string{"GAIA011"}, false},
		{`# want "GAIA011.*off-grade" "GAIA032"`, 5, []string{"GAIA011.*off-grade", "GAIA032"}, false},
		{`# want +1 "GAIA032"`, 6, []string{"GAIA032"}, false},
		{`# want -2 "GAIA003"`, 3, []string{"GAIA003"}, false},
		{"# want `GAIA0\\d+`", 5, []string{`GAIA0\d+`}, false},
		{`# nullius: ignore[GAIA011] why  # want "NULLIUS002"`, 5, []string{"NULLIUS002"}, false},
		{`# wanted: not an expectation`, 5, nil, false},
		{`# a plain comment`, 5, nil, false},
		{`# want`, 5, nil, true},
		{`# want GAIA011`, 5, nil, true},
		{`# want "("`, 5, nil, true},
		{`# want +x "A"`, 5, nil, true},
	}
	for _, tt := range tests {
		exps, err := parseWant("f.py", 5, tt.text)
		if (err != nil) != tt.isErr {
			t.Errorf("parseWant(%q) error = %v", tt.text, err)
			continue
		}
		if len(exps) != len(tt.pats) {
			t.Errorf("parseWant(%q) = %d patterns, want %d", tt.text, len(exps), len(tt.pats))
			continue
		}
		for i, e := range exps {
			if e.re.String() != tt.pats[i] || e.line != tt.line {
				t.Errorf("parseWant(%q)[%d] = %q@%d, want %q@%d", tt.text, i, e.re, e.line, tt.pats[i], tt.line)
			}
		}
	}
}

func TestCheckComplaints(t *testing.T) {
	exps, _ := parseWant("a.py", 3, `# want "GAIA011" "GAIA011"`)
	more, _ := parseWant("a.py", 9, `# want "GAIA032"`)
	exps = append(exps, more...)
	ds := []diag.Diagnostic{
		{Path: "a.py", Line: 3, Code: "GAIA011", Message: "off-grade"},
		{Path: "a.py", Line: 4, Code: "GAIA030", Message: "infer has no rationale"},
		{Path: "a.py", Line: 5, Code: "GAIA011", Message: "x", Suppressed: true},
	}
	got := check(ds, exps)
	want := []string{
		"a.py:4: unexpected diagnostic: GAIA030 infer has no rationale",
		"a.py:5: unexpected diagnostic: GAIA011 x [suppressed]",
		`a.py:3: no diagnostic was reported matching "GAIA011"`,
		`a.py:9: no diagnostic was reported matching "GAIA032"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("complaints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Error(args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range args {
		r.msgs = append(r.msgs, a.(string))
	}
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.msgs = append(r.msgs, "FATAL "+format)
	r.mu.Unlock()
	runtime.Goexit()
}

// runRecorded runs Run in its own goroutine so Fatalf can stop it.
func runRecorded(t *testing.T, dir string) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(r, dir)
	}()
	<-done
	return r.msgs
}

func TestRunFailsOnMismatchAndEmptySets(t *testing.T) {
	dir := t.TempDir()
	mod := filepath.Join(dir, "src", "m")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"m-gaia\"\n")
	write(filepath.Join(mod, "__init__.py"), "from gaia.engine.lang import observe\nobserve(1)  # want \"GAIA011\"\ns = \"# want 'GAIA999'\"\n")
	msgs := runRecorded(t, dir)
	joined := strings.Join(msgs, "\n")
	if len(msgs) != 2 || !strings.Contains(joined, ":2: unexpected diagnostic: GAIA030 observe has no rationale") ||
		!strings.Contains(joined, `:2: no diagnostic was reported matching "GAIA011"`) {
		t.Errorf("complaints = %q", msgs)
	}
	empty := t.TempDir()
	if msgs := runRecorded(t, empty); len(msgs) != 1 || !strings.HasPrefix(msgs[0], "FATAL") {
		t.Errorf("empty fixture set: %q", msgs)
	}
}

// TestOwnership: every analyzer owns rules, and every rule a family
// gives to an analyzer-like owner names an analyzer that runs.
func TestOwnership(t *testing.T) {
	names := map[string]bool{}
	for _, a := range analyzers.All() {
		names[a.Name] = true
		if len(diag.Owned(a.Name)) == 0 {
			t.Errorf("analyzer %s owns no rule", a.Name)
		}
	}
	for _, r := range diag.All() {
		if r.Owner == "" {
			t.Errorf("%s has no owner", r.Code)
		}
	}
}

func TestCheckFixes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.ToSlash(filepath.Join(dir, "m.py"))
	if err := os.WriteFile(file, []byte("exclusive(a, b, c)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := []diag.Diagnostic{{Path: file, Fixes: []diag.Fix{{Edits: []diag.Edit{{Start: 0, End: 9, NewText: "equal"}}}}}}
	if p := checkFixes([]string{file}, ds); len(p) != 1 || !strings.Contains(p[0], "no golden file") {
		t.Errorf("missing golden: %q", p)
	}
	if err := os.WriteFile(file+".golden", []byte("exclusive(a, b)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkFixes([]string{file}, ds); len(p) != 1 || !strings.Contains(p[0], "differs") {
		t.Errorf("stale golden: %q", p)
	}
	if p := checkFixes([]string{file}, nil); len(p) != 1 || !strings.Contains(p[0], "no diagnostic offers a fix") {
		t.Errorf("orphan golden: %q", p)
	}
	if err := os.WriteFile(file+".golden", []byte("equal(a, b, c)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := checkFixes([]string{file}, ds); len(p) != 0 {
		t.Errorf("matching golden: %q", p)
	}
}
