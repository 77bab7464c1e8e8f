package output

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/nullius-dev/nullius/internal/diag"
)

// The rule catalogue is printed from the registry alone, in every form it
// takes: the `nullius rules` table and JSON, `nullius explain`, the SARIF
// rules[] help, and docs/rules.md. Nothing is written twice.

// RuleAnchor is the GitHub Markdown anchor of a rule's heading in
// docs/rules.md ("## GAIA011 infer-off-grade-pair" → "gaia011-infer-off-grade-pair").
func RuleAnchor(r diag.Rule) string {
	return strings.ToLower(strings.TrimSuffix(r.Code+"-"+r.Name, "-"))
}

// RuleURL is the address of a rule's section of docs/rules.md, the link
// SARIF's helpUri and the language server's codeDescription give.
func RuleURL(r diag.Rule) string {
	return rulesDocURI + "#" + RuleAnchor(r)
}

func sortRules(rs []diag.Rule) {
	slices.SortFunc(rs, func(a, b diag.Rule) int { return cmp.Compare(a.Code, b.Code) })
}

// WriteRulesTable prints one row per rule: code, severity, name, title.
func WriteRulesTable(w io.Writer, rules []diag.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tSEVERITY\tNAME\tTITLE")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Code, severityCell(r), r.Name, r.Title)
	}
	return tw.Flush()
}

// severityCell is a rule's severity in the catalogue, "retired" for a
// code no check reports any more.
func severityCell(r diag.Rule) string {
	if r.Retired != "" {
		return "retired"
	}
	return string(r.Severity)
}

// WriteRulesJSON prints {"version":1,"tool":"nullius","rules":[...]}.
func WriteRulesJSON(w io.Writer, rules []diag.Rule) error {
	if rules == nil {
		rules = []diag.Rule{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Version int         `json:"version"`
		Tool    string      `json:"tool"`
		Rules   []diag.Rule `json:"rules"`
	}{1, "nullius", rules})
}

