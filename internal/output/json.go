package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/nullius-dev/nullius/internal/diag"
)

// jsonDoc is the version-1 JSON report. Fields are only ever added within
// a version; anything else bumps Version.
type jsonDoc struct {
	Version     int               `json:"version"`
	Tool        string            `json:"tool"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Summary     Summary           `json:"summary"`
}

// writeJSON prints {"version":1,"tool":"nullius","diagnostics":[...],
// "summary":{...}} with every finding, suppressed ones included, sorted by
// path, line, column and code. An empty run has "diagnostics": [], never
// null.
func writeJSON(w io.Writer, ds []diag.Diagnostic, meta Meta) error {
	if ds == nil {
		ds = []diag.Diagnostic{}
	}
	doc, err := encodeIndented(jsonDoc{Version: 1, Tool: "nullius", Diagnostics: ds, Summary: Summarize(ds, meta.Files)})
	if err != nil {
		return err
	}
	if meta.Result != nil {
		res, err := encodeIndented(meta.Result)
		if err != nil {
			return err
		}
		// Both are objects indented alike, so the result's members splice
		// in after "summary": drop the document's closing brace and the
		// result's opening one.
		if !bytes.HasPrefix(res, []byte("{\n")) || !bytes.HasSuffix(doc, []byte("\n}\n")) {
			if !bytes.Equal(res, []byte("{}\n")) {
				return fmt.Errorf("internal error: a command result must encode as a JSON object, got %.40q", res)
			}
		} else {
			doc = append(append(doc[:len(doc)-3], ",\n"...), res[2:]...)
		}
	}
	_, err = w.Write(doc)
	return err
}

// encodeIndented is json.Marshal with the document's indentation, HTML
// characters kept as they are, and a final newline.
func encodeIndented(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
