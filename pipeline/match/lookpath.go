package match

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// execLookPath finds an executable named bin in the directories of path
// (a PATH value), as shutil.which does; names with a slash are checked as
// given.
func execLookPath(bin, path string) (string, error) {
	if strings.Contains(bin, "/") {
		if isExecutable(bin) {
			return bin, nil
		}
		return "", fmt.Errorf("%s is not an executable file", bin)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, bin)
		if isExecutable(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on PATH", bin)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// fileID identifies a file by device and inode, so a hard link or a
// symlink to one runner script is recognised as the same command (§5.7).
func fileID(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return fi.Name()
}
