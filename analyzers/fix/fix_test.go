package fix

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
)

func TestApply(t *testing.T) {
	src := []byte("abcdef")
	for _, tc := range []struct {
		edits []diag.Edit
		want  string
		err   bool
	}{
		{nil, "abcdef", false},
		{[]diag.Edit{{Start: 1, End: 3, NewText: "X"}}, "aXdef", false},
		{[]diag.Edit{{Start: 4, End: 4, NewText: "+"}, {Start: 0, End: 1}}, "bcd+ef", false},
		{[]diag.Edit{{Start: 1, End: 3, NewText: "X"}, {Start: 1, End: 3, NewText: "X"}}, "aXdef", false}, // duplicate counts once
		{[]diag.Edit{{Start: 1, End: 3}, {Start: 2, End: 4}}, "", true},                                   // overlap
		{[]diag.Edit{{Start: 2, End: 2, NewText: "a"}, {Start: 2, End: 2, NewText: "b"}}, "", true},       // two insertions at one offset
		{[]diag.Edit{{Start: 5, End: 7}}, "", true},                                                       // past the end
		{[]diag.Edit{{Start: 3, End: 2}}, "", true},                                                       // reversed
	} {
		got, err := Apply(src, tc.edits)
		if (err != nil) != tc.err || (err == nil && string(got) != tc.want) {
			t.Errorf("Apply(%v) = %q, %v; want %q (error %v)", tc.edits, got, err, tc.want, tc.err)
		}
	}
	if _, err := Apply(src, []diag.Edit{{Start: 1, End: 3}, {Start: 2, End: 4}}); !errors.Is(err, ErrOverlap) {
		t.Errorf("overlap error %v is not ErrOverlap", err)
	}
}

const module = `from gaia.engine.lang import claim, exclusive, infer, observe

h = claim("H.")
a = claim("A.")
b = claim("B.")
c = claim("C.")
infer("E.", hypothesis=h, p_e_given_h=0.9, p_e_given_not_h=0.09, rationale="reader_reasoning: r. anchor: x")
observe(a, rationale=f"evidence_family: f; correlation_model: single; anchor: y")
exclusive(a, b, c, rationale="r. anchor: z")
`

// edit replaces the first occurrence of old in module with new.
func edit(old, new string) []diag.Edit {
	i := strings.Index(module, old)
	if i < 0 {
		panic(old)
	}
	return []diag.Edit{{Start: i, End: i + len(old), NewText: new}}
}

func TestUnsafe(t *testing.T) {
	src := []byte(module)
	for _, tc := range []struct {
		name  string
		edits []diag.Edit
		want  string // substring of the reason; "" for safe
	}{
		{"f-string to plain string", edit(`f"evidence_family: f; correlation_model: single; anchor: y"`, `"evidence_family: f; correlation_model: single; anchor: y"`), ""},
		{"pairwise expansion", edit(`exclusive(a, b, c, rationale="r. anchor: z")`, "exclusive(a, b, rationale=\"r. anchor: z\")\nexclusive(a, c, rationale=\"r. anchor: z\")\nexclusive(b, c, rationale=\"r. anchor: z\")"), ""},
		{"comment removed", edit("\n", "  # a comment\n"), ""},
		{"probability changed", edit("p_e_given_h=0.9", "p_e_given_h=0.90"), "number literals"},
		{"probability added", edit(`rationale="reader_reasoning`, `p=0.5, rationale="reader_reasoning`), "number literals"},
		{"evidence deleted", edit(`observe(a, rationale=f"evidence_family: f; correlation_model: single; anchor: y")`, ""), "drop"},
		{"argument dropped", edit(`exclusive(a, b, c, `, `exclusive(a, b, `), "drop"},
		{"note rewritten", edit(`rationale="r. anchor: z"`, `rationale="other. anchor: z"`), "drop"},
		{"breaks the syntax", edit(`claim("H.")`, `claim("H."`), "would not parse"},
		{"overlapping", append(edit("h = ", "x = "), edit("h = claim", "")...), "overlap"},
	} {
		got := Unsafe("m.py", src, tc.edits)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: Unsafe = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := Unsafe("m.py", []byte("def (:\n"), nil); got == "" {
		t.Error("a file that does not parse cannot be fixed safely")
	}
}

func TestPlan(t *testing.T) {
	src := []byte(module)
	fd := func(path, code string, edits []diag.Edit) diag.Diagnostic {
		return diag.Diagnostic{Path: path, Code: code, Line: 1, Fixes: []diag.Fix{{Message: "fix", Edits: edits}}}
	}
	fstring := edit(`f"evidence`, `"evidence`)
	pairwise := edit(`exclusive(a, b, c, rationale="r. anchor: z")`, "exclusive(a, b, rationale=\"r. anchor: z\")\nexclusive(a, c, rationale=\"r. anchor: z\")\nexclusive(b, c, rationale=\"r. anchor: z\")")
	suppressed := fd("a.py", "GAIA031", fstring)
	suppressed.Suppressed = true
	ds := []diag.Diagnostic{
		fd("b.py", "GAIA031", fstring), fd("b.py", "GAIA509", pairwise), // two fixes, both applied
		fd("a.py", "GAIA031", fstring), fd("a.py", "GAIA031", fstring), // the same fix twice counts once
		suppressed,
		fd("c.py", "GAIA031", fstring), fd("c.py", "GAIA999", edit(`f"evidence_family`, `"evidence_family`)), // overlap: the file is skipped
		fd("d.py", "GAIA999", edit("0.09", "0.1")), // unsafe: skipped
		{Path: "e.py", Code: "GAIA011"},            // no fix
	}
	read := func(string) ([]byte, error) { return src, nil }
	files, err := Plan(ds, read)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path+":"+strings.Repeat("+", f.Fixes)+":"+f.Skipped)
	}
	want := []string{
		"a.py:++:",
		"b.py:++:",
		"c.py::the fixes for GAIA031 at line 1 and GAIA999 at line 1 overlap",
		"d.py::the fix for GAIA999 at line 1 is not safe",
	}
	if len(got) != len(want) {
		t.Fatalf("plan = %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("plan[%d] = %q, want prefix %q", i, got[i], want[i])
		}
	}
	if b := files[1]; !strings.Contains(string(b.Fixed), "exclusive(b, c,") || strings.Contains(string(b.Fixed), `f"`) {
		t.Errorf("b.py fixed = %s", b.Fixed)
	}
	if files[2].Fixed != nil || files[3].Edits != nil {
		t.Error("a skipped file carries edits")
	}
}

