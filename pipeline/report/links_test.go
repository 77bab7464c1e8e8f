package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkProject lays out the reference's report-links fixture: a project with
// artifacts/campaign/{report.md,posterior.json,matrix.json} and
// ideas/gaia/demo-gaia/{starmap.html,docs/detailed-reasoning.md}.
func linkProject(t *testing.T) (root, report string) {
	t.Helper()
	root = t.TempDir()
	for _, f := range []string{"artifacts/campaign/posterior.json", "artifacts/campaign/matrix.json",
		"ideas/gaia/demo-gaia/starmap.html", "ideas/gaia/demo-gaia/docs/detailed-reasoning.md"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, filepath.Join(root, "artifacts/campaign/report.md")
}

func TestNormalizeLinksConformance(t *testing.T) {
	root, rep := linkProject(t)
	pin := strings.Repeat("a", 64)
	for _, tc := range []struct{ id, in, want string }{
		{"RL1", "[p](posterior.json) [s](../../ideas/gaia/demo-gaia/starmap.html) [d](../../ideas/gaia/demo-gaia/docs/detailed-reasoning.md)\n",
			"[p](posterior.json) [s](../../ideas/gaia/demo-gaia/starmap.html) [d](../../ideas/gaia/demo-gaia/docs/detailed-reasoning.md)\n"},
		{"RL2", "[p](artifacts/campaign/posterior.json) [s](ideas/gaia/demo-gaia/starmap.html) [doi](https://doi.org/10.1000/x)\n",
			"[p](posterior.json) [s](../../ideas/gaia/demo-gaia/starmap.html) [doi](https://doi.org/10.1000/x)\n"},
		{"RL3", "[Starmap](file://" + filepath.ToSlash(root) + "/ideas/gaia/demo-gaia/starmap.html)\n",
			"[Starmap](../../ideas/gaia/demo-gaia/starmap.html)\n"},
		{"RL4", "[Gaia package](project://ideas/gaia/demo-gaia#sha256:" + pin + ")\n",
			"[Gaia package](../../ideas/gaia/demo-gaia#sha256:" + pin + ")\n"},
		{"RL5", "See artifacts/campaign/matrix.json and ideas/gaia/demo-gaia.\narXiv:2411.18257, DOI:10.1000/demo, INSPIRE recid 2853359.\n`arXiv:2411.18257` `artifacts/campaign/matrix.json`\n[arXiv:2411.18257](https://arxiv.org/abs/2411.18257)\n",
			"See [artifacts/campaign/matrix.json](matrix.json) and [ideas/gaia/demo-gaia](../../ideas/gaia/demo-gaia).\n" +
				"[arXiv:2411.18257](https://arxiv.org/abs/2411.18257), [DOI:10.1000/demo](https://doi.org/10.1000/demo), [INSPIRE recid 2853359](https://inspirehep.net/literature/2853359).\n" +
				"[arXiv:2411.18257](https://arxiv.org/abs/2411.18257) [artifacts/campaign/matrix.json](matrix.json)\n" +
				"[arXiv:2411.18257](https://arxiv.org/abs/2411.18257)\n"},
		{"fence", "```\nartifacts/campaign/matrix.json arXiv:2411.18257\n```\n", "```\nartifacts/campaign/matrix.json arXiv:2411.18257\n```\n"},
		{"image", "![s](ideas/gaia/demo-gaia/starmap.html)\n", "![s](ideas/gaia/demo-gaia/starmap.html)\n"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			got, err := NormalizeLinks(tc.in, rep, root)
			if err != nil || got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s (%v)", got, tc.want, err)
			}
			again, _ := NormalizeLinks(got, rep, root)
			if again != got {
				t.Fatalf("not idempotent:\n%s", again)
			}
		})
	}
}

// RL6 and the W-16 fixes.
func TestLinkIssues(t *testing.T) {
	root, rep := linkProject(t)
	if err := os.WriteFile(filepath.Join(root, "artifacts/campaign/my file.json"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "[Missing starmap](ideas/gaia/demo-gaia/starmap2.html) [web](https://example.org) [a](#anchor)\n" +
		"[enc](my%20file.json) [q](posterior.json?x=1)\n[out](project://../outside.md)\n```\n[in fence](nope.md)\n```\n"
	_ = os.WriteFile(filepath.Join(root, "artifacts/campaign/posterior.json"), []byte("x"), 0o644)
	iss, err := LinkIssues(text, rep, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(iss) != 2 || iss[0].Rule != CodeLinkBroken || !strings.Contains(iss[0].Msg, "local link target does not exist") ||
		!strings.Contains(iss[0].Msg, "ideas/gaia/demo-gaia/starmap2.html") || strings.Contains(iss[0].Msg, "Missing starmap") ||
		iss[1].Rule != CodeLinkEscapes || iss[1].Line != 3 {
		t.Fatalf("issues %+v", iss)
	}
}

func FuzzNormalizeLinks(f *testing.F) {
	f.Add("[a](artifacts/x) `ideas/y` arXiv:2411.18257 DOI:10.1/x. INSPIRE recid 12345\n```\n[b](c)\n")
	f.Add("![i](project://a/b#sha256:00) [x](file:///etc/passwd) [y](project://%2F)")
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		out, err := NormalizeLinks(s, filepath.Join(root, "r.md"), root)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := NormalizeLinks(out, filepath.Join(root, "r.md"), root); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
		if _, err := LinkIssues(s, filepath.Join(root, "r.md"), root); err != nil {
			t.Fatal(err)
		}
	})
}
