package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/analyzers"
)

// copyGoodWithIR copies the clean lint fixture into a temp package and
// gives it the sample IR, which disagrees with the source (GAIA507 and
// more), with an mtime older than the module.
func copyGoodWithIR(t *testing.T) (string, string, string) {
	t.Helper()
	src, err := os.ReadFile("../../fixtures/lint/good/src/sterile_neutrino/__init__.py")
	if err != nil {
		t.Fatal(err)
	}
	irJSON, err := os.ReadFile("../../fixtures/ir/ir_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := newPackage(t, "")
	write(t, filepath.Join(dir, "pyproject.toml"), "[project]\nname = \"sterile-neutrino-gaia\"\n")
	mod := filepath.Join(dir, "src", "sterile_neutrino")
	if err := os.Rename(filepath.Join(dir, "src", "idea"), mod); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(mod, "__init__.py")
	write(t, file, string(src))
	if err := os.MkdirAll(filepath.Join(dir, ".gaia"), 0o755); err != nil {
		t.Fatal(err)
	}
	irPath := filepath.Join(dir, ".gaia", "ir.json")
	write(t, irPath, string(irJSON))
	// The compile happened after the last edit of the module.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	return dir, file, string(src)
}

func hasCode(p published, code string) bool {
	for _, d := range p.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// The IR checks run on open and save when .gaia/ir.json exists; while
// typing their findings stay, with a GAIA213 note that they come from a
// compile older than the buffer. A suppression of an IR finding typed in
// the buffer is not called unused while the IR checks are not running.
// A lint with the IR checks is one run of the engine, which also returns
// the findings without them: only the typing runs one without them.
func TestIRChecksOnOpenAndSave(t *testing.T) {
	var (
		mu   sync.Mutex
		runs []analyzers.Options
	)
	lint = func(paths []string, o analyzers.Options) (*analyzers.Result, error) {
		mu.Lock()
		runs = append(runs, o)
		mu.Unlock()
		return analyzers.Lint(paths, o)
	}
	t.Cleanup(func() { lint = analyzers.Lint })
	dir, file, src := copyGoodWithIR(t)
	c := start(t, Options{}, nil)
	c.initialize(dir, map[string]any{})
	uri := fileURI(file)
	from := 0
	didOpen(c, file, src, 1)
	p := c.diagnostics(&from, uri, version(1))
	if !hasCode(p, "GAIA507") || hasCode(p, "GAIA213") {
		t.Fatalf("on open: %v, want the IR's GAIA507 and no stale note", p.codes())
	}
	var irLine int
	for _, d := range p.Diagnostics {
		if d.Code == "GAIA507" {
			irLine = d.Range.Start.Line
			break
		}
	}

	// Type a suppression of that IR finding above its line.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(irLine, 0), "end": pos(irLine, 0)},
			"text": "# nullius: ignore[GAIA507] reviewed: the criterion is connected in the next revision\n"}},
	})
	p = c.diagnostics(&from, uri, version(2))
	if !hasCode(p, "GAIA213") || hasCode(p, "NULLIUS002") {
		t.Errorf("while typing: %v, want the stale-IR note and no NULLIUS002", p.codes())
	}
	for _, d := range p.Diagnostics {
		if d.Code == "GAIA213" && (d.Severity != 3 || !strings.Contains(d.Message, "older than this buffer")) {
			t.Errorf("stale note %+v", d)
		}
	}

	// Save: the file on disk now holds the suppression; the IR checks run
	// again and the suppression silences the IR finding it names.
	text := strings.SplitAfter(src, "\n")
	text[irLine] = "# nullius: ignore[GAIA507] reviewed: the criterion is connected in the next revision\n" + text[irLine]
	write(t, file, strings.Join(text, ""))
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	p = c.diagnostics(&from, uri, func(p published) bool {
		return p.Version != nil && *p.Version == 2 && !strings.Contains(string(p.raw), "matched no diagnostic")
	})
	for _, d := range p.Diagnostics {
		if d.Code == "GAIA507" && d.Range.Start.Line == irLine+1 {
			t.Errorf("the suppressed IR finding is still shown: %+v", d)
		}
	}
	c.shutdownExit()
	mu.Lock()
	defer mu.Unlock()
	noIR := 0
	for _, o := range runs {
		if o.NoIR {
			noIR++
		} else if !o.AlsoNoIR {
			t.Errorf("a lint with the IR checks ran the engine without AlsoNoIR: a second run for the source findings")
		}
	}
	if noIR > 1 || len(runs) < 3 {
		t.Errorf("%d runs, %d without the IR checks, for an open, one change and a save: want one without them, for the change, at most", len(runs), noIR)
	}
}

