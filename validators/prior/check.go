package prior

import (
	"fmt"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// File is one parsed artifact: the path findings are reported against and
// the located document (nil for Markdown or an unreadable file).
type File struct {
	Path string
	Doc  *jsonloc.Doc
}

// Value is the decoded top-level value, nil when the file did not parse.
func (f *File) Value() any {
	if f == nil || f.Doc == nil {
		return nil
	}
	return f.Doc.Value
}

// checker accumulates findings, like the reference's list of problems, at
// most diag.PerRule of each rule in each file (see diag.Limit).
type checker struct {
	ds diag.Findings
}

// add reports a finding of code at pointer ptr of file f.
func (c *checker) add(f *File, code *diag.Rule, ptr, format string, args ...any) {
	path := ""
	if f != nil {
		path = f.Path
	}
	finding := func() diag.Diagnostic {
		line, col := 1, 1
		if f != nil && f.Doc != nil {
			line, col = f.Doc.Locate(ptr)
		}
		d := code.New(path, line, col, line, col, format, args...)
		d.Pointer = ptr
		return d
	}
	c.ds.Add(code, path, finding)
}

// put adds findings made by another check (each already within the limit).
func (c *checker) put(ds ...diag.Diagnostic) { c.ds.Put(ds...) }

// count returns how many findings have been reported so far; the ledger
// binding compares counts to tell whether a step added problems.
func (c *checker) count() int { return c.ds.Count() }

// result returns the findings (see diag.Findings.List).
func (c *checker) result() []diag.Diagnostic { return c.ds.List() }

// p joins a base pointer with further tokens.
func p(base string, tokens ...any) string { return base + jsonloc.Pointer(tokens...) }

// ParseFile parses src as the artifact at path. A read or syntax failure is
// returned as a located PRIOR001 finding and a nil document.
func ParseFile(path string, src []byte) (*File, []diag.Diagnostic) {
	doc, err := jsonloc.Parse(src, jsonloc.Options{AllowBOM: true})
	if err != nil {
		line, col := 1, 1
		if se, ok := err.(*jsonloc.SyntaxError); ok {
			line, col = se.Line, se.Col
		}
		d := CodeUnreadable.New(path, line, col, line, col,
			"%s is not valid JSON: %v; fix the syntax or regenerate the file", path, err)
		return &File{Path: path}, []diag.Diagnostic{d}
	}
	return &File{Path: path, Doc: doc}, nil
}

// requireObject reports a non-object top level and returns the object.
func requireObject(c *checker, f *File, code *diag.Rule, what string) (map[string]any, bool) {
	if f == nil || f.Doc == nil {
		return nil, false
	}
	m, ok := f.Doc.Value.(map[string]any)
	if !ok {
		c.add(f, code, "", "%s must be a JSON object, got %s", what, kind(f.Doc.Value))
	}
	return m, ok
}

// kind names a decoded JSON value's type for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("the number %s", pyfmt.Short(v))
}
