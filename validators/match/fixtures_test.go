package match

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFixtures runs every fixtures/match/validate/<kind>/*.json through File:
// ok_* files must be silent; bad_* files must produce exactly the lines of
// their sibling .want (each exact, or a /regexp/).
func TestFixtures(t *testing.T) {
	root := filepath.Join("..", "..", "fixtures", "match", "validate")
	n := 0
	for _, kind := range Kinds() {
		files, _ := filepath.Glob(filepath.Join(root, kind, "*.json"))
		for _, f := range files {
			n++
			t.Run(kind+"/"+filepath.Base(f), func(t *testing.T) {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				ds, err := File(filepath.Base(f), src, kind)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, d := range ds {
					got = append(got, d.String())
				}
				slices.Sort(got)
				var want []string
				if w, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".want"); err == nil {
					want = strings.Split(strings.TrimSpace(string(w)), "\n")
				} else if strings.HasPrefix(filepath.Base(f), "bad_") {
					t.Fatal("bad fixture without a .want file")
				}
				if len(got) != len(want) {
					t.Fatalf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
				}
				for i := range want {
					w := want[i]
					ok := w == got[i]
					if strings.HasPrefix(w, "/") && strings.HasSuffix(w, "/") {
						ok = regexp.MustCompile("^" + w[1:len(w)-1] + "$").MatchString(got[i])
					}
					if !ok {
						t.Errorf("finding %d:\n got %s\nwant %s", i, got[i], w)
					}
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("found no fixtures")
	}
}
