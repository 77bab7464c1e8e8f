package match

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// contained checks that base/rel, a path whose layout the protocol fixes
// (§0.2: artifacts/matches under the campaign, votes/ and raw/ under the
// panel directory, the five materials files), resolves inside base once
// symlinks are followed (issue 7). base itself may be anywhere and may be
// a symlink: users and scripts name it; only what nullius derives from it
// is held inside it. A component that does not exist yet is fine: nullius
// creates it as a real directory. It returns a refusal naming the path
// and where it leads.
func contained(base, rel string) error {
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil // the step reports the missing base itself
	}
	p := filepath.Join(base, rel)
	real, err := resolveExisting(p)
	if err != nil {
		return refuse("cannot resolve %s: %v", p, err)
	}
	if !within(real, realBase) {
		return refuse("%s resolves to %s, outside %s; the protocol keeps %s inside that directory, so replace the symlink with a real directory or file", p, real, base, rel)
	}
	return nil
}

// resolveExisting follows the symlinks of the longest existing prefix of
// p and appends the rest unchanged.
func resolveExisting(p string) (string, error) {
	p = filepath.Clean(p)
	var rest []string
	for hops := 0; hops < 64; hops++ {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// A dangling symlink leads somewhere too: refuse to create through it.
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(p), target)
			}
			p = filepath.Clean(target)
			continue
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...), nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
	return "", errors.New("too many levels of symbolic links")
}

func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
