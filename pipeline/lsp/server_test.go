package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// offGrade has an off-grade infer whose line holds characters that are
// wider in UTF-8 than in UTF-16 (é) and outside the BMP (🙂), so a
// server that confuses encodings reports the wrong column.
const offGrade = `from gaia.engine.lang import claim, infer

h = claim("H.")
e = claim("E.")
infer(e, hypothesis=h, rationale="reader_reasoning: the 🙂 survey é supports it well here. anchor: survey", p_e_given_h=0.8, p_e_given_not_h=0.1)
`

// newPackage writes a Gaia package whose module holds src and returns the
// package directory and the module path.
func newPackage(t testing.TB, src string) (string, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(dir, "idea-gaia")
	mod := filepath.Join(dir, "src", "idea")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"idea-gaia\"\n")
	file := filepath.Join(mod, "__init__.py")
	write(t, file, src)
	return dir, file
}

func write(t testing.TB, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// utf16Col is the UTF-16 column of the first occurrence of sub on its line.
func utf16Col(src, sub string) (line, col int) {
	i := strings.Index(src, sub)
	start := strings.LastIndexByte(src[:i], '\n') + 1
	return strings.Count(src[:i], "\n"), len(utf16.Encode([]rune(src[start:i])))
}

func didOpen(c *client, file, text string, v int) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(file), "languageId": "python", "version": v, "text": text,
	}})
}

func pos(line, col int) map[string]any { return map[string]any{"line": line, "character": col} }

// The whole session of the issue: initialize, open an off-grade infer,
// GAIA011 at the right range (UTF-16), hover, code actions, a change that
// fixes it, empty diagnostics, hover on the grade, shutdown and exit.
func TestSession(t *testing.T) {
	dir, file := newPackage(t, "from gaia.engine.lang import claim\n")
	c := start(t, Options{}, nil)
	res := c.initialize(dir, map[string]any{})
	capsJSON, _ := json.Marshal(res["capabilities"])
	for _, want := range []string{`"positionEncoding":"utf-16"`, `"change":2`, `"hoverProvider":true`, `"quickfix"`, `"openClose":true`} {
		if !strings.Contains(string(capsJSON), want) {
			t.Errorf("capabilities %s lack %s", capsJSON, want)
		}
	}
	for _, never := range []string{"completionProvider", "definitionProvider", "documentFormattingProvider"} {
		if strings.Contains(string(capsJSON), never) {
			t.Errorf("capabilities claim %s", never)
		}
	}

	uri := fileURI(file)
	from := 0
	didOpen(c, file, offGrade, 1)
	p := c.diagnostics(&from, uri, version(1))
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "GAIA011" {
		t.Fatalf("diagnostics %s, want one GAIA011", p.raw)
	}
	d := p.Diagnostics[0]
	l, sc := utf16Col(offGrade, "0.8, p_e_given_not_h")
	_, ec := utf16Col(offGrade, "0.1)")
	ec += len("0.1")
	if want := (lspRange{lspPos{l, sc}, lspPos{l, ec}}); d.Range != want {
		t.Errorf("GAIA011 range %+v, want %+v (UTF-16)", d.Range, want)
	}
	if d.Severity != 1 || d.Source != "nullius" || !strings.HasSuffix(d.CodeDescription.Href, "docs/rules.md#gaia011-infer-off-grade-pair") ||
		!strings.Contains(d.Message, "off-grade pair (0.8, 0.1)") {
		t.Errorf("GAIA011 %+v", d)
	}

	// Hover on the literal: the rule and the grade.
	var hov struct {
		Contents struct{ Kind, Value string }
		Range    lspRange
	}
	c.must("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(l, sc+1)}, &hov)
	for _, want := range []string{"**GAIA011** infer-off-grade-pair (error)", "[GAIA011 in docs/rules.md]", "**off-grade pair** (0.8, 0.1)"} {
		if !strings.Contains(hov.Contents.Value, want) {
			t.Errorf("hover %q lacks %q", hov.Contents.Value, want)
		}
	}

	// Code actions: suppress with a reason (GAIA011 has no automatic fix).
	var actions []struct {
		Title string
		Kind  string
		Edit  json.RawMessage
	}
	c.must("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": pos(l, sc), "end": pos(l, sc)},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if len(actions) != 1 || actions[0].Title != "Suppress GAIA011 with a reason" || actions[0].Kind != "quickfix" ||
		!strings.Contains(string(actions[0].Edit), `"newText":"  # nullius: ignore[GAIA011] "`) {
		t.Errorf("code actions %+v", actions)
	}

	// Fix the grade with two incremental changes in one notification.
	_, ec2 := utf16Col(offGrade, "0.1)")
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{
			map[string]any{"range": map[string]any{"start": pos(l, ec2), "end": pos(l, ec2+3)}, "text": "0.09"},
			map[string]any{"range": map[string]any{"start": pos(l, sc), "end": pos(l, sc+3)}, "text": "0.90"},
		},
	})
	p = c.diagnostics(&from, uri, version(2))
	if len(p.Diagnostics) != 0 {
		t.Errorf("after the fix: %s", p.raw)
	}
	c.must("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(l, sc+2)}, &hov)
	if !strings.Contains(hov.Contents.Value, "**substantial ×10**: 0.90/0.09") || hov.Range != (lspRange{lspPos{l, sc}, lspPos{l, sc + 4}}) {
		t.Errorf("hover on the fixed grade: %+v", hov)
	}
	c.shutdownExit()
}

