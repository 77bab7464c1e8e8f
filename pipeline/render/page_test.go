package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/golden"
)

// renderFixture renders a fixture the way Render does, with the page placed
// in the package directory and the repository as project root.
func renderFixture(t testing.TB, name string) (*Graph, string) {
	t.Helper()
	pkg := filepath.Join(fixtures, name)
	g, err := Load(pkg)
	if err != nil {
		t.Fatal(err)
	}
	page, err := Page(g, ComputeLayout(g), PageOptions{
		Version: "test", IRPin: g.IRPin,
		Resolver: &Resolver{Package: pkg, Root: "../..", PageDir: pkg},
	})
	if err != nil {
		t.Fatal(err)
	}
	return g, string(page)
}

var (
	scriptRE = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	styleRE  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
	dataRE   = regexp.MustCompile(`(?s)<script type="application/json" id="graph-data">(.*?)</script>`)
	cspRE    = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// TestGoldenNormalPage compares the page structure with
// testdata/normal.golden.html (-update records it). The golden file holds
// the page as goldenPage rewrites it: the embedded stylesheet and script as
// a reference to their asset file and its digest, so editing an asset
// changes one line of the golden file and a mismatch is a readable diff.
func TestGoldenNormalPage(t *testing.T) {
	_, page := renderFixture(t, "normal")
	golden.Check(t, filepath.Join("testdata", "normal.golden.html"), []byte(goldenPage(t, page)))
}

// goldenPage rewrites a page for its golden file: the inline <style> and
// <script> that carry an asset verbatim become "/* asset NAME sha256:HEX */"
// (the generated card positions after the stylesheet stay), the CSP's two
// hashes name the block they hash (TestCSPHashesMatchTheExactInlineText
// checks the values), and the graph data is indented one member a line.
func goldenPage(t *testing.T, page string) string {
	t.Helper()
	ref := func(name string) (string, string) {
		b, err := assets.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), fmt.Sprintf("/* asset %s sha256:%x */", name, sha256.Sum256(b))
	}
	css, cssRef := ref("assets/page.css")
	js, jsRef := ref("assets/page.js")
	style, script := styleRE.FindStringSubmatch(page), scriptRE.FindStringSubmatch(page)
	if style == nil || script == nil || !strings.HasPrefix(style[1], css) || script[1] != js {
		t.Fatal("the page does not embed assets/page.css at the start of its <style> and assets/page.js as its <script>")
	}
	page = strings.Replace(page, style[0], "<style>"+cssRef+strings.TrimPrefix(style[1], css)+"</style>", 1)
	page = strings.Replace(page, script[0], "<script>"+jsRef+"</script>", 1)
	if csp := cspRE.FindStringSubmatch(page); csp != nil {
		policy := html.UnescapeString(csp[1])
		policy = strings.Replace(policy, sha(script[1]), "'sha256 of the <script>'", 1)
		policy = strings.Replace(policy, sha(style[1]), "'sha256 of the <style>'", 1)
		page = strings.Replace(page, csp[0], `<meta http-equiv="Content-Security-Policy" content="`+policy+`">`, 1)
	}
	if data := dataRE.FindStringSubmatch(page); data != nil {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(data[1]), "", " "); err != nil {
			t.Fatalf("graph data is not JSON: %v", err)
		}
		page = strings.Replace(page, data[0], `<script type="application/json" id="graph-data">`+b.String()+"</script>", 1)
	}
	return page
}

