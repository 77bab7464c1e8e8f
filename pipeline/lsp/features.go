package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/uri"

	"github.com/nullius-dev/nullius/analyzers/fix"
	"github.com/nullius-dev/nullius/analyzers/hover"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
	protocol "github.com/nullius-dev/nullius/internal/third_party/lspprotocol"
	"github.com/nullius-dev/nullius/pyscan"
)

// commandSuppress is the command behind "suppress with a reason" for
// clients without snippet edits: the server applies the edit, then moves
// the cursor to where the reason goes with window/showDocument.
const commandSuppress = "nullius.suppressWithReason"

// current returns the path of an open buffer of a Gaia package and a lint
// of its current text, linting now when the last lint is older than the
// buffer. It returns a nil result for any other document.
func (s *server) current(ctx context.Context, u uri.URI) (string, *result, encoding) {
	s.mu.Lock()
	d := s.docs[u]
	enc := s.enc
	if d == nil || d.pkg == "" {
		s.mu.Unlock()
		return "", nil, enc
	}
	path, version, pkg := d.path, d.version, d.pkg
	last := s.pkg(pkg).last
	s.mu.Unlock()
	if last == nil || last.texts[path] == nil || last.versions[path] != version {
		last = s.lintPackage(ctx, pkg)
	}
	if last.texts[path] == nil {
		return "", nil, enc
	}
	return path, last, enc
}

// span returns the byte range of a finding in t.
func span(d diag.Diagnostic, t *text) (int, int) {
	start := t.at(d.Line, d.Column)
	end := start
	if d.EndLine > 0 {
		end = max(start, t.at(d.EndLine, d.EndColumn))
	}
	return start, end
}

// Hover explains the findings under the cursor (their rule, from the
// registry) and what pyscan sees there: the grade of a likelihood literal
// or what the discipline requires of a verb call.
func (s *server) Hover(ctx context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	path, res, enc := s.current(ctx, params.TextDocument.URI)
	if res == nil {
		return nil, nil
	}
	t := res.texts[path]
	off := t.offset(params.Position, enc)
	var parts []string
	var rng *protocol.Range
	for _, d := range res.diags[path] {
		start, end := span(d, t)
		if d.Suppressed || off < start || off > end {
			continue
		}
		parts = append(parts, ruleMarkdown(d))
		if rng == nil {
			rng = &protocol.Range{Start: t.position(start, enc), End: t.position(end, enc)}
		}
	}
	if m, err := pyscan.ParseSource(path, t.src); err == nil {
		if info, ok := hover.At(m, off, output.RuleURL); ok {
			parts = append(parts, info.Markdown)
			if rng == nil {
				rng = &protocol.Range{Start: t.position(int(info.Span.Start.Offset), enc), End: t.position(int(info.Span.End.Offset), enc)}
			}
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    rng,
	}, nil
}

// ruleMarkdown renders a finding with its rule's explanation.
func ruleMarkdown(d diag.Diagnostic) string {
	r, ok := diag.Lookup(d.Code)
	if !ok {
		return fmt.Sprintf("**%s** %s", d.Code, d.Message)
	}
	sev := string(r.Severity)
	if d.Severity == noteSeverity {
		sev = "note"
	}
	return fmt.Sprintf("**%s** %s (%s) — %s\n\n%s\n\n%s\n\n[%s in docs/rules.md](%s)",
		r.Code, r.Name, sev, r.Title, d.Message, strings.TrimSpace(r.Text), r.Code, output.RuleURL(r))
}

// CodeAction offers, for each finding in the range: the analyzers'
// suggested fixes that pass the safety guard (analyzers/fix: never a
// changed number literal, never a dropped call or argument), and
// "suppress with a reason". Nothing else: no action changes a probability
// or deletes evidence.
func (s *server) CodeAction(ctx context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	if only := params.Context.Only; len(only) > 0 && !wantsQuickFix(only) {
		return nil, nil
	}
	u := params.TextDocument.URI
	path, res, enc := s.current(ctx, u)
	if res == nil {
		return nil, nil
	}
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	t := res.texts[path]
	version := res.versions[path]
	from, to := t.offset(params.Range.Start, enc), t.offset(params.Range.End, enc)
	var out []protocol.CommandOrCodeAction
	for _, d := range res.diags[path] {
		start, end := span(d, t)
		if d.Suppressed || d.Severity == noteSeverity || start > to || end < from {
			continue
		}
		ld := toLSP(d, t, enc)
		for i, f := range d.Fixes {
			if fix.Unsafe(path, t.src, f.Edits) != "" {
				continue
			}
			preferred := i == 0
			out = append(out, &protocol.CodeAction{
				Title:       f.Message,
				Kind:        kind(protocol.CodeActionKindQuickFix),
				Diagnostics: []protocol.Diagnostic{ld},
				IsPreferred: &preferred,
				Edit:        workspaceEdit(u, version, t, f.Edits, enc, caps.versionedEdits),
			})
		}
		if a := s.suppressAction(u, version, t, d, ld, enc, caps); a != nil {
			out = append(out, a)
		}
	}
	return out, nil
}

func kind(k protocol.CodeActionKind) *protocol.CodeActionKind { return &k }

// wantsQuickFix reports whether a client's "only" filter admits quickfix.
func wantsQuickFix(only []protocol.CodeActionKind) bool {
	for _, k := range only {
		if k == protocol.CodeActionKindQuickFix || k == protocol.CodeActionKindEmpty || strings.HasPrefix(string(protocol.CodeActionKindQuickFix), string(k)+".") {
			return true
		}
	}
	return false
}

// workspaceEdit converts byte-range edits of t into an edit of document u
// (documentEdit).
func workspaceEdit(u uri.URI, version int32, t *text, edits []diag.Edit, enc encoding, versioned bool) *protocol.WorkspaceEdit {
	var tes []protocol.TextEdit
	for _, e := range edits {
		tes = append(tes, protocol.TextEdit{
			Range:   protocol.Range{Start: t.position(e.Start, enc), End: t.position(e.End, enc)},
			NewText: e.NewText,
		})
	}
	return documentEdit(u, version, tes, versioned)
}

// documentEdit applies tes to document u, versioned when the client
// accepts documentChanges (so an edit computed for an older text is
// refused, not misapplied).
func documentEdit(u uri.URI, version int32, tes []protocol.TextEdit, versioned bool) *protocol.WorkspaceEdit {
	if !versioned {
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: tes}}
	}
	var elems []protocol.TextDocumentEditElement
	for i := range tes {
		elems = append(elems, &tes[i])
	}
	return versionedEdit(u, version, elems...)
}

