package fakes

import (
	"embed"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	priorproject "github.com/nullius-dev/nullius/fixtures/prior/project"
	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/lazy"
)

// demoPrograms are the stand-ins `nullius demo` installs, the same code the
// tests run: the fake gaia (compiling for real unless FAKE_GAIA_IR names a
// fixture), the fake idea-store RPC (on the engine's files under the
// request's store_root unless FAKE_IDEA_STORE_STATE is set) and the stub
// judge.
// It is built on first use, not at every process start (issue 15).
var demoPrograms = lazy.New(buildDemoPrograms)

// buildDemoPrograms builds demoPrograms on first use.
func buildDemoPrograms() map[string]func(args []string) int {
	return map[string]func(args []string) int{
		"gaia":     gaiaRun,
		"idea-rpc": func([]string) int { return ideaStore(os.Stdin, os.Stdout, os.Getenv) },
		"judge":    judgeRun,
	}
}

// DemoProgram returns the main function of a demo program.
func DemoProgram(name string) (func(args []string) int, bool) {
	f, ok := demoPrograms.Get()[name]
	return f, ok
}

// DemoProgramNames lists the demo programs, sorted.
func DemoProgramNames() []string {
	var names []string
	for n := range demoPrograms.Get() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

//go:embed demoseed
var demoSeed embed.FS

// WriteDemoSeed writes the demo's seed under dir and returns the files
// written, relative to dir: the demo campaign of the idea store
// (idea-store/campaigns/c0ffee12/nodes_latest.json: three ideas, their
// idea cards inside the node records) and the literature-review outputs
// of the first idea (artifacts/literature/, shared with the prior fixture
// project of the tests). Existing files are never overwritten.
func WriteDemoSeed(dir string) ([]string, error) {
	var written []string
	copyFS := func(fsys fs.FS, from, to string) error {
		return fs.WalkDir(fsys, from, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel := path.Join(to, strings.TrimPrefix(p, from+"/"))
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			dst := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := atomicfile.WriteNew(dst, data, 0o644); err != nil {
				return err
			}
			written = append(written, rel)
			return nil
		})
	}
	if err := copyFS(demoSeed, "demoseed", ""); err != nil {
		return written, err
	}
	if err := copyFS(priorproject.Literature, "artifacts/literature", "artifacts/literature"); err != nil {
		return written, err
	}
	return written, nil
}
