package output

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/golden"
)

func TestJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", nil, Meta{Files: 4}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "tool": "nullius",
  "diagnostics": [],
  "summary": {
    "errors": 0,
    "warnings": 0,
    "suppressed": 0,
    "files": 4
  }
}
`
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestJSONRecord pins the field names and order of one record: the shape
// the spec README shows, which JSON readers rely on.
func TestJSONRecord(t *testing.T) {
	d := diag.Diagnostic{Code: "GAIA011", Name: "infer-off-grade-pair", Severity: diag.Error, Path: "src/my_idea/__init__.py",
		Line: 12, Column: 5, EndLine: 14, EndColumn: 6, Message: "infer uses off-grade pair (0.8, 0.1) <&>",
		Fixes: []diag.Fix{{Message: "never serialised"}}}
	var buf bytes.Buffer
	if err := Write(&buf, "json", []diag.Diagnostic{d}, Meta{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Diagnostics []json.RawMessage
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	json.Compact(&compact, doc.Diagnostics[0])
	want := `{"code":"GAIA011","name":"infer-off-grade-pair","severity":"error","path":"src/my_idea/__init__.py","line":12,"column":5,"end_line":14,"end_column":6,"pointer":"","message":"infer uses off-grade pair (0.8, 0.1) <&>","suppressed":false}`
	if compact.String() != want {
		t.Fatalf("record\n%s\nwant\n%s", compact.String(), want)
	}
}

func TestJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", sample(), Meta{Files: 2}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/sample.json", buf.Bytes())
	var doc jsonDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Diagnostics) != 4 || doc.Summary != (Summary{Errors: 2, Warnings: 1, Suppressed: 1, Files: 2}) {
		t.Fatalf("json keeps every finding: got %d, summary %+v", len(doc.Diagnostics), doc.Summary)
	}
	for i := 1; i < len(doc.Diagnostics); i++ {
		if diag.Less(doc.Diagnostics[i-1], doc.Diagnostics[i]) > 0 {
			t.Fatalf("diagnostics not sorted at %d", i)
		}
	}
}

// TestJSONMatchesPublishedSchema validates the output against
// schemas/nullius_report_v1.schema.json, the contract JSON readers get,
// and proves the check can fail.
func TestJSONMatchesPublishedSchema(t *testing.T) {
	f, err := os.Open("../../schemas/nullius_report_v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(out []byte) error {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(inst)
	}
	for name, ds := range map[string][]diag.Diagnostic{"sample": sample(), "empty": nil} {
		var buf bytes.Buffer
		if err := Write(&buf, "json", ds, Meta{Files: 2}); err != nil {
			t.Fatal(err)
		}
		if err := validate(buf.Bytes()); err != nil {
			t.Errorf("%s: json output fails its schema: %v", name, err)
		}
		if name == "sample" {
			bad := bytes.Replace(buf.Bytes(), []byte(`"severity": "warning"`), []byte(`"severity": "fatal"`), 1)
			if validate(bad) == nil {
				t.Error("a record with severity \"fatal\" passed the schema")
			}
		}
	}
}

// A command's result follows the envelope's own keys in one document; a
// result that is not an object is an internal error, never bad JSON.
func TestJSONResult(t *testing.T) {
	var buf bytes.Buffer
	res := struct {
		Status string   `json:"status"`
		Tier   int      `json:"tier"`
		Edited []string `json:"edited"`
	}{"absorbed", 3, []string{"a<b>.py"}}
	if err := Write(&buf, "json", nil, Meta{Files: 1, Result: res}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "tool": "nullius",
  "diagnostics": [],
  "summary": {
    "errors": 0,
    "warnings": 0,
    "suppressed": 0,
    "files": 1
  },
  "status": "absorbed",
  "tier": 3,
  "edited": [
    "a<b>.py"
  ]
}
`
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	if err := Write(&buf, "json", nil, Meta{Result: struct{}{}}); err != nil || !json.Valid(buf.Bytes()) {
		t.Fatalf("empty result: %v\n%s", err, buf.String())
	}
	if err := Write(&buf, "json", nil, Meta{Result: []int{1}}); err == nil {
		t.Fatal("a non-object result was accepted")
	}
}