// versionedEdit is an edit of the given version of document u.
func versionedEdit(u uri.URI, version int32, elems ...protocol.TextDocumentEditElement) *protocol.WorkspaceEdit {
	return &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{&protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: &version},
		Edits:        elems,
	}}}
}

// suppressArgs are the arguments of commandSuppress.
type suppressArgs struct {
	URI     uri.URI           `json:"uri"`
	Version int32             `json:"version"`
	Edit    protocol.TextEdit `json:"edit"`
	Cursor  protocol.Position `json:"cursor"`
}

// suppressAction builds "Suppress CODE with a reason": an edit inserting
// "# nullius: ignore[CODE] " that leaves the cursor where the reason goes,
// as a snippet when the client takes snippet edits, else through
// commandSuppress when it can apply edits and show documents, else as a
// plain edit.
func (s *server) suppressAction(u uri.URI, version int32, t *text, d diag.Diagnostic, ld protocol.Diagnostic, enc encoding, caps clientCaps) *protocol.CodeAction {
	e, cursor, err := fix.Suppression(t.src, d)
	if err != nil {
		return nil
	}
	a := &protocol.CodeAction{
		Title:       "Suppress " + d.Code + " with a reason",
		Kind:        kind(protocol.CodeActionKindQuickFix),
		Diagnostics: []protocol.Diagnostic{ld},
	}
	rng := protocol.Range{Start: t.position(e.Start, enc), End: t.position(e.End, enc)}
	// cursor is an offset in the edited text; the reason goes before the
	// rest of the inserted text.
	head := e.NewText[:cursor-e.Start]
	tail := e.NewText[cursor-e.Start:]
	switch {
	case caps.snippetEdits:
		a.Edit = versionedEdit(u, version, &protocol.SnippetTextEdit{
			Range:   rng,
			Snippet: protocol.StringValue{Kind: "snippet", Value: snippetEscape(head) + "$0" + snippetEscape(tail)},
		})
	case caps.applyEdit && caps.showDocument:
		edited, err := fix.Apply(t.src, []diag.Edit{e})
		if err != nil {
			return nil
		}
		args, err := json.Marshal(suppressArgs{URI: u, Version: version, Edit: protocol.TextEdit{Range: rng, NewText: e.NewText}, Cursor: newText(edited).position(cursor, enc)})
		if err != nil {
			return nil
		}
		a.Command = protocol.Command{Title: a.Title, Command: commandSuppress, Arguments: []protocol.LSPAny{args}}
	default:
		a.Edit = workspaceEdit(u, version, t, []diag.Edit{e}, enc, caps.versionedEdits)
	}
	return a
}

// snippetEscape escapes the characters that are special in LSP snippets.
func snippetEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`).Replace(s)
}

// ExecuteCommand runs commandSuppress: apply the edit, then put the
// cursor where the reason goes.
func (s *server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	if params.Command != commandSuppress || len(params.Arguments) != 1 {
		return nil, fmt.Errorf("unknown command %q", params.Command)
	}
	var args suppressArgs
	if err := json.Unmarshal(params.Arguments[0], &args); err != nil {
		return nil, fmt.Errorf("%s: %w", commandSuppress, err)
	}
	s.mu.Lock()
	versioned := s.caps.versionedEdits
	s.mu.Unlock()
	edit := documentEdit(args.URI, args.Version, []protocol.TextEdit{args.Edit}, versioned)
	label := "Suppress with a reason"
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit})
	if err != nil {
		return nil, err
	}
	if res == nil || !res.Applied {
		return nil, errors.New("the editor did not apply the suppression")
	}
	yes := true
	_, err = s.client.ShowDocument(ctx, &protocol.ShowDocumentParams{URI: args.URI, TakeFocus: &yes, Selection: &protocol.Range{Start: args.Cursor, End: args.Cursor}})
	return nil, err
}
