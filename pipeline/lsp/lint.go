package lsp

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/uri"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
	"github.com/nullius-dev/nullius/internal/readlimit"
	protocol "github.com/nullius-dev/nullius/internal/third_party/lspprotocol"
)

// pkgState is what the server knows of one package.
type pkgState struct {
	dir     string
	pending bool // a lint is due
	full    bool // the next lint runs the IR checks too
	// irPart are the findings the IR checks added at the last full lint;
	// as-you-type lints show them (from the last compile) beside the
	// fresh source findings.
	irPart []diag.Diagnostic
	// last is the most recent lint, for hover and code actions.
	last *result
	// published are the paths whose diagnostics the client holds.
	published map[string]bool
}

// result is one lint of a package: the texts it read from open buffers
// (with their versions) and every diagnostic by path, suppressed ones
// included.
type result struct {
	texts    map[string]*text
	versions map[string]int32
	diags    map[string][]diag.Diagnostic
}

// schedule marks a package for linting (with the IR checks when full)
// and wakes the lint loop.
func (s *server) schedule(dir string, full bool) {
	s.mu.Lock()
	ps := s.pkg(dir)
	ps.pending = true
	ps.full = ps.full || full
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// pkg returns the state of dir, creating it. s.mu is held.
func (s *server) pkg(dir string) *pkgState {
	ps := s.pkgs[dir]
	if ps == nil {
		ps = &pkgState{dir: dir, published: map[string]bool{}}
		s.pkgs[dir] = ps
	}
	return ps
}

// lintLoop lints pending packages: at once when woken after a quiet
// spell, then at most once per Debounce while changes keep coming.
func (s *server) lintLoop(ctx context.Context) {
	for {
		select {
		case <-s.kick:
		case <-s.done:
			return
		}
		for {
			dir := s.nextPending()
			if dir == "" {
				break
			}
			s.lintSafely(ctx, dir)
		}
		if s.opts.Debounce > 0 {
			select {
			case <-time.After(s.opts.Debounce):
			case <-s.done:
				return
			}
		}
	}
}

// lintSafely is lintPackage for the lint loop: a panic is logged and the
// loop goes on, as a request's panic is answered and the server goes on.
func (s *server) lintSafely(ctx context.Context, dir string) {
	defer func() {
		if r := recover(); r != nil {
			s.logf("internal error linting %s: %v\n%s", dir, r, debug.Stack())
		}
	}()
	s.lintPackage(ctx, dir)
}

// nextPending returns a package due for linting (the first by path), or "".
func (s *server) nextPending() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var dirs []string
	for dir, ps := range s.pkgs {
		if ps.pending {
			dirs = append(dirs, dir)
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	slices.Sort(dirs)
	return dirs[0]
}

// lintPackage lints one package from the open buffers and the files on
// disk, and publishes the findings of every file of it.
func (s *server) lintPackage(ctx context.Context, dir string) *result {
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	s.mu.Lock()
	ps := s.pkg(dir)
	full := ps.full
	ps.pending, ps.full = false, false
	res := &result{texts: map[string]*text{}, versions: map[string]int32{}, diags: map[string][]diag.Diagnostic{}}
	overlay := map[string][]byte{}
	var open []*document
	for _, d := range s.docs {
		if d.pkg == dir {
			overlay[d.path] = d.text.src
			res.texts[d.path] = d.text
			res.versions[d.path] = d.version
			open = append(open, d)
		}
	}
	irPart := ps.irPart
	edited := map[string]time.Time{}
	for _, d := range open {
		edited[d.path] = d.edited
	}
	s.mu.Unlock()

	// Source rules always; the IR checks on a full lint, whose extra
	// findings are kept for the as-you-type lints that follow. One run
	// gives both: its findings with the IR checks, and those it would
	// have given without them.
	linted, err := lint([]string{dir}, analyzers.Options{Overlay: overlay, NoIR: !full, AlsoNoIR: full, Workers: 1})
	var ds []diag.Diagnostic
	switch {
	case err != nil:
		s.logf("lint %s: %v", dir, err)
		if full {
			s.logf("lint %s with the IR checks: %v", dir, err)
		}
	case full:
		ds, irPart = linted.NoIRDiagnostics, subtract(linted.Diagnostics, linted.NoIRDiagnostics)
	default:
		ds = linted.Diagnostics
	}
	ds = diag.SortDedup(append(slices.Clone(ds), irPart...))
	ds = append(ds, staleIRNotes(dir, edited)...)
	for _, d := range ds {
		p := abs(d.Path)
		d.Path = p
		res.diags[p] = append(res.diags[p], d)
	}

	s.mu.Lock()
	ps.irPart = irPart
	ps.last = res
	// Clear what the client holds from before, and say "clean" for every
	// open buffer, with its version.
	var clear []string
	for p := range ps.published {
		if len(res.diags[p]) == 0 && res.texts[p] == nil {
			clear = append(clear, p)
		}
	}
	for p := range res.texts {
		if len(res.diags[p]) == 0 {
			clear = append(clear, p)
		}
	}
	s.mu.Unlock()
	for p, dsp := range res.diags {
		s.publish(ctx, ps, p, dsp, res)
	}
	for _, p := range clear {
		s.publish(ctx, ps, p, nil, res)
	}
	return res
}

// lint is analyzers.Lint; a test counts the runs.
var lint = analyzers.Lint

// subtract returns the diagnostics of all that are not in some (a
// multiset difference).
func subtract(all, some []diag.Diagnostic) []diag.Diagnostic {
	key := func(d diag.Diagnostic) string {
		return fmt.Sprintf("%s\x00%t\x00%s", d.String(), d.Suppressed, d.Severity)
	}
	have := map[string]int{}
	for _, d := range some {
		have[key(d)]++
	}
	var out []diag.Diagnostic
	for _, d := range all {
		if k := key(d); have[k] > 0 {
			have[k]--
		} else {
			out = append(out, d)
		}
	}
	return out
}

// staleIRNotes are GAIA213 notes, one per open buffer edited after the
// package's .gaia/ir.json was written: the IR findings shown come from a
// compile that never saw the buffer.
func staleIRNotes(dir string, edited map[string]time.Time) []diag.Diagnostic {
	irTime := modTime(ir.IRPath(dir))
	if irTime.IsZero() {
		return nil
	}
	r, ok := diag.Lookup("GAIA213")
	if !ok {
		return nil
	}
	var out []diag.Diagnostic
	for p, t := range edited {
		if t.After(irTime) {
			d := r.New(p, 1, 1, 1, 1, "the compiled IR %s is older than this buffer, so the IR findings shown are from the last compile; save and recompile with gaia build compile",
				path.Join(filepath.ToSlash(dir), ".gaia", "ir.json"))
			d.Severity = noteSeverity
			out = append(out, d)
		}
	}
	return out
}

// noteSeverity marks the stale-IR note, published as an LSP Information
// rather than a warning: it describes the findings, it is not one.
const noteSeverity diag.Severity = "note"

// publish sends the unsuppressed findings of one file (suppressed ones are
// hidden, as `nullius lint` hides them), with positions in the negotiated
// encoding, converted against the text that was linted.
func (s *server) publish(ctx context.Context, ps *pkgState, p string, ds []diag.Diagnostic, res *result) {
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	t := res.texts[p]
	params := &protocol.PublishDiagnosticsParams{URI: uri.File(filepath.FromSlash(p)), Diagnostics: []protocol.Diagnostic{}}
	if t != nil {
		params.Version = protocol.NewOptional(res.versions[p])
	} else {
		t = diskText(p)
	}
	for _, d := range ds {
		if !d.Suppressed {
			params.Diagnostics = append(params.Diagnostics, toLSP(d, t, enc))
		}
	}
	if err := s.client.PublishDiagnostics(ctx, params); err != nil {
		s.logf("publish %s: %v", p, err)
		return
	}
	s.mu.Lock()
	if len(ds) > 0 {
		ps.published[p] = true
	} else {
		delete(ps.published, p)
	}
	s.mu.Unlock()
}

// diskText reads a file that is not open, to convert its positions; an
// unreadable one converts columns as if every character were one unit.
func diskText(p string) *text {
	kind := readlimit.Python
	switch {
	case strings.HasSuffix(p, ".json"):
		kind = readlimit.JSON
	case strings.HasSuffix(p, ".toml"):
		kind = readlimit.Config
	}
	src, err := readlimit.ReadFile(p, kind)
	if err != nil {
		return newText(nil)
	}
	return newText(src)
}

// toLSP converts a finding: 1-based lines and UTF-8 byte columns become
// 0-based positions in enc; the code links to its section of docs/rules.md.
func toLSP(d diag.Diagnostic, t *text, enc encoding) protocol.Diagnostic {
	start, end := span(d, t)
	out := protocol.Diagnostic{
		Range:    protocol.Range{Start: t.position(start, enc), End: t.position(end, enc)},
		Severity: severity(d.Severity),
		Code:     protocol.String(d.Code),
		Source:   protocol.NewOptional("nullius"),
		Message:  protocol.String(d.Message),
	}
	if len(t.src) == 0 && d.Line > 1 {
		// No text to convert against: keep the numbers as they are.
		out.Range = protocol.Range{
			Start: protocol.Position{Line: uint32(d.Line - 1), Character: uint32(max(d.Column-1, 0))},
			End:   protocol.Position{Line: uint32(max(d.EndLine, d.Line) - 1), Character: uint32(max(d.EndColumn-1, 0))},
		}
	}
	if r, ok := diag.Lookup(d.Code); ok {
		if u, err := uri.Parse(output.RuleURL(r)); err == nil {
			out.CodeDescription = protocol.CodeDescription{Href: u}
		}
	}
	return out
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.DiagnosticSeverityError
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// workspacePass lints every package under the workspace folders, each
// with the IR checks, and publishes the results.
func (s *server) workspacePass() {
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	s.mu.Unlock()
	go func() {
		for _, root := range roots {
			pkgs, ds, err := analyzers.Discover([]string{root})
			if err != nil {
				s.logf("workspace %s: %v", root, err)
				continue
			}
			for _, p := range pkgs {
				s.schedule(abs(p.Dir), true)
			}
			// A broken package (no module, a pyproject.toml that does not
			// parse) is linted for the finding at its pyproject.toml.
			for _, d := range ds {
				if path.Base(d.Path) == "pyproject.toml" {
					s.schedule(abs(path.Dir(d.Path)), true)
				}
			}
		}
	}()
}

// workspaceRoots returns the workspace folders (or the root URI of older
// clients) as absolute paths.
func workspaceRoots(params *protocol.InitializeParams) []string {
	var roots []string
	if folders, ok := params.WorkspaceFolders.Get(); ok {
		for _, f := range folders {
			if p := docPath(f.URI); p != "" {
				roots = append(roots, p)
			}
		}
	}
	//lint:ignore SA1019 clients without workspace folders (Neovim 0.7's) send only rootUri
	if root := params.RootURI; len(roots) == 0 && root != nil {
		if p := docPath(*root); p != "" {
			roots = append(roots, p)
		}
	}
	return roots
}

// watched are the files whose change re-lints packages.
var watched = []string{"**/pyproject.toml", "**/nullius.toml", "**/.gaia/ir.json"}

// registerWatchers asks the client to report changes to the watched
// files.
func (s *server) registerWatchers(ctx context.Context) {
	var ws []protocol.FileSystemWatcher
	for _, g := range watched {
		ws = append(ws, protocol.FileSystemWatcher{GlobPattern: protocol.Pattern(g)})
	}
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: ws})
	if err != nil {
		s.logf("register file watchers: %v", err)
		return
	}
	err = s.client.RegisterCapability(ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "nullius-watched-files", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
	}}})
	if err != nil {
		s.logf("register file watchers: %v", err)
	}
}