// didChangeWatchedFiles: a new nullius.toml that ignores GAIA011 hides it
// from an open buffer, exactly as nullius lint would.
func TestWatchedConfigChange(t *testing.T) {
	dir, file := newPackage(t, offGrade)
	c := start(t, Options{}, nil)
	c.initialize(dir, map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}})
	uri := fileURI(file)
	from := 0
	didOpen(c, file, offGrade, 1)
	p := c.diagnostics(&from, uri, version(1))
	if !hasCode(p, "GAIA011") {
		t.Fatalf("on open: %v", p.codes())
	}
	reg := 0
	m := c.wait(&reg, "client/registerCapability", func(m message) bool { return m.Method == "client/registerCapability" })
	for _, g := range []string{"**/pyproject.toml", "**/nullius.toml", "**/.gaia/ir.json"} {
		if !strings.Contains(string(m.Params), g) {
			t.Errorf("registration %s does not watch %s", m.Params, g)
		}
	}
	cfg := filepath.Join(dir, "nullius.toml")
	write(t, cfg, "ignore = [\"GAIA011\"]\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": fileURI(cfg), "type": 1}}})
	p = c.diagnostics(&from, uri, func(p published) bool { return !hasCode(p, "GAIA011") })
	if len(p.Diagnostics) != 0 {
		t.Errorf("with the config: %s", p.raw)
	}
	c.shutdownExit()
}

// The workspace pass at start publishes every package's findings without
// any file being opened.
func TestWorkspacePass(t *testing.T) {
	dir, file := newPackage(t, offGrade)
	c := start(t, Options{}, nil)
	c.initialize(filepath.Dir(dir), map[string]any{})
	from := 0
	p := c.diagnostics(&from, fileURI(file), func(published) bool { return true })
	if !hasCode(p, "GAIA011") || p.Version != nil {
		t.Errorf("workspace pass: %s", p.raw)
	}
	c.shutdownExit()
}

// The analyzers' suggested fixes are quick fixes; the suppression comes
// as a snippet (cursor at the reason) to clients that take snippet edits,
// and as a command that applies the edit then shows the document with the
// cursor at the reason to clients that can apply edits and show documents.
func TestCodeActions(t *testing.T) {
	src := "from gaia.engine.lang import claim, equal\n\na = claim(\"A.\")\nb = claim(\"B.\")\nc = claim(\"C.\")\nequal(a, b, c, rationale=\"Three names, one thing. anchor: glossary\")\n"
	dir, file := newPackage(t, src)
	for _, tc := range []struct {
		name string
		caps map[string]any
		want []string
	}{
		{"plain", map[string]any{}, []string{`"title":"Expand into pairwise equal() calls"`, `"isPreferred":true`,
			`"newText":"equal(a, b, rationale=\"Three names, one thing. anchor: glossary\")\nequal(a, c, `, `"title":"Suppress GAIA509 with a reason"`, `"newText":"  # nullius: ignore[GAIA509] "`}},
		{"snippets", map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"snippetEditSupport": true, "documentChanges": true}}},
			[]string{`"snippet":{"kind":"snippet","value":"  # nullius: ignore[GAIA509] $0"}`, `"version":1`}},
		{"command", map[string]any{"workspace": map[string]any{"applyEdit": true}, "window": map[string]any{"showDocument": map[string]any{"support": true}}},
			[]string{`"command":"nullius.suppressWithReason"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t, Options{}, nil)
			c.initialize(dir, tc.caps)
			from := 0
			didOpen(c, file, src, 1)
			c.diagnostics(&from, fileURI(file), version(1))
			raw, err := c.call("textDocument/codeAction", map[string]any{
				"textDocument": map[string]any{"uri": fileURI(file)},
				"range":        map[string]any{"start": pos(5, 3), "end": pos(5, 3)},
				"context":      map[string]any{"diagnostics": []any{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(raw), w) {
					t.Errorf("actions %s lack %s", raw, w)
				}
			}
			if tc.name == "command" {
				var actions []struct {
					Command struct {
						Command   string
						Arguments []json.RawMessage
					}
				}
				json.Unmarshal(raw, &actions)
				var cmd *struct {
					Command   string
					Arguments []json.RawMessage
				}
				for i := range actions {
					if actions[i].Command.Command != "" {
						cmd = &actions[i].Command
					}
				}
				if cmd == nil {
					t.Fatal("no command action")
				}
				c.must("workspace/executeCommand", map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}, nil)
				all := 0
				apply := c.wait(&all, "workspace/applyEdit", func(m message) bool { return m.Method == "workspace/applyEdit" })
				show := c.wait(&all, "window/showDocument", func(m message) bool { return m.Method == "window/showDocument" })
				line := "equal(a, b, c, rationale=\"Three names, one thing. anchor: glossary\")  # nullius: ignore[GAIA509] "
				if !strings.Contains(string(apply.Params), `ignore[GAIA509] "`) ||
					!strings.Contains(string(show.Params), `"selection":{"start":{"line":5,"character":`+itoa(len(line))+`}`) {
					t.Errorf("applyEdit %s\nshowDocument %s", apply.Params, show.Params)
				}
			}
			c.shutdownExit()
		})
	}
}