func TestUnified(t *testing.T) {
	src := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n"
	at := func(line string) int { return strings.Index(src, line+"\n") }
	for _, tc := range []struct {
		name  string
		src   string
		edits []diag.Edit
		want  string
	}{
		{"one line replaced", src, []diag.Edit{{Start: at("5"), End: at("5") + 1, NewText: "five"}},
			"@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", src, []diag.Edit{{Start: at("2"), End: at("3"), NewText: ""}, {Start: at("14"), End: at("14"), NewText: "13.5\n"}},
			"@@ -1,5 +1,4 @@\n 1\n-2\n 3\n 4\n 5\n@@ -11,6 +10,7 @@\n 11\n 12\n 13\n+13.5\n 14\n 15\n 16\n"},
		{"close changes share a hunk", src, []diag.Edit{{Start: at("4"), End: at("4") + 1, NewText: "x"}, {Start: at("9"), End: at("9") + 1, NewText: "y"}},
			"@@ -1,12 +1,12 @@\n 1\n 2\n 3\n-4\n+x\n 5\n 6\n 7\n 8\n-9\n+y\n 10\n 11\n 12\n"},
		{"one line split in three", "a(1, 2, 3)\n", []diag.Edit{{Start: 0, End: 10, NewText: "a(1, 2)\na(1, 3)\na(2, 3)"}},
			"@@ -1 +1,3 @@\n-a(1, 2, 3)\n+a(1, 2)\n+a(1, 3)\n+a(2, 3)\n"},
		{"no newline at end", "x = 1\ny = 2", []diag.Edit{{Start: 10, End: 11, NewText: "3"}},
			"@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n\\ No newline at end of file\n+y = 3\n\\ No newline at end of file\n"},
		{"insertion at the end", "x\n", []diag.Edit{{Start: 2, End: 2, NewText: "y\n"}},
			"@@ -1 +1,2 @@\n x\n+y\n"},
	} {
		got, err := Unified("m.py", []byte(tc.src), tc.edits)
		want := "--- m.py\n+++ m.py\n" + tc.want
		if err != nil || got != want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s (err %v)", tc.name, got, want, err)
			continue
		}
		// Where GNU diff is installed, it must agree.
		if _, err := exec.LookPath("diff"); err == nil {
			fixed, _ := Apply([]byte(tc.src), tc.edits)
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			os.WriteFile(a, []byte(tc.src), 0o644)
			os.WriteFile(b, fixed, 0o644)
			out, _ := exec.Command("diff", "-u", a, b).Output()
			gnu := string(out)
			gnu = gnu[strings.Index(gnu, "@@"):]
			if gnu != tc.want {
				t.Errorf("%s: GNU diff says\n%s", tc.name, gnu)
			}
		}
	}
	if got, err := Unified("m.py", []byte(src), nil); got != "" || err != nil {
		t.Errorf("no edits: %q %v", got, err)
	}
}

func TestDropUnsafe(t *testing.T) {
	safe := diag.Fix{Message: "plain literal", Edits: edit(`f"evidence`, `"evidence`)}
	unsafe := diag.Fix{Message: "change a grade", Edits: edit("0.09", "0.1")}
	ds := []diag.Diagnostic{
		{Path: "m.py", Code: "GAIA031", Fixes: []diag.Fix{unsafe, safe}},
		{Path: "gone.py", Code: "GAIA031", Fixes: []diag.Fix{safe}},
		{Path: "m.py", Code: "GAIA011"},
	}
	read := func(p string) ([]byte, error) {
		if p == "m.py" {
			return []byte(module), nil
		}
		return nil, os.ErrNotExist
	}
	got := DropUnsafe(ds, read)
	if len(got[0].Fixes) != 1 || got[0].Fixes[0].Message != "plain literal" || got[1].Fixes != nil || got[2].Fixes != nil {
		t.Errorf("DropUnsafe = %+v", got)
	}
	if len(ds[0].Fixes) != 2 {
		t.Error("DropUnsafe changed its input")
	}
}