// DidChangeWatchedFiles re-lints what a change can affect: a package's
// own pyproject.toml or compiled IR, or every package under a changed
// nullius.toml (configuration applies to the tree below it). Open buffers
// are re-assigned to packages, since pyproject.toml decides which files a
// package has.
func (s *server) DidChangeWatchedFiles(_ context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	var dirs []string
	for _, ev := range params.Changes {
		p := docPath(ev.URI)
		switch {
		case p == "":
		case path.Base(p) == "ir.json" && path.Base(path.Dir(p)) == ".gaia":
			dirs = append(dirs, path.Dir(path.Dir(p)))
		case path.Base(p) == "pyproject.toml", path.Base(p) == "nullius.toml":
			dirs = append(dirs, path.Dir(p))
		}
	}
	if len(dirs) == 0 {
		return nil
	}
	s.mu.Lock()
	var docs []*document
	for _, d := range s.docs {
		docs = append(docs, d)
	}
	s.mu.Unlock()
	targets := map[string]bool{}
	for _, d := range docs {
		if under(d.path, dirs) {
			pkg := s.packageOf(d.path)
			s.mu.Lock()
			d.pkg = pkg
			s.mu.Unlock()
			if pkg != "" {
				targets[pkg] = true
			}
		}
	}
	s.mu.Lock()
	for dir := range s.pkgs {
		if under(dir, dirs) {
			targets[dir] = true
		}
	}
	s.mu.Unlock()
	for _, dir := range dirs {
		if pkgs, _, err := analyzers.Discover([]string{dir}); err == nil {
			for _, p := range pkgs {
				targets[abs(p.Dir)] = true
			}
		}
	}
	for dir := range targets {
		s.schedule(dir, true)
	}
	return nil
}

// under reports whether p is one of dirs or lies below one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}