// A client that offers UTF-8 gets UTF-8 positions: byte columns.
func TestUTF8Positions(t *testing.T) {
	dir, file := newPackage(t, offGrade)
	c := start(t, Options{}, nil)
	res := c.initialize(dir, map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-16", "utf-8"}}})
	if caps, _ := res["capabilities"].(map[string]any); caps["positionEncoding"] != "utf-8" {
		t.Fatalf("positionEncoding %v, want utf-8", caps["positionEncoding"])
	}
	from := 0
	didOpen(c, file, offGrade, 7)
	p := c.diagnostics(&from, fileURI(file), version(7))
	i := strings.Index(offGrade, "0.8,")
	col := i - (strings.LastIndexByte(offGrade[:i], '\n') + 1)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Character != col {
		t.Errorf("UTF-8 column: %s, want %d", p.raw, col)
	}
	c.shutdownExit()
}

// A buffer that does not parse gets GAIA000 at the error, no crash, and
// no suppression action (a file that does not parse cannot be edited
// safely).
func TestBufferThatDoesNotParse(t *testing.T) {
	dir, file := newPackage(t, "x = 1\n")
	c := start(t, Options{}, nil)
	c.initialize(dir, map[string]any{})
	broken := "from gaia.engine.lang import infer\n\ninfer(e, p_e_given_h=0.8\n"
	from := 0
	didOpen(c, file, broken, 1)
	p := c.diagnostics(&from, fileURI(file), version(1))
	if strings.Join(p.codes(), ",") != "GAIA000" {
		t.Fatalf("diagnostics %s, want GAIA000", p.raw)
	}
	_, rerr := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(file)}, "position": pos(2, 10)})
	if rerr != nil {
		t.Errorf("hover: %v", rerr)
	}
	raw, rerr := c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file)}, "range": map[string]any{"start": pos(0, 0), "end": pos(3, 0)},
		"context": map[string]any{"diagnostics": []any{}},
	})
	if rerr != nil || strings.Contains(string(raw), "Suppress") {
		t.Errorf("code actions on a broken buffer: %s %v", raw, rerr)
	}
	// Typing the closing parenthesis brings the rules back.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(file), "version": 2},
		"contentChanges": []any{map[string]any{"text": broken[:len(broken)-1] + ")\n"}},
	})
	p = c.diagnostics(&from, fileURI(file), version(2))
	if codes := strings.Join(p.codes(), ","); strings.Contains(codes, "GAIA000") || !strings.Contains(codes, "GAIA010") {
		t.Errorf("after the fix: %s", p.raw)
	}
	c.shutdownExit()
}

// A Python file outside any Gaia package gets no diagnostics and no
// hover or actions; the session goes on.
func TestFileOutsideAnyPackage(t *testing.T) {
	dir, file := newPackage(t, offGrade)
	outside := filepath.Join(filepath.Dir(dir), "scratch.py")
	write(t, outside, offGrade)
	c := start(t, Options{}, nil)
	c.initialize(dir, map[string]any{})
	didOpen(c, outside, offGrade, 1)
	raw, err := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(outside)}, "position": pos(4, 120)})
	if err != nil || string(raw) != "null" {
		t.Errorf("hover outside a package: %s %v", raw, err)
	}
	from := 0
	didOpen(c, file, offGrade, 1)
	c.diagnostics(&from, fileURI(file), version(1))
	c.shutdownExit()
	for _, m := range c.msgs {
		if m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), "scratch.py") {
			t.Errorf("diagnostics published for a file outside any package: %s", m.Params)
		}
	}
}

// A 5,000-line module: every finding at its line, and a change near the
// end re-linted.
func TestLargeModule(t *testing.T) {
	var b strings.Builder
	b.WriteString("from gaia.engine.lang import claim, infer\n\nh = claim(\"H.\")\n")
	for n := 3; n < 5000; n++ {
		if n%100 == 0 {
			b.WriteString("infer(h, hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale=\"reader_reasoning: five words of reasoning here. anchor: survey report\")\n")
		} else {
			b.WriteString("e" + strconv.Itoa(n) + " = claim(\"Evidence " + strconv.Itoa(n) + ".\")\n")
		}
	}
	src := b.String()
	lines := strings.Count(src, "\n")
	dir, file := newPackage(t, src)
	c := start(t, Options{}, nil)
	c.initialize(dir, map[string]any{})
	from := 0
	didOpen(c, file, src, 1)
	p := c.diagnostics(&from, fileURI(file), version(1))
	want := 0
	for i, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "infer(") {
			want++
			found := false
			for _, d := range p.Diagnostics {
				found = found || (d.Code == "GAIA011" && d.Range.Start.Line == i)
			}
			if !found {
				t.Errorf("no GAIA011 at line %d", i)
			}
		}
	}
	if len(p.Diagnostics) != want || lines != 5000 {
		t.Errorf("%d diagnostics for %d off-grade infers in %d lines", len(p.Diagnostics), want, lines)
	}
	// Append one more off-grade infer at the end.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file), "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(lines, 0), "end": pos(lines, 0)},
			"text": "infer(h, hypothesis=h, p_e_given_h=0.7, p_e_given_not_h=0.1, rationale=\"reader_reasoning: five words of reasoning here. anchor: survey report\")\n"}},
	})
	p = c.diagnostics(&from, fileURI(file), version(2))
	if n := len(p.Diagnostics); n != want+1 || p.Diagnostics[n-1].Range.Start.Line != lines {
		t.Errorf("after appending: %d diagnostics, last %+v", n, p.Diagnostics[n-1])
	}
	c.shutdownExit()
}

func itoa(n int) string { return strconv.Itoa(n) }
