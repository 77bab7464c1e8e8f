// Package modsrc lists the module's own Go source for the tests that hold
// all of it to a rule: nothing compiled at init or per call (lazyre), no
// direct read of user input (readlimit), every rule code declared
// (cmd/nullius). One walk, so those tests agree on what "the source" is.
// Only tests import it (readlimit's TestTestHelpersStayOutOfTheBinary
// holds that).
package modsrc

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Root returns the module's root: the nearest directory at or above the
// working directory (a test runs in its package's directory) that holds
// go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("modsrc: no go.mod at or above the test's directory")
		}
		dir = filepath.Dir(dir)
	}
}

// GoFiles returns every .go file of the module at root that is not a
// test, as slash-separated paths relative to root, sorted. Folders named
// testdata or node_modules and hidden folders are skipped: nothing in
// them is built into nullius.
func GoFiles(t testing.TB, root string) []string {
	t.Helper()
	rels, err := goFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	// Fewer files than this is a walk that missed the module, and a test
	// that scans it would pass without having looked.
	if len(rels) < 100 {
		t.Fatalf("modsrc: found only %d Go files under %s", len(rels), root)
	}
	return rels
}

func goFiles(root string) ([]string, error) {
	var rels []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rels = append(rels, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(rels)
	return rels, err
}

// Under reports whether the slash-separated path rel is dir or inside it;
// dir "." holds every path.
func Under(rel, dir string) bool {
	return dir == "." || rel == dir || strings.HasPrefix(rel, dir+"/")
}
