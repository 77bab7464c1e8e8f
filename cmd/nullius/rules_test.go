package main

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/output"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// properNouns may start a title capitalised; acronyms (JSON, IR) may too.
var properNouns = map[string]bool{"Gaia": true, "GitHub": true, "Python": true, "Jeffreys": true}

// TestRuleMetadata holds every rule linked into the binary to the registry
// contract of the spec: docs complete enough for explain, SARIF and
// docs/rules.md, a kebab-case name, a lowercase title without a period.
func TestRuleMetadata(t *testing.T) {
	rules := diag.All()
	if len(rules) == 0 {
		t.Fatal("no rule is registered in the nullius binary")
	}
	for _, r := range rules {
		var problems []string
		fields := map[string]string{"Title": r.Title, "Text": r.Text, "Bad": r.Bad, "Good": r.Good, "Since": r.Since}
		if r.Retired != "" {
			// A retired code has no examples (Family.Retire), only its reason.
			delete(fields, "Bad")
			delete(fields, "Good")
		}
		for field, v := range fields {
			if strings.TrimSpace(v) == "" {
				problems = append(problems, field+" is empty")
			}
		}
		if !kebab.MatchString(r.Name) {
			problems = append(problems, "name "+r.Name+" is not kebab-case")
		}
		if r.Origin != "reference" && r.Origin != "nullius" {
			problems = append(problems, `origin is not "reference" or "nullius"`)
		}
		if strings.HasSuffix(r.Title, ".") {
			problems = append(problems, "title ends with a period")
		}
		if first, _, _ := strings.Cut(r.Title, " "); first != "" && unicode.IsUpper([]rune(first)[0]) && strings.ToUpper(first) != first && !properNouns[first] {
			problems = append(problems, "title starts with a capital letter")
		}
		if n := len([]rune(r.Title)); n > 80 {
			problems = append(problems, "title is longer than 80 characters")
		}
		if r.Bad != "" && r.Bad == r.Good {
			problems = append(problems, "failing and passing examples are the same")
		}
		if len(problems) > 0 {
			t.Errorf("rule %s (%s): %s", r.Code, r.Name, strings.Join(problems, "; "))
		}
	}
}

// TestRulesDocFresh fails when docs/rules.md no longer matches the
// registry.
func TestRulesDocFresh(t *testing.T) {
	var want bytes.Buffer
	if err := output.WriteRulesMarkdown(&want, diag.All()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatalf("%v; run 'make rules-doc' (go run ./cmd/nullius rules --format markdown -o docs/rules.md) to create it", err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("docs/rules.md is stale: the rule registry changed (%s); run 'make rules-doc' (go run ./cmd/nullius rules --format markdown -o docs/rules.md) and commit the result",
			headingDiff(string(got), want.String()))
	}
}

func TestOneLineError(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"unknown command \"lnt\" for \"nullius\"\n\nDid you mean this?\n\tlint\n", `unknown command "lnt" for "nullius" (did you mean "lint"?); run 'nullius --help' to list the commands`},
		{"unknown command \"zz\" for \"nullius\"", `unknown command "zz" for "nullius"; run 'nullius --help' to list the commands`},
		{"first\nsecond", `first: "second"`},
	}
	for _, tt := range tests {
		if got := oneLineError(tt.in); got != tt.want {
			t.Errorf("oneLineError(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestColorEnabled(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	var notTTY bytes.Buffer
	tests := []struct {
		name string
		flag string
		env  func(string) string
		want bool
	}{
		{"flag always beats NO_COLOR", "always", env("NO_COLOR", "1"), true},
		{"flag never beats FORCE_COLOR", "never", env("FORCE_COLOR", "1"), false},
		{"NO_COLOR beats FORCE_COLOR", "auto", env("NO_COLOR", "1", "FORCE_COLOR", "1"), false},
		{"NO_COLOR beats CLICOLOR_FORCE", "auto", env("NO_COLOR", "x", "CLICOLOR_FORCE", "1"), false},
		{"FORCE_COLOR colours a pipe", "auto", env("FORCE_COLOR", "1"), true},
		{"CLICOLOR_FORCE colours a pipe", "auto", env("CLICOLOR_FORCE", "1"), true},
		{"FORCE_COLOR=0 does not force", "auto", env("FORCE_COLOR", "0"), false},
		{"FORCE_COLOR beats TERM=dumb", "auto", env("FORCE_COLOR", "1", "TERM", "dumb"), true},
		{"empty NO_COLOR is unset", "auto", env("NO_COLOR", "", "FORCE_COLOR", "1"), true},
		{"a pipe is not a terminal", "auto", env(), false},
	}
	for _, tt := range tests {
		if got := colorEnabled(tt.flag, tt.env, &notTTY); got != tt.want {
			t.Errorf("%s: colorEnabled = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRepoRoot(t *testing.T) {
	dir := t.TempDir()
	sub := dir + "/a/b"
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := repoRoot(sub); got != sub {
		t.Errorf("no .git: repoRoot = %q, want the directory itself", got)
	}
	if err := os.WriteFile(dir+"/.git", []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := repoRoot(sub); got != dir {
		t.Errorf("repoRoot = %q, want %q", got, dir)
	}
}

// headingDiff names the rule sections one document has and the other lacks,
// so a stale-doc failure says which rules moved.
func headingDiff(got, want string) string {
	heads := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "## ") {
				m[strings.TrimPrefix(l, "## ")] = true
			}
		}
		return m
	}
	g, w := heads(got), heads(want)
	var parts []string
	for h := range w {
		if !g[h] {
			parts = append(parts, "missing "+h)
		}
	}
	for h := range g {
		if !w[h] {
			parts = append(parts, "no longer registered "+h)
		}
	}
	if len(parts) == 0 {
		return "same rules, changed texts"
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// FuzzOneLineError: whatever cobra or a command returns, the user gets one
// line.
func FuzzOneLineError(f *testing.F) {
	f.Add("unknown command \"lnt\" for \"nullius\"\n\nDid you mean this?\n\tlint\n")
	f.Add("plain")
	f.Add("a\r\nb\n\n")
	f.Fuzz(func(t *testing.T, msg string) {
		if got := oneLineError(msg); strings.ContainsAny(got, "\r\n") {
			t.Fatalf("oneLineError(%q) = %q spans lines", msg, got)
		}
	})
}
