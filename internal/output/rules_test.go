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
