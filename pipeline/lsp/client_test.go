package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test client speaks JSON-RPC over the server's stdio with its own
// framing (Content-Length headers and encoding/json), written here
// independently of the library the server uses, so a framing or encoding
// mistake on either side shows.

// message is any JSON-RPC message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Message) }

// hangGuard bounds every wait so a broken server fails the test instead of
// hanging it; no assertion depends on how long anything takes.
const hangGuard = 2 * time.Minute

type client struct {
	t      testing.TB
	w      io.WriteCloser
	wmu    sync.Mutex // one frame at a time
	mu     sync.Mutex
	cond   *sync.Cond
	msgs   []message // everything received, in order
	err    error     // the reader's end
	nextID int
	// answers to the server's requests, by method
	answer map[string]any
	served chan error // Serve's return value
}

// start runs a server in-process over pipes and returns a client for it.
func start(t testing.TB, opts Options, hook func(ctx context.Context, method string)) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, w: inW, served: make(chan error, 1), answer: map[string]any{
		"client/registerCapability": nil,
		"workspace/applyEdit":       map[string]any{"applied": true},
		"window/showDocument":       map[string]any{"success": true},
	}}
	c.cond = sync.NewCond(&c.mu)
	if opts.Log == nil {
		opts.Log = testLog{t}
	}
	go func() {
		err := serve(context.Background(), inR, outW, opts, hook)
		outW.Close()
		c.served <- err
	}()
	go c.read(bufio.NewReader(outR))
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-c.served:
		case <-time.After(hangGuard):
			t.Error("the server did not stop after its input closed")
		}
	})
	return c
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// read parses frames until the stream ends; server requests are answered.
func (c *client) read(r *bufio.Reader) {
	tp := textproto.NewReader(r)
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			c.stop(err)
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			c.stop(fmt.Errorf("bad Content-Length %q", h.Get("Content-Length")))
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			c.stop(err)
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" {
			c.stop(fmt.Errorf("not a JSON-RPC 2.0 message: %q", body))
			return
		}
		if m.Method != "" && m.ID != nil {
			if res, ok := c.answer[m.Method]; ok {
				c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": res})
			} else {
				c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not in the test client"}})
			}
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

func (c *client) stop(err error) {
	c.mu.Lock()
	c.err = err
	c.cond.Broadcast()
	c.mu.Unlock()
}

func (c *client) send(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// wait returns the first message at index ≥ *from that satisfies ok,
// advancing *from past it.
func (c *client) wait(from *int, what string, ok func(message) bool) message {
	c.t.Helper()
	deadline := time.AfterFunc(hangGuard, func() { c.stop(fmt.Errorf("no %s within the hang guard", what)) })
	defer deadline.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for ; *from < len(c.msgs); *from++ {
			if m := c.msgs[*from]; ok(m) {
				*from++
				return m
			}
		}
		if c.err != nil {
			c.t.Fatalf("waiting for %s: %v", what, c.err)
		}
		c.cond.Wait()
	}
}

// call sends a request and returns its result or error.
func (c *client) call(method string, params any) (json.RawMessage, *rpcError) {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	from := 0
	m := c.wait(&from, "the response to "+method, func(m message) bool { return m.Method == "" && string(m.ID) == strconv.Itoa(id) })
	return m.Result, m.Error
}

// must is call that fails the test on an error response.
func (c *client) must(method string, params any, result any) {
	c.t.Helper()
	raw, err := c.call(method, params)
	if err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	if result != nil {
		if err := json.Unmarshal(raw, result); err != nil {
			c.t.Fatalf("%s result %s: %v", method, raw, err)
		}
	}
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// published is one publishDiagnostics.
type published struct {
	URI         string    `json:"uri"`
	Version     *int      `json:"version"`
	Diagnostics []lspDiag `json:"diagnostics"`
	raw         json.RawMessage
}

type lspDiag struct {
	Range           lspRange `json:"range"`
	Severity        int      `json:"severity"`
	Code            string   `json:"code"`
	Source          string   `json:"source"`
	Message         string   `json:"message"`
	CodeDescription struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
}

type lspRange struct {
	Start lspPos `json:"start"`
	End   lspPos `json:"end"`
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// diagnostics waits (from *from) for a publishDiagnostics of uri that
// satisfies ok.
func (c *client) diagnostics(from *int, uri string, ok func(published) bool) published {
	c.t.Helper()
	var p published
	c.wait(from, "diagnostics for "+uri, func(m message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var q published
		if json.Unmarshal(m.Params, &q) != nil || q.URI != uri {
			return false
		}
		q.raw = m.Params
		if ok(q) {
			p = q
			return true
		}
		return false
	})
	return p
}

// version returns a predicate for a publish of that document version.
func version(v int) func(published) bool {
	return func(p published) bool { return p.Version != nil && *p.Version == v }
}

// codes lists the codes of a publish.
func (p published) codes() []string {
	var out []string
	for _, d := range p.Diagnostics {
		out = append(out, d.Code)
	}
	return out
}

// initialize runs the handshake with the given capabilities.
func (c *client) initialize(root string, caps map[string]any) map[string]any {
	c.t.Helper()
	var res map[string]any
	c.must("initialize", map[string]any{
		"processId":        nil,
		"rootUri":          fileURI(root),
		"capabilities":     caps,
		"workspaceFolders": []any{map[string]any{"uri": fileURI(root), "name": "ws"}},
	}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

// shutdownExit ends the session cleanly and checks Serve returned nil.
func (c *client) shutdownExit() {
	c.t.Helper()
	c.must("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.served:
		c.served <- err // for Cleanup
		if err != nil {
			c.t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(hangGuard):
		c.t.Fatal("the server did not exit")
	}
}

func fileURI(path string) string { return "file://" + path }
