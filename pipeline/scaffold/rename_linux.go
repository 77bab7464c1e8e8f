//go:build linux

package scaffold

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace moves a directory into place and fails with an
// fs.ErrExist error if the target appeared meanwhile (renameat2 with
// RENAME_NOREPLACE; a plain rename would replace an empty directory).
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return renameChecked(from, to) // filesystem without RENAME_NOREPLACE
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}