func TestCSPHashesMatchTheExactInlineText(t *testing.T) {
	for _, name := range []string{"normal", "hostile"} {
		_, page := renderFixture(t, name)
		csp := cspRE.FindStringSubmatch(page)
		scripts := scriptRE.FindAllStringSubmatch(page, -1)
		styles := styleRE.FindAllStringSubmatch(page, -1)
		if csp == nil || len(scripts) != 1 || len(styles) != 1 {
			t.Fatalf("%s: want one CSP meta, one executable script, one style; got %v, %d, %d", name, csp != nil, len(scripts), len(styles))
		}
		policy := html.UnescapeString(csp[1]) // the browser decodes the attribute the same way
		want := "default-src 'none'; script-src " + sha(scripts[0][1]) + "; style-src " + sha(styles[0][1]) + ";"
		if !strings.HasPrefix(policy, want) {
			t.Errorf("%s: CSP %q does not start with %q", name, policy, want)
		}
		for _, bad := range []string{"unsafe-inline", "unsafe-eval", "http:", "https:", "*", "data:"} {
			if strings.Contains(policy, bad) {
				t.Errorf("%s: CSP allows %q", name, bad)
			}
		}
		if strings.Index(page, "Content-Security-Policy") > strings.Index(page, "<style>") {
			t.Errorf("%s: the CSP meta must come before any inline style or script", name)
		}
	}
}

func TestPageScriptNeverParsesHTML(t *testing.T) {
	js, err := assets.ReadFile("assets/page.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "setTimeout('", "srcdoc", ".onclick", "javascript:"} {
		if bytes.Contains(js, []byte(bad)) {
			t.Errorf("page.js uses %q", bad)
		}
	}
	for _, need := range []string{"textContent", "createElement", "safeHref"} {
		if !bytes.Contains(js, []byte(need)) {
			t.Errorf("page.js lacks %q", need)
		}
	}
}

func TestHostilePageIsInert(t *testing.T) {
	_, page := renderFixture(t, "hostile")
	if n := strings.Count(strings.ToLower(page), "<script"); n != 2 {
		t.Errorf("%d <script tags, want exactly 2 (graph data + our script)", n)
	}
	if n := strings.Count(strings.ToLower(page), "</script"); n != 2 {
		t.Errorf("%d </script tags, want exactly 2", n)
	}
	for _, bad := range []string{"<img", "onerror=alert(1)>", "href=\"javascript", "<!--"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// No element carries an event-handler attribute, and only our own
	// element names appear.
	ours := map[string]bool{}
	for _, n := range strings.Fields("html head meta title style body header h1 h2 h3 span p button section ul li svg path rect circle b main div defs marker g text article aside details summary footer code script noscript") {
		ours[n] = true
	}
	tags := regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*/?>`).FindAllStringSubmatch(page, -1)
	if len(tags) < 60 {
		t.Fatalf("only %d tags parsed; the check would prove nothing", len(tags))
	}
	for _, tag := range tags {
		if !ours[strings.ToLower(tag[1])] {
			t.Errorf("unexpected element <%s>", tag[1])
		}
		for _, a := range regexp.MustCompile(`\s+([^\s=>/]+)(?:="[^"]*")?`).FindAllStringSubmatch(tag[2], -1) {
			if strings.HasPrefix(strings.ToLower(a[1]), "on") {
				t.Errorf("event handler attribute %q on <%s>", a[1], tag[1])
			}
		}
	}
	data := dataRE.FindStringSubmatch(page)
	if data == nil {
		t.Fatal("no graph-data block")
	}
	if strings.ContainsAny(data[1], "<>&\u2028\u2029") {
		t.Error("graph-data holds a raw <, >, &, U+2028 or U+2029")
	}
	var g jsonGraph
	if err := json.Unmarshal([]byte(data[1]), &g); err != nil {
		t.Fatalf("graph-data is not JSON: %v", err)
	}
	if !strings.Contains(g.Nodes[0].Statement, "<script>alert(1)</script>") || !strings.Contains(g.Nodes[0].Statement, "\u2028") {
		t.Errorf("statement text must survive the round trip: %q", g.Nodes[0].Statement)
	}
	for _, e := range g.Edges {
		for _, s := range e.Anchors {
			if s.Href != "" && !allowedHref.MatchString(s.Href) {
				t.Errorf("edge %d: href %q", e.Index, s.Href)
			}
		}
	}
	// The statement is on the card, escaped.
	if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("card statement not shown escaped")
	}
}

