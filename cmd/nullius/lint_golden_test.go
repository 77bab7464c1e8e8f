package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/internal/benchcorpus"
	"github.com/nullius-dev/nullius/internal/golden"
)

// lintGoldenDir holds the recorded output of `nullius lint` in every format
// over the lint fixtures and both benchmark corpora: full text, json and
// github output for the fixtures, and a sha256 of every output (sarif
// included) in digests.txt. The lint engine is tuned for speed; this test
// proves the tuning changes no byte of what users see.
const lintGoldenDir = "testdata/lint_golden"

// lintGoldenCase is one lint invocation.
type lintGoldenCase struct {
	name string
	args []string // after "lint"
	full bool     // also keep text, json and github output whole
}

func lintGoldenCases(t *testing.T, root string) []lintGoldenCase {
	var cases []lintGoldenCase
	for _, parent := range []string{"fixtures/lint", "fixtures/demo/ideas", "fixtures/extract/fresh-scaffold"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				p := parent + "/" + e.Name()
				cases = append(cases, lintGoldenCase{name: strings.ReplaceAll(p, "/", "-"), args: []string{p}, full: true})
			}
		}
	}
	cases = append(cases,
		lintGoldenCase{name: "fixtures-lint-all", args: []string{"fixtures/lint"}, full: true},
		lintGoldenCase{name: "fixtures-lint-all-no-config", args: []string{"--no-config", "fixtures/lint"}, full: true},
		lintGoldenCase{name: "fixtures-lint-suppressions-shown", args: []string{"--show-suppressed", "fixtures/lint/suppressions"}, full: true},
		lintGoldenCase{name: "fixtures-lint-bad-file", args: []string{"fixtures/lint/bad/src/bad_idea/__init__.py"}, full: true},
	)
	return cases
}

// TestLintOutputGolden lints every fixture package and the two benchmark
// corpora (regenerated: they are deterministic) and compares every output
// format, the exit code and stderr with the recorded goldens. Run with
// -update to record new goldens after an intended change of output.
func TestLintOutputGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("lints ~17 MB of generated packages")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var digests []string
	t.Run("fixtures", func(t *testing.T) {
		t.Chdir(root)
		for _, c := range lintGoldenCases(t, root) {
			digests = append(digests, lintGolden(t, root, c)...)
		}
	})
	corpora := []struct {
		name  string
		files []benchcorpus.File
	}{
		{"corpus-small-1000", benchcorpus.SmallPackages(1000)},
		{"corpus-large-12mb", benchcorpus.Files(12 << 20)},
	}
	for _, c := range corpora {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := benchcorpus.Write(dir, c.files); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			digests = append(digests, lintGolden(t, dir, lintGoldenCase{name: c.name, args: []string{"."}})...)
		})
	}
	got := strings.Join(digests, "\n") + "\n"
	golden.Check(t, filepath.Join(root, "cmd/nullius", lintGoldenDir, "digests.txt"), []byte(got))
}

// lintGolden runs one case in the current directory, with every format
// written to a file, and returns its digest lines. Full outputs are
// compared (or recorded) here so a mismatch shows the lines that moved.
func lintGolden(t *testing.T, root string, c lintGoldenCase) []string {
	t.Helper()
	out := t.TempDir()
	formats := []string{"text", "json", "sarif", "github"}
	var spec []string
	for _, f := range formats {
		spec = append(spec, f+":"+filepath.Join(out, f))
	}
	var stdout, stderr bytes.Buffer
	args := append([]string{"lint", "--format", strings.Join(spec, ",")}, c.args...)
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	// Absolute directories (the SARIF %SRCROOT%, a message naming a
	// temporary file) are machine-specific; the golden holds $ROOT.
	norm := func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte((&url.URL{Scheme: "file", Path: filepath.ToSlash(root) + "/"}).String()), []byte("file:///$ROOT/"))
		b = bytes.ReplaceAll(b, []byte(out), []byte("$OUT"))
		return bytes.ReplaceAll(b, []byte(root), []byte("$ROOT"))
	}
	lines := []string{
		fmt.Sprintf("%s exit %d", c.name, code),
		fmt.Sprintf("%s stdout %q", c.name, norm(stdout.Bytes())),
		fmt.Sprintf("%s stderr %q", c.name, norm(stderr.Bytes())),
	}
	for _, f := range formats {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			b = []byte("(not written)")
		}
		b = norm(b)
		lines = append(lines, fmt.Sprintf("%s %s %x %d", c.name, f, sha256.Sum256(b), len(b)))
		if !c.full || f == "sarif" {
			continue
		}
		golden.Check(t, filepath.Join(root, "cmd/nullius", lintGoldenDir, c.name+"."+f), b)
	}
	return lines
}
