package output

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/golden"
)

// sarifSchemaPath is the official OASIS SARIF 2.1.0 schema
// (Schemata/sarif-schema-2.1.0.json of oasis-tcs/sarif-spec, $id kept),
// re-indented; see schemas/sarif-2.1.0.json.
const (
	sarifSchemaPath = "../../schemas/sarif-2.1.0.json"
	sarifSchemaID   = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
)

func sarifValidator(t testing.TB) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(sarifSchemaPath)
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
	if err := c.AddResource(sarifSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(sarifSchemaID)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIF(t testing.TB, sch *jsonschema.Schema, out []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("sarif output is not JSON: %v\n%s", err, out)
	}
	return sch.Validate(inst)
}

func sarifOut(t testing.TB, ds []diag.Diagnostic, meta Meta) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, "sarif", ds, meta); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sampleMeta() Meta {
	return Meta{Command: "lint", Version: func() string { return "0.1.0-dev" }, Files: 2, WorkDir: "/repo", SrcRoot: "/repo", ReadFile: readSample}
}

func TestSARIFGoldenAndSchema(t *testing.T) {
	sch := sarifValidator(t)
	out := sarifOut(t, sample(), sampleMeta())
	golden.Check(t, "testdata/sample.sarif", out)
	if err := validateSARIF(t, sch, out); err != nil {
		t.Fatalf("sample SARIF fails the official schema: %v", err)
	}
	for name, meta := range map[string]Meta{
		"no content":         {Command: "validate match", Version: func() string { return "v1.2.3" }},
		"no command":         {Version: func() string { return "(devel)" }},
		"outside the root":   {WorkDir: "/elsewhere", SrcRoot: "/repo", ReadFile: readSample},
		"subdirectory paths": {WorkDir: "/repo/sub dir", SrcRoot: "/repo", ReadFile: readSample},
	} {
		if err := validateSARIF(t, sch, sarifOut(t, sample(), meta)); err != nil {
			t.Errorf("%s: SARIF fails the official schema: %v", name, err)
		}
	}
	if err := validateSARIF(t, sch, sarifOut(t, nil, Meta{})); err != nil {
		t.Errorf("empty run fails the schema: %v", err)
	}
}

// TestSARIFSchemaRejects proves the schema check can fail: a log with an
// invalid level and a zero start line is refused.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := sarifValidator(t)
	bad := strings.Replace(string(sarifOut(t, sample(), sampleMeta())), `"level": "warning"`, `"level": "fatal"`, 1)
	if err := validateSARIF(t, sch, []byte(bad)); err == nil {
		t.Fatal("a SARIF log with level \"fatal\" passed the schema")
	}
	bad = strings.Replace(string(sarifOut(t, sample(), sampleMeta())), `"startLine": 3`, `"startLine": 0`, 1)
	if err := validateSARIF(t, sch, []byte(bad)); err == nil {
		t.Fatal("a SARIF log with startLine 0 passed the schema")
	}
}

type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				SemanticVersion string
				Rules           []struct {
					ID                   string
					HelpURI              string
					DefaultConfiguration struct{ Level string }
				}
			}
		}
		AutomationDetails struct{ ID string }
		ColumnKind        string
		Results           []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           *sarifRegion
				}
			}
			PartialFingerprints map[string]string
			Suppressions        []sarifSuppression
		}
	}
}

