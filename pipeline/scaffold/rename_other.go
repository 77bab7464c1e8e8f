//go:build !linux

package scaffold

// renameNoReplace moves a directory into place unless the target exists.
func renameNoReplace(from, to string) error { return renameChecked(from, to) }
