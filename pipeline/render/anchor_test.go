package render

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// project builds: tmp/proj (.git) with pkg/docs/{a.md,ü.md,dir.md/,link.md -> ../../../outside/secret.md}
// and shared/b.md, docs/notes.txt, docs/page.html and the match artifact
// shared/matches/match-5d0b3e21.json; tmp/outside/secret.md lies outside the
// project.
func project(t *testing.T) (proj, pkg string) {
	t.Helper()
	tmp := t.TempDir()
	proj = filepath.Join(tmp, "proj")
	pkg = filepath.Join(proj, "pkg")
	for _, d := range []string{".git", "pkg/docs/dir.md", "shared/matches"} {
		must(t, os.MkdirAll(filepath.Join(proj, d), 0o755))
	}
	must(t, os.MkdirAll(filepath.Join(tmp, "outside"), 0o755))
	for _, f := range []string{"proj/pkg/docs/a.md", "proj/pkg/docs/ü.md", "proj/shared/b.md", "outside/secret.md", "proj/pkg/docs/notes.txt",
		"proj/pkg/docs/page.html", "proj/shared/matches/match-5d0b3e21.json"} {
		must(t, os.WriteFile(filepath.Join(tmp, f), []byte("# x\n"), 0o644))
	}
	must(t, os.Symlink(filepath.Join(tmp, "outside", "secret.md"), filepath.Join(pkg, "docs", "link.md")))
	must(t, os.Symlink(filepath.Join(pkg, "docs", "a.md"), filepath.Join(pkg, "docs", "inner-link.md")))
	return proj, pkg
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestAnchorText(t *testing.T) {
	for _, tc := range []struct {
		in, ref string
		ok      bool
	}{
		{"reader_reasoning: x. anchor: survey artifact", "survey artifact", true},
		{"evidence_family: a; correlation_model: single; ctx. anchor:   report.md  \n", "report.md", true},
		{"no sentinel here", "", false},
		{"reanchor: x", "x", true}, // not word-bounded, as the reference
		{"a anchor: one anchor: two", "one anchor: two", true},
		{"Anchor: capital", "", false}, // case-sensitive
		{"anchor:", "", true},
	} {
		ref, ok := AnchorText(tc.in)
		if ref != tc.ref || ok != tc.ok {
			t.Errorf("AnchorText(%q) = %q, %v; want %q, %v", tc.in, ref, ok, tc.ref, tc.ok)
		}
	}
}

func TestSegmentsLinks(t *testing.T) {
	proj, pkg := project(t)
	r := &Resolver{Package: pkg, Root: proj, PageDir: pkg}
	for _, tc := range []struct {
		tok, href string // href "" means plain text
	}{
		{"docs/a.md", "docs/a.md"},
		{"docs/a.md#results", "docs/a.md#results"},
		{"docs/ü.md", "docs/%C3%BC.md"},
		{"docs/inner-link.md", "docs/inner-link.md"}, // a symlink that stays inside
		{"shared/b.md", "../shared/b.md"},            // found from the project root
		{"../shared/b.md", "../shared/b.md"},         // found from the package
		{"../../outside/secret.md", ""},              // escapes via ..
		{"docs/link.md", ""},                         // escapes via a symlink
		{"docs/missing.md", ""},
		{"docs/dir.md", ""},                  // a directory
		{"docs/notes.txt", "docs/notes.txt"}, // any evidence file, not only Markdown
		{"shared/matches/match-5d0b3e21.json", "../shared/matches/match-5d0b3e21.json"}, // a match artifact absorb cites
		{"project://shared/matches/match-5d0b3e21.json", "../shared/matches/match-5d0b3e21.json"},
		{"project://shared/b.md#sha256:" + strings.Repeat("a", 64), "../shared/b.md"}, // a pin is no fragment
		{"project://docs/a.md", ""},            // project:// resolves from the root only
		{"project://../outside/secret.md", ""}, // and stays inside it
		{"docs/page.html", ""},                 // active content stays text
		{"docs/PAGE.SVG", ""},
		{filepath.Join(pkg, "docs/a.md"), ""}, // absolute paths are not portable
		{"//evil.example/x.md", ""},
		{"~/x.md", ""},
		{"file:///etc/passwd.md", ""},
		{"javascript:alert(1)", ""},
		{"JaVaScRiPt:alert(1)", ""},
		{"data:text/html,<script>alert(1)</script>", ""},
		{"vbscript:msgbox(1)", ""},
		{"https://example.org/x?q=1#f", "https://example.org/x?q=1#f"},
		{"HTTPS://example.org/y", "https://example.org/y"},
		{"http://", ""},
		{"https://user:pw@example.org/", ""},
		{"ftp://example.org/x.md", ""},
		{"https://example.org/a\"><img", "https://example.org/a%22%3E%3Cimg"},
	} {
		segs := r.Segments(tc.tok)
		var got string
		for _, s := range segs {
			if s.Href != "" {
				got = s.Href
			}
		}
		if got != tc.href {
			t.Errorf("Segments(%q) href = %q, want %q (segments %+v)", tc.tok, got, tc.href, segs)
		}
	}
}

func TestSegmentsKeepText(t *testing.T) {
	proj, pkg := project(t)
	r := &Resolver{Package: pkg, Root: proj, PageDir: filepath.Join(proj, "out")}
	ref := "see (https://a.org/x), docs/a.md; and javascript:alert(1)."
	got := r.Segments(ref)
	want := []Segment{
		{Text: "see ("},
		{Text: "https://a.org/x", Href: "https://a.org/x"},
		{Text: "), "},
		{Text: "docs/a.md", Href: "../pkg/docs/a.md"}, // relative to the page, not the package
		{Text: "; and javascript:alert(1)."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Segments(%q) =\n%+v\nwant\n%+v", ref, got, want)
	}
}

func TestSegmentsRelativePaths(t *testing.T) {
	proj, pkg := project(t)
	t.Chdir(filepath.Dir(proj))
	r := &Resolver{Package: filepath.Join("proj", "pkg"), Root: "proj", PageDir: filepath.Join("proj", "out")}
	if got := r.Segments("docs/a.md"); len(got) != 1 || got[0].Href != "../pkg/docs/a.md" {
		t.Fatalf("relative package and root paths: %+v", got)
	}
	_ = pkg
}

func TestSegmentsWithoutRoot(t *testing.T) {
	r := &Resolver{}
	got := r.Segments("docs/a.md https://x.org")
	if len(got) != 2 || got[0].Href != "" || got[1].Href != "https://x.org" {
		t.Fatalf("with no project root only web links may appear: %+v", got)
	}
}

// allowedHref is the page script's allow-list; Go must never emit anything
// else (the script re-checks, this keeps both sides honest).
var allowedHref = regexp.MustCompile(`^(https?://[^\s"'<>` + "`" + `\\]+|[A-Za-z0-9._~%/-]+(#[A-Za-z0-9._~%-]*)?)$`)

func FuzzSegments(f *testing.F) {
	for _, s := range []string{"docs/a.md", "see https://a.org/x, docs/a.md; end.", "javascript:alert(1)", `"><img src=x onerror=alert(1)>`, "  ", "(docs/a.md#r)", "https://x.org/\u2028"} {
		f.Add(s)
	}
	proj := f.TempDir()
	must2 := func(err error) {
		if err != nil {
			f.Fatal(err)
		}
	}
	must2(os.MkdirAll(filepath.Join(proj, "docs"), 0o755))
	must2(os.WriteFile(filepath.Join(proj, "docs", "a.md"), nil, 0o644))
	r := &Resolver{Package: proj, Root: proj, PageDir: proj}
	f.Fuzz(func(t *testing.T, ref string) {
		segs := r.Segments(ref)
		var b strings.Builder
		for _, s := range segs {
			b.WriteString(s.Text)
			if s.Href != "" {
				if !allowedHref.MatchString(s.Href) || strings.HasPrefix(s.Href, "//") {
					t.Fatalf("href %q outside the allow-list", s.Href)
				}
				low := strings.ToLower(s.Href)
				if !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "https://") && strings.Contains(low, ":") {
					t.Fatalf("relative href %q has a scheme", s.Href)
				}
			}
		}
		if b.String() != ref {
			t.Fatalf("segments lose text: %q != %q", b.String(), ref)
		}
	})
}
