// Package lsp is `nullius server`: a Language Server Protocol 3.17 server
// over stdio that runs the Gaia discipline scan as you type, the way ruff's
// language server runs ruff.
//
// The protocol types and the JSON-RPC 2.0 framing come from
// go.lsp.dev/protocol and go.lsp.dev/jsonrpc2 (v1): the library whose v0
// line real Go language servers are built on (skaffold's `skaffold lsp`,
// hledger-lsp and others), and whose v1 is generated from the official
// LSP meta-model, so the 3.17 features nullius needs (position encoding
// negotiation, code descriptions, snippet text edits) are typed rather than
// hand-written. docs/editors.md says why this and not the alternatives.
//
// What it does, per open Python file that belongs to a Gaia package, from
// the editor's in-memory text: the source rules on open and on every
// change (coalesced, see Options.Debounce), the compiled-IR checks too on
// open, on save and when .gaia/ir.json changes, with configuration and
// suppressions applied exactly as `nullius lint` applies them. Hover
// explains rules, grades and verbs; code actions offer the analyzers' safe
// fixes and "suppress with a reason". It writes nothing to disk.
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	protocol "github.com/nullius-dev/nullius/internal/third_party/lspprotocol"
)

// Options configure a server.
type Options struct {
	// Version is reported as serverInfo.version.
	Version string
	// Log receives the server's log lines (stderr for `nullius server`;
	// stdout carries the protocol and nothing else).
	Log io.Writer
	// Debounce is the least time between two as-you-type lints: the first
	// change after a quiet spell is linted at once, changes arriving while
	// a lint runs or within Debounce of it are coalesced into the next one.
	// Tests wait for the publishDiagnostics they expect, never for a timer.
	Debounce time.Duration
}

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without shutdown first; LSP asks the server to exit with status 1 then.
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Serve runs the server over in and out until the client sends exit or
// closes the input. It returns nil after shutdown and exit.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	return serve(ctx, in, out, opts, nil)
}

// serve is Serve with a hook the tests use to make a handler panic or
// block until its request is cancelled.
func serve(ctx context.Context, in io.Reader, out io.Writer, opts Options, hook func(context.Context, string)) error {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newServer(opts)
	s.hook = hook
	stream := jsonrpc2.NewStream(&pipe{r: in, w: out})
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(conn)
	s.conn = conn
	conn.Go(ctx, protocol.CancelHandler(s.guard(protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler))))
	go s.lintLoop(ctx)
	select {
	case <-s.exit:
	case <-conn.Done():
	}
	cancel()
	s.stop()
	// Close waits for the read loop, which may sit in a read of stdin that
	// closing does not interrupt: after exit, the process is about to end,
	// so it is not waited for.
	go conn.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		if s.exited {
			return ErrExitWithoutShutdown
		}
		if err := conn.Err(); err != nil {
			return err
		}
		return errors.New("the client closed the connection without shutdown and exit")
	}
	return nil
}

// server is the state of one session. mu guards every field below it.
type server struct {
	protocol.UnimplementedServer
	opts   Options
	log    *log.Logger
	client protocol.Client
	conn   jsonrpc2.Conn
	exit   chan struct{} // closed by the exit notification
	kick   chan struct{} // one pending wake-up of the lint loop
	done   chan struct{} // closed when the lint loop must stop
	lintMu sync.Mutex    // one lint at a time (the loop, or a request that needs fresh results)
	hook   func(context.Context, string)

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	exited      bool
	enc         encoding
	caps        clientCaps
	roots       []string
	docs        map[uri.URI]*document
	pkgs        map[string]*pkgState // by package directory
	stopOnce    sync.Once
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	snippetEdits   bool // workspace.workspaceEdit.snippetEditSupport (3.18)
	showDocument   bool // window.showDocument.support
	applyEdit      bool // workspace.applyEdit
	watchedFiles   bool // workspace.didChangeWatchedFiles.dynamicRegistration
	versionedEdits bool // workspace.workspaceEdit.documentChanges
}

func newServer(opts Options) *server {
	return &server{
		opts: opts,
		log:  log.New(opts.Log, "nullius server: ", 0),
		exit: make(chan struct{}),
		kick: make(chan struct{}, 1),
		done: make(chan struct{}),
		docs: map[uri.URI]*document{},
		pkgs: map[string]*pkgState{},
	}
}

func (s *server) stop() { s.stopOnce.Do(func() { close(s.done) }) }

