package extract

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ExplorationPrefix marks a posterior extracted over allowed discipline
// violations; the reference's writeback refuses any ref that starts with it.
const ExplorationPrefix = "exploration-only:"

// ResolveDir makes path absolute and symlink-free, as Python's
// Path.resolve() does, and requires a directory.
func ResolveDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%q is not a directory", path)
	}
	return real, nil
}

// Errors of RelPath, matched by the caller to GAIA210/GAIA211.
var (
	ErrOutsideRoot = errors.New("package is not under the project root")
	ErrIsRoot      = errors.New("package directory IS the project root")
)

// RelPath is the package path relative to the project root in POSIX form.
// Both must be resolved already.
func RelPath(pkg, root string) (string, error) {
	rel, err := filepath.Rel(root, pkg)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", ErrOutsideRoot
	}
	if rel == "." {
		return "", ErrIsRoot
	}
	return filepath.ToSlash(rel), nil
}

// PercentEncode encodes p byte by byte from UTF-8 as the reference does
// (§3.6): A-Z a-z 0-9 _ . - ~ and / stay, everything else becomes %XX with
// upper-case hex. It is not url.PathEscape, which escapes / and keeps
// :@&=+$,; as they are.
func PercentEncode(p string) string {
	const hexdig = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9',
			c == '_', c == '.', c == '-', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexdig[c>>4])
			b.WriteByte(hexdig[c&15])
		}
	}
	return b.String()
}

// PackageRef builds project://<encoded rel>#<pin>.
func PackageRef(rel, pin string) string {
	return "project://" + PercentEncode(rel) + "#" + pin
}

// notExist reports whether err says a path is missing.
func notExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
