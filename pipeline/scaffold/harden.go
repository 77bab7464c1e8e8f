package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// The pins `gaia build init` writes and what Harden retargets them to
// (§3.7). Any other text means the init template changed under us.
var pinRewrites = []struct{ from, to string }{
	{`"gaia-lang>=0.4.4"`, `"gaia-lang==0.5.0a4"`},
	{`requires-python = ">=3.13"`, `requires-python = ">=3.12"`},
}

// ErrTemplateDrift means pyproject.toml lacks a pin Harden expects to
// retarget; the file is left unchanged.
var ErrTemplateDrift = errors.New("the gaia build init template changed")

// Harden turns what `gaia build init` wrote into a package fit for the
// discipline: the nested .git goes first (a package must live in the
// project's repository), then the two pins are retargeted to
// gaia-lang==0.5.0a4 and Python 3.12, .python-version becomes 3.12, and the
// .venv and uv.lock built for the old pins are removed.
func Harden(pkg string) error {
	if err := os.RemoveAll(filepath.Join(pkg, ".git")); err != nil {
		return fmt.Errorf("could not remove the nested .git: %w", err)
	}
	path := filepath.Join(pkg, "pyproject.toml")
	data, err := readlimit.ReadFile(path, readlimit.Config)
	if readlimit.Refused(err) {
		return err
	}
	if err != nil {
		return fmt.Errorf("no pyproject.toml to harden in %q: %w", pkg, err)
	}
	out := data
	for _, r := range pinRewrites {
		if !bytes.Contains(out, []byte(r.from)) {
			return fmt.Errorf("%w: pyproject.toml %q has no %s to retarget to %s; update nullius's scaffold",
				ErrTemplateDrift, path, r.from, r.to)
		}
		out = bytes.ReplaceAll(out, []byte(r.from), []byte(r.to))
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(pkg, ".python-version"), []byte(PythonVersion), 0o644); err != nil {
		return err
	}
	for _, p := range []string{".venv", "uv.lock"} {
		if err := os.RemoveAll(filepath.Join(pkg, p)); err != nil {
			return fmt.Errorf("could not remove %s: %w", p, err)
		}
	}
	return nil
}

// FindModuleDir returns the single src/<module>/ that holds __init__.py.
// None or several is an error ("refusing to guess"); a missing src/ is a
// not-exist error.
func FindModuleDir(pkg string) (string, error) {
	src := filepath.Join(pkg, "src")
	entries, err := readlimit.ReadDir(src)
	if err != nil {
		return "", fmt.Errorf("no src/ directory in %q: %w", pkg, err)
	}
	var found []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if fi, err := os.Stat(filepath.Join(src, e.Name(), "__init__.py")); err == nil && fi.Mode().IsRegular() {
			found = append(found, e.Name())
		}
	}
	if len(found) != 1 {
		return "", fmt.Errorf("found %d modules with __init__.py under %q (%s); refusing to guess which one to write",
			len(found), src, strings.Join(found, ", "))
	}
	return filepath.Join(src, found[0]), nil
}