// guard wraps the protocol dispatcher: the lifecycle rules of LSP
// (nothing before initialize, nothing but exit after shutdown), requests
// released from the read loop so a slow one does not hold up the
// notifications behind it (notifications are handled in order, inline),
// and a panic in one message answered as an error for that message while
// the server goes on.
func (s *server) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		method := req.Method()
		call := req.IsCall()
		if call {
			// Every request leaves the read loop at once. Besides letting
			// notifications behind a slow request through, this keeps
			// jsonrpc2 from recycling the request while the goroutine that
			// protocol.CancelHandler's context.WithCancel started still
			// watches it (an inline request is pooled when its handler
			// returns; a released one is not).
			jsonrpc2.Async(ctx)
		}
		s.mu.Lock()
		initialized, shutdown := s.initialized, s.shutdown
		s.mu.Unlock()
		switch {
		case method == protocol.MethodExit:
			// always handled
		case !initialized && method != protocol.MethodInitialize:
			if !call {
				return nil, nil // notifications before initialize are dropped
			}
			return nil, jsonrpc2.NewError(codeServerNotInitialized, "the server is not initialized; send initialize first")
		case shutdown:
			if !call {
				return nil, nil
			}
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down; only exit is accepted")
		}
		defer func() {
			if r := recover(); r != nil {
				s.log.Printf("internal error in %s: %v\n%s", method, r, debug.Stack())
				result, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "nullius server: internal error in %s: %v", method, r)
			}
			if !call && err != nil {
				// An error answering a notification would end the
				// connection; log it and go on.
				if !errors.Is(err, jsonrpc2.ErrMethodNotFound) {
					s.log.Printf("%s: %v", method, err)
				}
				result, err = nil, nil
			}
		}()
		if s.hook != nil {
			s.hook(ctx, method)
		}
		return next(ctx, req)
	}
}

// codeServerNotInitialized is LSP's ServerNotInitialized error code.
const codeServerNotInitialized jsonrpc2.Code = -32002

// Initialize records the client's capabilities and workspace and declares
// what the server does, honestly: incremental sync with open/close and
// save notifications, publishDiagnostics, hover, quickfix code actions and
// the command that places the cursor after a suppression.
func (s *server) Initialize(_ context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	caps := params.Capabilities
	if caps.General != nil {
		s.enc = negotiate(caps.General.PositionEncodings)
	}
	if w := caps.Workspace; w != nil {
		s.caps.applyEdit = w.ApplyEdit != nil && *w.ApplyEdit
		if we := w.WorkspaceEdit; we != nil {
			s.caps.snippetEdits = we.SnippetEditSupport != nil && *we.SnippetEditSupport
			s.caps.versionedEdits = we.DocumentChanges != nil && *we.DocumentChanges
		}
		if dw := w.DidChangeWatchedFiles; dw != nil {
			s.caps.watchedFiles = dw.DynamicRegistration != nil && *dw.DynamicRegistration
		}
	}
	if w := caps.Window; w != nil && w.ShowDocument != nil {
		s.caps.showDocument = w.ShowDocument.Support
	}
	s.roots = workspaceRoots(params)
	s.initialized = true
	change := protocol.TextDocumentSyncKindIncremental
	yes := true
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: s.enc.kind(),
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &change,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider: protocol.Boolean(true),
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: []string{commandSuppress}},
		},
		ServerInfo: protocol.ServerInfo{Name: "nullius", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

// Initialized starts the workspace pass and asks the client to watch the
// files whose change re-lints a package.
func (s *server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	watch := s.caps.watchedFiles
	s.mu.Unlock()
	if watch {
		// A request to the client: answered on the read loop, so it must
		// not block this notification's handler.
		go s.registerWatchers(jsonrpc2.DetachContext(ctx))
	}
	s.workspacePass()
	return nil
}

// Shutdown stops linting; the client sends exit next.
func (s *server) Shutdown(context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stop()
	return nil
}

// Exit ends Serve.
func (s *server) Exit(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exited {
		s.exited = true
		close(s.exit)
	}
	return nil
}

// SetTrace is accepted and ignored: the server logs to stderr.
func (s *server) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// DidChangeConfiguration is accepted and ignored: configuration comes
// from nullius.toml and [tool.nullius], as for `nullius lint`.
func (s *server) DidChangeConfiguration(context.Context, *protocol.DidChangeConfigurationParams) error {
	return nil
}

// logf writes a log line to stderr (never stdout, which is the protocol).
func (s *server) logf(format string, args ...any) { s.log.Output(2, fmt.Sprintf(format, args...)) }

// pipe joins stdin and stdout into the stream the connection reads and
// writes.
type pipe struct {
	r io.Reader
	w io.Writer
}

func (p *pipe) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *pipe) Close() error {
	if c, ok := p.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// codec marshals payloads with the protocol package's union-aware codec
// (the one protocol.NewServer installs; nullius builds its connection
// itself to keep notifications in order, see guard).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}
