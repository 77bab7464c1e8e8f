// Package contain decides where a path really leads once symlinks are
// followed, for the steps that must keep what they read or write inside a
// directory (the match protocol's fixed layout, extract's .gaia, absorb's
// artifact). One implementation, so every step agrees on what "inside"
// means, dangling symlinks included.
package contain

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Resolve follows the symlinks of the longest existing prefix of p and
// appends the rest unchanged. A dangling symlink counts where it points:
// creating a file through it would create it there.
func Resolve(p string) (string, error) {
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

// Within reports whether path is dir or lies below it, lexically (resolve
// both first).
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
