package ir

import (
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// SourceMap maps compiled IR elements back to the Python source that
// declared them, so a finding can point at the authored line instead of
// ir.json. The source scan (package analyzers) implements it from pyscan.
// Both methods return ok false when the element cannot be mapped; the
// finding is then reported at its ir.json location.
type SourceMap interface {
	// Knowledge locates the declaration of the knowledge bound to the
	// module variable label (e.g. `worth = claim(...)`).
	Knowledge(label string) (path string, line, col int, ok bool)
	// Action locates the statement that produced a compiled action, given
	// its action_label (strategies' metadata.action_label, observation
	// supports' action_label).
	Action(actionLabel string) (path string, line, col int, ok bool)
}

// reporter collects located diagnostics for one JSON document.
type reporter struct {
	path string
	doc  *jsonloc.Doc
	src  SourceMap
	out  []diag.Diagnostic
}

// at reports at the JSON value the pointer designates (or its nearest
// existing ancestor, as jsonloc.Locate resolves it).
func (r *reporter) at(code *diag.Rule, ptr, format string, args ...any) {
	line, col := r.doc.Locate(ptr)
	d := code.New(r.path, line, col, line, col, format, args...)
	d.Pointer = ptr
	r.out = append(r.out, d)
}

// atKnowledge reports a finding about knowledge k, in the Python source
// when the source map knows its label, else at ptr in ir.json.
func (r *reporter) atKnowledge(code *diag.Rule, k *Knowledge, ptr, format string, args ...any) {
	if r.src != nil && k != nil && k.Label != "" {
		if p, line, col, ok := r.src.Knowledge(k.Label); ok {
			r.atSource(code, p, line, col, format, args...)
			return
		}
	}
	r.at(code, ptr, format, args...)
}

// atAction reports a finding about a compiled action (a strategy or an
// observation support), in the source when mapped, else at ptr.
func (r *reporter) atAction(code *diag.Rule, actionLabel, ptr, format string, args ...any) {
	if r.src != nil && actionLabel != "" {
		if p, line, col, ok := r.src.Action(actionLabel); ok {
			r.atSource(code, p, line, col, format, args...)
			return
		}
	}
	r.at(code, ptr, format, args...)
}

func (r *reporter) atSource(code *diag.Rule, path string, line, col int, format string, args ...any) {
	line, col = max(line, 1), max(col, 1)
	r.out = append(r.out, code.New(path, line, col, line, col, format, args...))
}

// duplicates reports every repeated object member (GAIA104).
func (r *reporter) duplicates() {
	for _, ptr := range r.doc.Duplicates {
		line, col := r.doc.LocateKey(ptr)
		d := codeDuplicateKey.New(r.path, line, col, line, col, "member %s repeats a key of the same object; Python keeps the last value silently, so recompile instead of editing by hand", pyfmt.Str(ptr))
		d.Pointer = ptr
		r.out = append(r.out, d)
	}
}

// optString reads an optional string member; any other non-null type is
// reported (GAIA105) and read as "".
func (r *reporter) optString(obj map[string]any, ptr, key string) string {
	v, ok := obj[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.at(codeWrongType, ptr+"/"+escapeToken(key), "%s must be a string, found %s", key, pyfmt.Describe(v))
	}
	return s
}

// optObject reads an optional object member; any other non-null type is
// reported (GAIA105) and read as nil.
func (r *reporter) optObject(obj map[string]any, ptr, key string) map[string]any {
	v, ok := obj[key]
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		r.at(codeWrongType, ptr+"/"+escapeToken(key), "%s must be an object, found %s", key, jsonType(v))
	}
	return m
}

// optList reads an optional array member; any other non-null type is
// reported (GAIA105) and read as nil.
func (r *reporter) optList(obj map[string]any, ptr, key string) []any {
	v, ok := obj[key]
	if !ok || v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		r.at(codeWrongType, ptr+"/"+escapeToken(key), "%s must be a list, found %s", key, jsonType(v))
	}
	return l
}

// escapeToken escapes one RFC 6901 reference token.
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