func TestNormalPageContent(t *testing.T) {
	_, page := renderFixture(t, "normal")
	var g jsonGraph
	if err := json.Unmarshal([]byte(dataRE.FindStringSubmatch(page)[1]), &g); err != nil {
		t.Fatal(err)
	}
	three := regexp.MustCompile(`^[01]\.[0-9]{3}$`)
	for _, n := range g.Nodes {
		if !three.MatchString(n.Posterior) || (n.Prior != "" && !three.MatchString(n.Prior)) {
			t.Errorf("%s: posterior %q prior %q not three decimals", n.Name, n.Posterior, n.Prior)
		}
	}
	for _, e := range g.Edges {
		if !three.MatchString(e.PEH) || !three.MatchString(e.PENH) {
			t.Errorf("edge %d: %q %q not three decimals", e.Index, e.PEH, e.PENH)
		}
	}
	if g.Nodes[0].Name != "worth" || g.Nodes[0].Posterior != "0.850" {
		t.Errorf("worth posterior %q", g.Nodes[0].Posterior)
	}
	// Card values on the static page too.
	for _, m := range regexp.MustCompile(`<span class="v">([^<]*)</span>`).FindAllStringSubmatch(page, -1) {
		if !three.MatchString(m[1]) {
			t.Errorf("card value %q not three decimals", m[1])
		}
	}
	links := map[string]string{}
	for _, e := range g.Edges {
		for _, s := range e.Anchors {
			links[s.Text] = s.Href
		}
	}
	for _, n := range g.Nodes {
		for _, o := range n.Observations {
			for _, s := range o.Anchors {
				links[s.Text] = s.Href
			}
		}
	}
	want := map[string]string{
		"docs/executed-check.md#results":     "docs/executed-check.md#results",
		"https://arxiv.org/abs/2401.00001":   "https://arxiv.org/abs/2401.00001",
		"docs/budget.md":                     "docs/budget.md",
		"https://example.org/compute-budget": "https://example.org/compute-budget",
		"docs/executed-check.md":             "docs/executed-check.md",
	}
	for text, href := range want {
		if links[text] != href {
			t.Errorf("anchor %q links to %q, want %q (all: %v)", text, links[text], href, links)
		}
	}
	if g.Edges[1].Anchors[len(g.Edges[1].Anchors)-1].Href != "" || !strings.Contains(g.Edges[1].Anchors[len(g.Edges[1].Anchors)-1].Text, "docs/missing-note.md") {
		t.Errorf("a missing Markdown file must stay text: %+v", g.Edges[1].Anchors)
	}
	if g.Edges[2].Direction != "lowers" || !strings.Contains(page, `class="edge lowers grade-weak"`) {
		t.Error("ev_cost -> worth must be a dashed (lowers) weak edge")
	}
}

// Every button, control and expandable carries an id (the browser test also
// checks the elements the script creates).
func TestControlsHaveIDs(t *testing.T) {
	for _, name := range []string{"normal", "hostile"} {
		_, page := renderFixture(t, name)
		tags := regexp.MustCompile(`<(button|details|summary|a|input|select|textarea|article|g class="edge)[\s>][^>]*>`).FindAllString(page, -1)
		if len(tags) == 0 {
			t.Fatal("no controls found")
		}
		for _, tag := range tags {
			if !strings.Contains(tag, ` id="`) {
				t.Errorf("%s: control without id: %s", name, tag)
			}
		}
		ids := regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(page, -1)
		seen := map[string]bool{}
		for _, m := range ids {
			if seen[m[1]] {
				t.Errorf("%s: duplicate id %q", name, m[1])
			}
			seen[m[1]] = true
		}
		for _, id := range []string{"legend-toggle", "legend-body", "detail", "detail-close", "graph-data"} {
			if !seen[id] {
				t.Errorf("%s: no element with id %q", name, id)
			}
		}
	}
}

