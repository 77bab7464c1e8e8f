package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/golden"
)

func testRules() []diag.Rule {
	return []diag.Rule{*testErrorRule, *testWarningRule}
}

func TestRulesTable(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteRulesTable(&buf, testRules()); err != nil {
		t.Fatal(err)
	}
	want := "CODE        SEVERITY  NAME               TITLE\n" +
		"NULLIUS991  error     test-error-rule    a test rule that reports errors\n" +
		"NULLIUS992  warning   test-warning-rule  a test rule that reports warnings\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestRulesJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteRulesJSON(&buf, testRules()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version int
		Tool    string
		Rules   []diag.Rule
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || doc.Tool != "nullius" || len(doc.Rules) != 2 || doc.Rules[1] != testRules()[1] {
		t.Errorf("rules JSON round trip: %+v", doc)
	}
	buf.Reset()
	WriteRulesJSON(&buf, nil)
	if !strings.Contains(buf.String(), `"rules": []`) {
		t.Errorf("no rules gives %s, want an empty list", buf.String())
	}
}

func TestRulesMarkdownAndExplain(t *testing.T) {
	var md bytes.Buffer
	if err := WriteRulesMarkdown(&md, testRules()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/rules.md", md.Bytes())
	// The index links must land on the headings GitHub anchors.
	if !strings.Contains(md.String(), "[NULLIUS991](#nullius991-test-error-rule)") || !strings.Contains(md.String(), "\n## NULLIUS991 test-error-rule\n") {
		t.Error("index link and heading disagree")
	}
	// Angle brackets in prose are escaped; in examples they stay as written.
	if !strings.Contains(md.String(), "; &lt;pkg>/&lt;import_name>/ stays visible.") {
		t.Error("angle brackets in the rule text were not escaped for Markdown")
	}
	// An example holding ``` is fenced with four backticks.
	if !strings.Contains(md.String(), "````\nx = ```fenced```\n````") {
		t.Error("example containing a fence is not fenced safely")
	}
	var ex bytes.Buffer
	if err := WriteExplain(&ex, testRules()[0]); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/explain.txt", ex.Bytes())
}

func TestMDText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a <b> c", "a &lt;b> c"},
		{"use `<pkg>/<mod>` or <x>", "use `<pkg>/<mod>` or &lt;x>"},
		{"`<a>` and `<b>`", "`<a>` and `<b>`"},
		{"no brackets", "no brackets"},
		{"unclosed ` <b>", "unclosed ` &lt;b>"},
	}
	for _, tt := range tests {
		if got := mdText(tt.in); got != tt.want {
			t.Errorf("mdText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRetiredRule: a retired code is documented as retired (table,
// Markdown, explain) and has no SARIF descriptor, since nothing reports
// it.
func TestRetiredRule(t *testing.T) {
	r, ok := diag.Lookup(testRetiredCode)
	if !ok || r.Retired == "" {
		t.Fatalf("%s is not registered as retired", testRetiredCode)
	}
	var table, md, ex bytes.Buffer
	if err := WriteRulesTable(&table, []diag.Rule{r}); err != nil {
		t.Fatal(err)
	}
	if err := WriteRulesMarkdown(&md, []diag.Rule{r}); err != nil {
		t.Fatal(err)
	}
	if err := WriteExplain(&ex, r); err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"table": table.String(), "markdown": md.String(), "explain": ex.String()} {
		if !strings.Contains(s, "retired") && !strings.Contains(s, "Retired") {
			t.Errorf("%s does not say the code is retired:\n%s", what, s)
		}
	}
	for what, s := range map[string]string{"markdown": md.String(), "explain": ex.String()} {
		if !strings.Contains(s, "Its check moved to NULLIUS991.") {
			t.Errorf("%s does not give the reason:\n%s", what, s)
		}
	}
	if !strings.Contains(table.String(), "NULLIUS993  retired") {
		t.Errorf("table severity is not 'retired':\n%s", table.String())
	}
	rules, _ := sarifRules(nil)
	for _, sr := range rules {
		if sr.ID == testRetiredCode {
			t.Errorf("the retired %s has a SARIF descriptor", testRetiredCode)
		}
	}
}

const testRetiredCode = "NULLIUS993"

var _ = diag.Family("output-test").Declare(func() []*diag.Rule {
	return []*diag.Rule{{Code: testRetiredCode, Name: "test-retired-rule", Severity: diag.Error,
		Title: "a retired test rule", Text: "What it checked.", Retired: "Its check moved to NULLIUS991.",
		Since: "0.1.0", Origin: "nullius", Owner: "output-test"}}
})
