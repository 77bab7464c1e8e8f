package output

import (
	"encoding/json"
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonDoc{Version: 1, Tool: "nullius", Diagnostics: ds, Summary: Summarize(ds, meta.Files)})
}