// WriteRulesMarkdown prints docs/rules.md: an index table, then one
// section per rule with its text and examples.
func WriteRulesMarkdown(w io.Writer, rules []diag.Rule) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("# nullius rules\n\n")
	bw.WriteString("<!-- Generated from the rule registry by `make rules-doc`\n")
	bw.WriteString("     (go run ./cmd/nullius rules --format markdown -o docs/rules.md). Do not edit by hand. -->\n\n")
	bw.WriteString("Every rule nullius reports, with its stable code and kebab-case name (either may be\n")
	bw.WriteString("used wherever a rule is named). `error` findings block the gate (exit 1); `warning`\n")
	bw.WriteString("findings are review flags. `nullius explain CODE` prints the same text in a terminal.\n\n")
	bw.WriteString("Every failing example below produces exactly its rule and every passing example nothing; the\n")
	bw.WriteString("test suite runs them (cmd/nullius/examples_test.go). A Python example is the module\n")
	bw.WriteString("`src/my_idea/__init__.py` of a package; an example led by `-- name --` lines is a set of\n")
	bw.WriteString("files, run with the `$ nullius ...` command on its first line. A JSON example is merged into\n")
	bw.WriteString("the clean file of that name: objects member by member (`null` deletes a member), list entries\n")
	bw.WriteString("by their `id`, `strategy_id`, `ref_key`, `reference`, `source_id` or `candidate_id` (other\n")
	bw.WriteString("lists are replaced). One marked `.gaia/ir.json` is merged into the compiled IR of a clean\n")
	bw.WriteString("package (`fixtures/rules/package`); one under `artifacts/` into the clean close-prior project\n")
	bw.WriteString("(`fixtures/prior/project`: survey, matrix, the ledger and its pinned files, report, gate\n")
	bw.WriteString("result, and that package compiled as `my-idea-gaia/`), where `#sha256:<pin>` stands for the\n")
	bw.WriteString("exact digest of the file it pins. An extraction example is a project whose package\n")
	bw.WriteString("`my-idea-gaia/` is that clean package before compiling, run with a stand-in gaia; a\n")
	bw.WriteString("`$ gaia ...` transcript before the command shows what gaia printed. The writeback examples\n")
	bw.WriteString("start from that project with the package bound and extracted (`posterior.json` is what\n")
	bw.WriteString("`nullius extract` printed) and a stand-in idea store behind `node`; the absorb examples from\n")
	bw.WriteString("the project of the absorb scripts (`fixtures/absorb`); earlier `$ nullius ...` lines of a\n")
	bw.WriteString("transcript ran before the files were written, `# killed at the crash point P` kills the line\n")
	bw.WriteString("above it there, and a file marked `(saved during the absorb)` is saved while the absorb runs.\n")
	bw.WriteString("A code marked retired is no longer reported and has no examples; codes are never reused.\n\n")
	fmt.Fprintf(bw, "%d rules.\n\n", len(rules))
	bw.WriteString("| code | name | severity | title |\n|---|---|---|---|\n")
	for _, r := range rules {
		fmt.Fprintf(bw, "| [%s](#%s) | %s | %s | %s |\n", r.Code, RuleAnchor(r), r.Name, severityCell(r), mdCell(r.Title))
	}
	for _, r := range rules {
		fmt.Fprintf(bw, "\n## %s %s\n\n", r.Code, r.Name)
		if r.Title != "" {
			fmt.Fprintf(bw, "*%s*\n\n", mdText(r.Title))
		}
		fmt.Fprintf(bw, "Severity: %s. Since: %s. Origin: %s.\n", r.Severity, cmp.Or(r.Since, "?"), originText(r.Origin))
		if r.Retired != "" {
			fmt.Fprintf(bw, "\n**Retired**: no check reports this code any more (codes are never reused). %s\n", mdText(r.Retired))
		}
		if r.Text != "" {
			bw.WriteString("\n" + mdText(strings.TrimSpace(r.Text)) + "\n")
		}
		for _, ex := range []string{exampleMarkdown(exampleLabel("Failing example", r), r.Code, r.Bad), exampleMarkdown(exampleLabel("Passing example", r), r.Code, r.Good)} {
			if ex != "" {
				bw.WriteString("\n" + strings.TrimRight(ex, "\n") + "\n")
			}
		}
	}
	return bw.Flush()
}

// WriteExplain prints what `nullius explain CODE` shows: title, severity,
// origin, text, a failing and a passing example.
func WriteExplain(w io.Writer, r diag.Rule) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %s: %s\n\n", r.Code, r.Name, r.Title)
	fmt.Fprintf(bw, "Severity: %s (%s)\n", r.Severity, severityMeaning(r.Severity))
	fmt.Fprintf(bw, "Origin:   %s\n", originText(r.Origin))
	fmt.Fprintf(bw, "Since:    %s\n", cmp.Or(r.Since, "?"))
	if r.Retired != "" {
		fmt.Fprintf(bw, "Retired:  no check reports this code any more (codes are never reused). %s\n", r.Retired)
	}
	bw.WriteString("\n")
	if r.Text != "" {
		bw.WriteString(strings.TrimSpace(r.Text) + "\n\n")
	}
	for _, ex := range []struct{ label, code string }{{exampleLabel("Failing example", r), r.Bad}, {exampleLabel("Passing example", r), r.Good}} {
		if strings.TrimSpace(ex.code) == "" {
			continue
		}
		bw.WriteString(ex.label + ":\n\n")
		for _, line := range strings.Split(strings.TrimRight(ex.code, "\n"), "\n") {
			bw.WriteString(strings.TrimRight("    "+line, " ") + "\n")
		}
		bw.WriteString("\n")
	}
	fmt.Fprintf(bw, "Docs: %s\n", RuleURL(r))
	return bw.Flush()
}

