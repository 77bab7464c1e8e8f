// Package atomicfile writes files so that a reader, or a crash, never sees a
// half-written file: the bytes go to a temporary file in the same directory,
// are synced, and are renamed over the destination.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned by WriteNew when the destination already exists.
var ErrExists = fs.ErrExist

// NotRegularError says that the destination exists and is not a regular
// file, so WriteFile will not replace it.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	kind := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeDir != 0:
		kind = "a directory"
	case t&fs.ModeCharDevice != 0, t&fs.ModeDevice != 0:
		kind = "a device"
	case t&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return "it is " + kind + "; nullius replaces only regular files (choose a file path)"
}

// WriteFile atomically replaces path with data. An existing destination
// that is not a regular file (a device such as /dev/null, a FIFO, a socket,
// a directory, or a symlink to one) is refused, never renamed over: run as
// root, `--output /dev/null` would otherwise replace the device node with a
// regular file for every process on the machine.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("could not write %q: %w", path, &NotRegularError{Path: path, Mode: fi.Mode()})
	}
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("could not write %q: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// WriteNew atomically creates path with data and refuses (ErrExists wrapped
// with the path) when path already exists. Creation is race-free: the
// temporary file is hard-linked to the destination, which fails if the
// destination exists.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("refusing to overwrite %q: %w", path, ErrExists)
	}
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("refusing to overwrite %q: %w", path, ErrExists)
		}
		return fmt.Errorf("could not write %q: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("could not write %q: %w", path, err)
	}
	name := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(name)
		return "", fmt.Errorf("could not write %q: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", fmt.Errorf("could not write %q: %w", path, err)
	}
	return name, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // best effort: some filesystems refuse to open directories
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}

// TempPattern is the glob (filepath.Match syntax) of the temporary files
// WriteFile and WriteNew create beside path. A process killed between
// creating one and renaming it leaves it behind; RemoveTemps clears them.
func TempPattern(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+escapeGlob(base)+".tmp-*")
}

// RemoveTemps removes the temporary files a killed writer of path left
// behind and returns the paths it removed. Call it only while holding
// whatever lock keeps other writers of path out: a live writer's
// temporary file matches too.
func RemoveTemps(path string) ([]string, error) {
	matches, err := filepath.Glob(TempPattern(path))
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, m := range matches {
		if fi, err := os.Lstat(m); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := os.Remove(m); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, m)
	}
	if len(removed) > 0 {
		_ = syncDir(filepath.Dir(path))
	}
	return removed, errors.Join(errs...)
}

// escapeGlob quotes the glob metacharacters of a file name.
func escapeGlob(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// Remove deletes path and syncs its directory, so the removal survives a
// crash as a rename does (a journal deleted to mark a step finished must
// not reappear). A missing path is not an error.
func Remove(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(filepath.Dir(path))
}
