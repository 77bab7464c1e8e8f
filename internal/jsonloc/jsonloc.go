// Package jsonloc parses JSON while remembering where every value sits, so
// validators can report a finding at the RFC 6901 pointer of the offending
// value and at the line:column that pointer maps to.
package jsonloc

import "errors"

// Doc is a parsed JSON document. Value holds the decoded value: map[string]any
// for objects, []any for arrays, string, json.Number for numbers, bool, nil.
type Doc struct {
	Src   []byte
	Value any
	// Duplicates lists the pointers of object members whose key repeats an
	// earlier key of the same object (the last one wins in Value).
	Duplicates []string
}

// SyntaxError is a located JSON parse failure.
type SyntaxError struct {
	Offset, Line, Col int
	Msg               string
}

func (e *SyntaxError) Error() string { return e.Msg }

// Options adjust parsing.
type Options struct {
	AllowBOM bool // accept (and skip) a leading UTF-8 byte-order mark
}

// Parse decodes src strictly: invalid UTF-8, NaN/Infinity, trailing data and
// an unexpected BOM are *SyntaxError values.
func Parse(src []byte, opts Options) (*Doc, error) { return nil, errors.New("jsonloc: not implemented yet") }

// Locate returns the 1-based line and byte column of the value at pointer,
// or of its nearest existing ancestor when the pointer does not resolve
// (a missing member is reported at the object that lacks it).
func (d *Doc) Locate(pointer string) (line, col int) { return 1, 1 }

// Pointer builds an RFC 6901 pointer from string keys and int indices.
func Pointer(tokens ...any) string { return "" }