// ruleHelpText is the SARIF help.text: the rule text and both examples.
func ruleHelpText(r diag.Rule) string {
	parts := []string{cmp.Or(strings.TrimSpace(r.Text), cmp.Or(r.Title, r.Code))}
	if strings.TrimSpace(r.Bad) != "" {
		parts = append(parts, exampleLabel("Failing example", r)+":\n"+strings.TrimRight(r.Bad, "\n"))
	}
	if strings.TrimSpace(r.Good) != "" {
		parts = append(parts, exampleLabel("Passing example", r)+":\n"+strings.TrimRight(r.Good, "\n"))
	}
	return strings.Join(parts, "\n\n")
}

// ruleHelpMarkdown is the SARIF help.markdown, the same content as
// docs/rules.md has for the rule.
func ruleHelpMarkdown(r diag.Rule) string {
	if r.Text == "" && r.Bad == "" && r.Good == "" {
		return ""
	}
	s := mdText(strings.TrimSpace(r.Text)) + "\n\n" + exampleMarkdown(exampleLabel("Failing example", r), r.Code, r.Bad) + exampleMarkdown(exampleLabel("Passing example", r), r.Code, r.Good)
	return strings.TrimSpace(s)
}

// exampleLabel names what an example is: the file it is, and for the
// compiled files that it is a change to the clean compiled package.
func exampleLabel(label string, r diag.Rule) string {
	switch {
	case strings.HasPrefix(r.Input, ".gaia/"):
		return label + " (" + r.Input + ", merged into a clean compiled package)"
	case strings.HasPrefix(r.Input, "artifacts/"):
		return label + " (" + r.Input + ", merged into the clean close-prior project)"
	case r.Input != "":
		return label + " (" + r.Input + ")"
	}
	return label
}

// exampleMarkdown fences code with more backticks than it contains, so an
// example holding ``` cannot end its own block.
func exampleMarkdown(label, ruleCode, code string) string {
	if strings.TrimSpace(code) == "" {
		return ""
	}
	fence := "```"
	for strings.Contains(code, fence) {
		fence += "`"
	}
	return label + ":\n\n" + fence + exampleLang(ruleCode, code) + "\n" + strings.TrimRight(code, "\n") + "\n" + fence + "\n\n"
}

// exampleLang names the highlighting language of an example: JSON when it
// is a JSON document, Python for the Gaia source rules (GAIA0xx, GAIA5xx,
// GAIA9xx), none otherwise rather than a wrong guess.
func exampleLang(ruleCode, code string) string {
	t := strings.TrimSpace(code)
	switch {
	case strings.HasPrefix(t, "{") || strings.HasPrefix(t, "["):
		if json.Valid([]byte(t)) {
			return "json"
		}
	case len(ruleCode) == 7 && strings.HasPrefix(ruleCode, "GAIA") && strings.ContainsRune("059", rune(ruleCode[4])):
		return "python"
	}
	return ""
}

func mdCell(s string) string { return strings.ReplaceAll(mdText(s), "|", `\|`) }

// mdText keeps prose such as "<package>/<import_name>/" visible in
// Markdown, where it would otherwise be read as HTML tags and dropped.
// Inside `code spans` the text is shown as written, so it is left alone.
func mdText(s string) string {
	parts := strings.Split(s, "`")
	for i := range parts {
		// Odd parts are inside a span, except after an unclosed backtick,
		// which Markdown prints as a literal character.
		if i%2 == 0 || (i == len(parts)-1 && len(parts)%2 == 0) {
			parts[i] = strings.ReplaceAll(parts[i], "<", "&lt;")
		}
	}
	return strings.Join(parts, "`")
}

func originText(o string) string {
	switch o {
	case "reference":
		return "reference (ported from the Python tools)"
	case "nullius":
		return "nullius (new; closes a weakness of the reference)"
	}
	return cmp.Or(o, "?")
}

func severityMeaning(s diag.Severity) string {
	if s == diag.Error {
		return "blocks the gate: exit 1"
	}
	return "review flag: reported, never blocking"
}