func TestEscapeScriptJSON(t *testing.T) {
	got := EscapeScriptJSON([]byte("\"</script><!--&\u2028\u2029\""))
	want := `"\u003c/script\u003e\u003c!--\u0026\u2028\u2029"`
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestRenderWritesAtomically(t *testing.T) {
	pkg := writePkg(t, map[string]string{"ir.json": okIR, "beliefs.json": okBeliefs})
	res, err := Render(Options{Package: pkg, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != filepath.Join(pkg, PageName) || res.Nodes != 2 || res.Edges != 1 {
		t.Fatalf("result %+v", res)
	}
	entries, _ := os.ReadDir(pkg)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	// A failed render leaves the old page alone and writes nothing new.
	must(t, os.WriteFile(filepath.Join(pkg, ".gaia", "beliefs.json"), []byte("{"), 0o644))
	before, _ := os.ReadFile(res.Path)
	if _, err := Render(Options{Package: pkg}); err == nil {
		t.Fatal("malformed beliefs must fail")
	}
	after, _ := os.ReadFile(res.Path)
	if !bytes.Equal(before, after) {
		t.Error("a failed render changed the existing page")
	}
	if _, err := Render(Options{Package: filepath.Join(pkg, "nope")}); err == nil {
		t.Error("a missing package must fail")
	}
	if _, err := Render(Options{Package: res.Path}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as package: %v", err)
	}
}

func FuzzPage(f *testing.F) {
	for _, name := range []string{"normal", "hostile"} {
		b, err := os.ReadFile(filepath.Join(fixtures, name, ".gaia", "ir.json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(okIR))
	f.Add([]byte(`{"knowledges": [{"id": "a", "label": "a"}], "strategies": [{"type": "infer", "premises": ["a"], "conclusion": "a", "conditional_probabilities": [0, 1]}]}`))
	f.Add([]byte(`{"knowledges": []}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := ParseIR("ir.json", src)
		if err != nil {
			return
		}
		page, err := Page(g, ComputeLayout(g), PageOptions{Version: "fuzz", Resolver: &Resolver{}})
		if err != nil {
			t.Fatal(err)
		}
		low := strings.ToLower(string(page))
		if strings.Count(low, "<script") != 2 || strings.Count(low, "</script") != 2 || strings.Contains(low, "<img") {
			t.Fatalf("graph text escaped its context:\n%s", page)
		}
	})
}

func TestFindProjectRoot(t *testing.T) {
	tmp := t.TempDir()
	pkg := filepath.Join(tmp, "a", "b", "pkg")
	must(t, os.MkdirAll(pkg, 0o755))
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	if got := FindProjectRoot(pkg); got != abs(pkg) {
		t.Errorf("no marker: root %q, want the package itself", got)
	}
	must(t, os.MkdirAll(filepath.Join(tmp, "a", "b", ".git"), 0o755))
	if got := FindProjectRoot(pkg); got != filepath.Join(tmp, "a", "b") {
		t.Errorf(".git: root %q", got)
	}
	// A regular file named .nullius is not the marker (as for every other
	// command): the .git directory still decides.
	must(t, os.WriteFile(filepath.Join(tmp, "a", "b", "pkg", ".nullius"), nil, 0o644))
	if got := FindProjectRoot(pkg); got != filepath.Join(tmp, "a", "b") {
		t.Errorf(".nullius file: root %q", got)
	}
	// .nullius/ is the project's own marker and wins over a nearer .git.
	must(t, os.MkdirAll(filepath.Join(tmp, "a", ".nullius"), 0o755))
	if got := FindProjectRoot(pkg); got != filepath.Join(tmp, "a") {
		t.Errorf(".nullius: root %q", got)
	}
}