// A panic in one request answers that request with an error and the
// server goes on; a cancelled request is answered RequestCancelled.
func TestPanicAndCancel(t *testing.T) {
	dir, file := newPackage(t, offGrade)
	blocked := make(chan struct{})
	var hovers atomic.Int32
	hook := func(ctx context.Context, method string) {
		switch method {
		case "textDocument/hover":
			if hovers.Add(1) == 1 {
				panic("boom")
			}
		case "textDocument/codeAction":
			close(blocked)
			<-ctx.Done()
		}
	}
	c := start(t, Options{}, hook)
	c.initialize(dir, map[string]any{})
	from := 0
	didOpen(c, file, offGrade, 1)
	c.diagnostics(&from, fileURI(file), version(1))
	hover := map[string]any{"textDocument": map[string]any{"uri": fileURI(file)}, "position": pos(4, 120)}
	_, err := c.call("textDocument/hover", hover)
	if err == nil || err.Code != -32603 || !strings.Contains(err.Message, "boom") {
		t.Errorf("hover with a panic: %v", err)
	}
	if raw, err := c.call("textDocument/hover", hover); err != nil || !strings.Contains(string(raw), "GAIA011") {
		t.Errorf("the next hover: %s %v", raw, err)
	}
	// Cancel a request that blocks until it is cancelled.
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "textDocument/codeAction", "params": map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file)}, "range": map[string]any{"start": pos(0, 0), "end": pos(0, 0)}, "context": map[string]any{"diagnostics": []any{}},
	}})
	<-blocked
	c.notify("$/cancelRequest", map[string]any{"id": id})
	all := 0
	m := c.wait(&all, "the cancelled response", func(m message) bool { return string(m.ID) == itoa(id) && m.Method == "" })
	if m.Error == nil || m.Error.Code != -32800 {
		t.Errorf("cancelled request answered %s %v", m.Result, m.Error)
	}
	// Still alive: a change is linted and published.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": fileURI(file), "version": 2},
		"contentChanges": []any{map[string]any{"text": "x = 1\n"}}})
	if p := c.diagnostics(&from, fileURI(file), version(2)); len(p.Diagnostics) != 0 {
		t.Errorf("after the panic: %s", p.raw)
	}
	c.shutdownExit()
}

// The lifecycle: requests before initialize and after shutdown are
// refused with the codes LSP names; exit without shutdown ends the server
// with an error (status 1 for the CLI).
func TestLifecycle(t *testing.T) {
	dir, _ := newPackage(t, offGrade)
	c := start(t, Options{}, nil)
	if _, err := c.call("textDocument/hover", map[string]any{}); err == nil || err.Code != -32002 {
		t.Errorf("before initialize: %v", err)
	}
	c.initialize(dir, map[string]any{})
	c.must("shutdown", nil, nil)
	if _, err := c.call("textDocument/hover", map[string]any{}); err == nil || err.Code != -32600 {
		t.Errorf("after shutdown: %v", err)
	}
	c.notify("exit", nil)
	if err := <-c.served; err != nil {
		t.Errorf("exit after shutdown: %v", err)
	}
	c.served <- nil

	c = start(t, Options{}, nil)
	c.initialize(dir, map[string]any{})
	c.notify("exit", nil)
	if err := <-c.served; err != ErrExitWithoutShutdown {
		t.Errorf("exit without shutdown: %v", err)
	}
	c.served <- nil
}
