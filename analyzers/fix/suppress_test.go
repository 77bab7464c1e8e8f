package fix_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/fix"
	"github.com/nullius-dev/nullius/internal/diag"
)

// Every finding of the lint fixtures that can be suppressed is silenced by
// the directive Suppression inserts once a reason is typed at the cursor,
// and the directive is not itself a finding.
func TestSuppressionSilencesEveryFixtureFinding(t *testing.T) {
	root := "../../fixtures/lint"
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.ToSlash(filepath.Join(root, e.Name()))
		res, err := analyzers.Lint([]string{dir}, analyzers.Options{NoConfig: true})
		if err != nil {
			continue // fixtures that are not packages
		}
		for _, d := range res.Diagnostics {
			if d.Suppressed || !strings.HasSuffix(d.Path, ".py") {
				continue
			}
			src, err := os.ReadFile(d.Path)
			if err != nil {
				t.Fatal(err)
			}
			edit, cursor, err := fix.Suppression(src, d)
			if err != nil {
				if !strings.HasPrefix(d.Code, "NULLIUS") && d.Code != "GAIA000" {
					t.Errorf("%v: no suppression: %v", d, err)
				}
				continue
			}
			fixed, err := fix.Apply(src, []diag.Edit{edit})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(fixed[:cursor]), string(src[:edit.Start])) || cursor > len(fixed) {
				t.Fatalf("%v: cursor %d outside the edit", d, cursor)
			}
			fixed = []byte(string(fixed[:cursor]) + "reason typed by the test" + string(fixed[cursor:]))
			after, err := analyzers.Lint([]string{dir}, analyzers.Options{NoConfig: true, Overlay: map[string][]byte{d.Path: fixed}})
			if err != nil {
				t.Fatal(err)
			}
			if problems := compare(res.Diagnostics, after.Diagnostics, d); problems != "" {
				t.Errorf("%v\nwith\n%s\n%s", d, lineAround(fixed, cursor), problems)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Errorf("only %d findings checked", checked)
	}
}

// compare says what is wrong with after: the finding d must now be
// suppressed, nothing else may become unsuppressed, and no finding about
// suppressions may appear.
func compare(before, after []diag.Diagnostic, d diag.Diagnostic) string {
	count := func(ds []diag.Diagnostic) (open int, sup map[string]int) {
		sup = map[string]int{}
		for _, x := range ds {
			if strings.HasPrefix(x.Code, "NULLIUS") && x.Path == d.Path {
				sup[x.Code+" "+linesRE.ReplaceAllString(x.Message, "lines")]++
			}
			if !x.Suppressed && x.Code == d.Code && x.Path == d.Path {
				open++
			}
		}
		return open, sup
	}
	ob, sb := count(before)
	oa, sa := count(after)
	var out []string
	if oa >= ob {
		out = append(out, fmt.Sprintf("%d unsuppressed %s before, %d after", ob, d.Code, oa))
	}
	for k, n := range sa {
		if n > sb[k] {
			out = append(out, "new: "+k)
		}
	}
	return strings.Join(out, "\n")
}

// linesRE matches the line range in NULLIUS002's message, which moves
// when a directive is inserted above.
var linesRE = regexp.MustCompile(`lines \d+-\d+`)

func lineAround(src []byte, off int) string {
	s := strings.LastIndexByte(string(src[:off]), '\n') + 1
	e := strings.IndexByte(string(src[off:]), '\n')
	if e < 0 {
		e = len(src) - off
	}
	return string(src[s : off+e])
}

func TestSuppressionPlacement(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		line int
		want string // the source after the edit, with | at the cursor
	}{
		{"trailing", "x = 1\ninfer(e, p_e_given_h=0.8)\ny = 2\n", 2,
			"x = 1\ninfer(e, p_e_given_h=0.8)  # nullius: ignore[GAIA011] |\ny = 2\n"},
		{"closing line of a multi-line call", "infer(\n    e,\n    p_e_given_h=0.8,\n)\n", 3,
			"infer(\n    e,\n    p_e_given_h=0.8,\n)  # nullius: ignore[GAIA011] |\n"},
		{"a comment there: own line above the statement", "if x:\n    infer(e, p=0.8)  # keep\n", 2,
			"if x:\n    # nullius: ignore[GAIA011] |\n    infer(e, p=0.8)  # keep\n"},
		{"an existing directive takes the code", "infer(e)  # nullius: ignore[GAIA032] agreed in review\n", 1,
			"infer(e)  # nullius: ignore[GAIA032,GAIA011] agreed in review|\n"},
		{"a directive without reason is left alone", "infer(e)  # nullius: ignore[GAIA032]\n", 1,
			"# nullius: ignore[GAIA011] |\ninfer(e)  # nullius: ignore[GAIA032]\n"},
		{"a line ending in a string", "x = \"\"\"a\nb\"\"\"\n", 1,
			"# nullius: ignore[GAIA011] |\nx = \"\"\"a\nb\"\"\"\n"},
		{"CRLF", "infer(e)\r\nx = 1\r\n", 1,
			"infer(e)  # nullius: ignore[GAIA011] |\r\nx = 1\r\n"},
		{"no newline at the end", "infer(e)", 1,
			"infer(e)  # nullius: ignore[GAIA011] |"},
	} {
		d := diag.Diagnostic{Code: "GAIA011", Path: "m.py", Line: tc.line}
		e, cursor, err := fix.Suppression([]byte(tc.src), d)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got, err := fix.Apply([]byte(tc.src), []diag.Edit{e})
		if err != nil {
			t.Fatal(err)
		}
		if s := string(got[:cursor]) + "|" + string(got[cursor:]); s != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, s, tc.want)
		}
	}
	for _, d := range []diag.Diagnostic{{Code: "NULLIUS002", Path: "m.py", Line: 1}, {Code: "GAIA011", Path: "m.py", Line: 1}} {
		src := "x = 1\n"
		if d.Code == "GAIA011" {
			src = "def (:\n"
		}
		if _, _, err := fix.Suppression([]byte(src), d); err == nil {
			t.Errorf("%s in %q: want no suppression", d.Code, src)
		}
	}
}
