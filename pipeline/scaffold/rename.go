package scaffold

import (
	"fmt"
	"io/fs"
	"os"
)

// renameChecked is the portable fallback: check, then rename. A target
// created between the two by another process could still be replaced if
// it is an empty directory.
func renameChecked(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%q: %w", to, fs.ErrExist)
	}
	return os.Rename(from, to)
}
