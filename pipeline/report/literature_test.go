package report

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// issue12Lines are the seven literature mentions issue 12 found passing
// `report links --check` although the reference links them.
var issue12Lines = []string{
	"INSPIRE recid : 2900001",
	"inspire recid 2853359",
	"INSPIRE  recid 2853359",
	"arXiv: 2411.18257",
	"arxiv:2411.18257",
	"doi:10.1000/example",
	"DOI: 10.1000/example",
}

// literatureDeviations are the golden inputs where nullius deliberately
// differs from the reference (docs/deviations.md, report tools), with what
// nullius writes instead.
var literatureDeviations = map[string]string{
	// The reference strips every trailing dot and puts one back: a dot of
	// the text is lost. nullius keeps them all outside the link.
	"DOI:10.1000/x..": "[DOI:10.1000/x](https://doi.org/10.1000/x)..",
	// Python's re lower-cases İ (U+0130) to i under IGNORECASE; Go's (?i)
	// uses Unicode simple case folding, where İ folds to nothing.
	"ARXİV:2411.18257": "ARXİV:2411.18257",
}

// TestLiteratureGolden: every case, whitespace, colon and boundary variant
// links as the reference's patterns do under Python's re
// (testdata/literature_links.json, scripts/literature_links_golden.py).
func TestLiteratureGolden(t *testing.T) {
	b, err := os.ReadFile("testdata/literature_links.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Vectors []struct{ In, Out string }
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Vectors) < 70 {
		t.Fatalf("only %d golden vectors", len(g.Vectors))
	}
	root, rep := linkProject(t)
	seen := map[string]bool{}
	for _, v := range g.Vectors {
		want := v.Out
		if dev, ok := literatureDeviations[v.In]; ok {
			seen[v.In] = true
			if dev == v.Out {
				t.Errorf("%q: listed as a deviation but nullius and the reference agree", v.In)
			}
			want = dev
		}
		if got := linkLiterature(v.In); got != want {
			t.Errorf("linkLiterature(%q)\n got %q\nwant %q", v.In, got, want)
		}
		if again, _ := NormalizeLinks(want+"\n", rep, root); again != want+"\n" {
			t.Errorf("normalizing %q again changes it to %q", want, again)
		}
	}
	for in := range literatureDeviations {
		if !seen[in] {
			t.Errorf("deviation %q is not in the golden file", in)
		}
	}
}

// TestIssue12LinesRefused: each of the seven lines, and each inside inline
// code, is a REPORT010 finding of the link check (what `report links
// --check` and writeback's gate run), located on its line; the normalized
// text passes.
func TestIssue12LinesRefused(t *testing.T) {
	root, rep := linkProject(t)
	for _, line := range issue12Lines {
		for _, text := range []string{"Prior: " + line + ".\n", "Prior: `" + line + "`\n"} {
			ds, err := CheckLinks(rep, "# Report\n"+text, root)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != 1 || ds[0].Code != CodeLinkNotNorm.Code || ds[0].Line != 2 {
				t.Errorf("%q: findings %v, want one REPORT010 on line 2", text, ds)
				continue
			}
			fixed, _ := NormalizeLinks("# Report\n"+text, rep, root)
			if ds, _ := CheckLinks(rep, fixed, root); len(ds) != 0 {
				t.Errorf("%q normalized to %q still has findings %v", text, fixed, ds)
			}
			if !strings.Contains(fixed, "](https://") {
				t.Errorf("%q was not linked: %q", text, fixed)
			}
		}
	}
}