func decodeSARIF(t *testing.T, out []byte) sarifDoc {
	t.Helper()
	var doc sarifDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestSARIFRegionColumns(t *testing.T) {
	d := sample()[0] // line 3: x = "é"; infer(0.85) — bytes 11..22 are code points 10..21
	tests := []struct {
		name string
		meta Meta
		want sarifRegion
	}{
		{"code points from the content", sampleMeta(), sarifRegion{StartLine: 3, StartColumn: 10, EndLine: 3, EndColumn: 21}},
		{"whole lines when the content is unknown", Meta{}, sarifRegion{StartLine: 3, EndLine: 3}},
	}
	for _, tt := range tests {
		doc := decodeSARIF(t, sarifOut(t, []diag.Diagnostic{d}, tt.meta))
		got := doc.Runs[0].Results[0].Locations[0].PhysicalLocation.Region
		if got == nil || *got != tt.want {
			t.Errorf("%s: region = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if doc := decodeSARIF(t, sarifOut(t, nil, Meta{})); doc.Runs[0].ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", doc.Runs[0].ColumnKind)
	}
	fileLevel := diag.Diagnostic{Code: "NULLIUS991", Severity: diag.Error, Path: "pyproject.toml", Message: "m"}
	if r := decodeSARIF(t, sarifOut(t, []diag.Diagnostic{fileLevel}, Meta{})).Runs[0].Results[0].Locations[0].PhysicalLocation.Region; r != nil {
		t.Errorf("a finding without a line has region %+v, want none", r)
	}
}

func TestRuneColumn(t *testing.T) {
	line := []byte("a\u00e9\u4e16\U0001F600b") // 1 + 2 + 3 + 4 + 1 bytes
	tests := []struct{ byteCol, want int }{
		{1, 1}, {2, 2}, {4, 3}, {7, 4}, {11, 5}, {12, 6}, {13, 7}, {0, 0},
	}
	for _, tt := range tests {
		if got := runeColumn(line, tt.byteCol); got != tt.want {
			t.Errorf("runeColumn(%d) = %d, want %d", tt.byteCol, got, tt.want)
		}
	}
}

func TestSARIFFingerprintsStable(t *testing.T) {
	src := "a = 1\ninfer(0.85)\n"
	moved := "# a new comment\n\na = 1\ninfer(0.85)\n"
	d := diag.Diagnostic{Code: "NULLIUS991", Severity: diag.Error, Path: "p.py", Line: 2, Column: 1, Message: "off-grade"}
	fp := func(content string, ds ...diag.Diagnostic) []map[string]string {
		meta := Meta{ReadFile: func(string) ([]byte, error) { return []byte(content), nil }}
		var out []map[string]string
		for _, r := range decodeSARIF(t, sarifOut(t, ds, meta)).Runs[0].Results {
			out = append(out, r.PartialFingerprints)
		}
		return out
	}
	before := fp(src, d)[0]
	d2 := d
	d2.Line = 4
	after := fp(moved, d2)[0]
	if before["primaryLocationLineHash"] != after["primaryLocationLineHash"] || before["nullius/logicalKey/v1"] != after["nullius/logicalKey/v1"] {
		t.Errorf("fingerprints changed when the code moved down: %v vs %v", before, after)
	}
	if !strings.HasSuffix(before["primaryLocationLineHash"], ":1") || len(before["primaryLocationLineHash"]) != 18 {
		t.Errorf("primaryLocationLineHash = %q, want 16 hex digits and :1", before["primaryLocationLineHash"])
	}
	// Two identical lines: same hash, told apart by the counter.
	twice := fp("infer(0.85)\ninfer(0.85)\n", diag.Diagnostic{Code: "NULLIUS991", Severity: diag.Error, Path: "p.py", Line: 1, Message: "x"},
		diag.Diagnostic{Code: "NULLIUS991", Severity: diag.Error, Path: "p.py", Line: 2, Message: "x"})
	h1, h2 := twice[0]["primaryLocationLineHash"], twice[1]["primaryLocationLineHash"]
	if h1[:16] != h2[:16] || !strings.HasSuffix(h1, ":1") || !strings.HasSuffix(h2, ":2") {
		t.Errorf("identical lines: %q and %q, want the same hash with :1 and :2", h1, h2)
	}
	// A different rule on the same line is a different alert.
	other := d
	other.Code = "NULLIUS992"
	if fp(src, other)[0]["primaryLocationLineHash"] == before["primaryLocationLineHash"] {
		t.Error("two rules on one line share a fingerprint")
	}
}

func TestSARIFResults(t *testing.T) {
	unknown := diag.Diagnostic{Code: "MATCH999", Name: "not-registered", Severity: diag.Warning, Path: "m.json", Line: 1, Column: 1, Message: "m"}
	ds := append(sample(), unknown)
	doc := decodeSARIF(t, sarifOut(t, ds, sampleMeta()))
	run := doc.Runs[0]
	if run.AutomationDetails.ID != "nullius/lint/" || run.Tool.Driver.SemanticVersion != "0.1.0-dev" {
		t.Errorf("automationDetails %q, semanticVersion %q", run.AutomationDetails.ID, run.Tool.Driver.SemanticVersion)
	}
	rules := run.Tool.Driver.Rules
	for _, r := range run.Results {
		if rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s has ruleIndex %d pointing at %s", r.RuleID, r.RuleIndex, rules[r.RuleIndex].ID)
		}
		loc := r.Locations[0].PhysicalLocation.ArtifactLocation
		if strings.HasPrefix(loc.URI, "/") || loc.URIBaseID != "%SRCROOT%" {
			t.Errorf("location %+v is not repository-relative", loc)
		}
		if (len(r.Suppressions) == 1) != (r.RuleID == "NULLIUS991" && r.Locations[0].PhysicalLocation.Region.StartLine == 9) {
			t.Errorf("suppressions %v on the wrong result", r.Suppressions)
		} else if len(r.Suppressions) == 1 && r.Suppressions[0].Kind != "inSource" {
			t.Errorf("suppression kind %q", r.Suppressions[0].Kind)
		}
	}
	var sawUnknown bool
	for _, r := range rules {
		if r.ID == "MATCH999" {
			sawUnknown = r.DefaultConfiguration.Level == "warning"
		}
		if r.ID == "NULLIUS991" && r.HelpURI != rulesDocURI+"#nullius991-test-error-rule" {
			t.Errorf("helpUri = %q", r.HelpURI)
		}
	}
	if !sawUnknown {
		t.Error("an unregistered code got no rule descriptor")
	}
}

func TestArtifactURI(t *testing.T) {
	tests := []struct {
		path string
		meta Meta
		uri  string
		rel  bool
	}{
		{"src/p/__init__.py", Meta{WorkDir: "/repo", SrcRoot: "/repo"}, "src/p/__init__.py", true},
		{"p/x.py", Meta{WorkDir: "/repo/sub", SrcRoot: "/repo"}, "sub/p/x.py", true},
		{"/repo/a b.py", Meta{WorkDir: "/tmp", SrcRoot: "/repo"}, "a%20b.py", true},
		{"../x.py", Meta{WorkDir: "/repo", SrcRoot: "/repo"}, "file:///x.py", false},
		{"/etc/x.json", Meta{}, "file:///etc/x.json", false},
		{"./a/../b.py", Meta{}, "b.py", true},
		{"c:d.py", Meta{}, "./c:d.py", true},
		{"..a.py", Meta{WorkDir: "/repo", SrcRoot: "/repo"}, "..a.py", true},
	}
	for _, tt := range tests {
		uri, rel := artifactURI(tt.path, tt.meta)
		if uri != tt.uri || rel != tt.rel {
			t.Errorf("artifactURI(%q, %+v) = %q, %v; want %q, %v", tt.path, tt.meta, uri, rel, tt.uri, tt.rel)
		}
	}
}

func TestSemver(t *testing.T) {
	for v, want := range map[string]string{"0.1.0-dev": "0.1.0-dev", "v1.2.3": "1.2.3", "(devel)": "", "1.2": "", "": ""} {
		if got := semver(v); got != want {
			t.Errorf("semver(%q) = %q, want %q", v, got, want)
		}
	}
}
