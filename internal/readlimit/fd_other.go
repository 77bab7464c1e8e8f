//go:build !linux

package readlimit

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// openRead is fd_linux.go's, through an *os.File.
func openRead(path, label string, max int64, fi fs.FileInfo) ([]byte, fs.FileInfo, error) {
	// O_NONBLOCK: if path became a FIFO after the stat, the open returns
	// at once instead of waiting for a writer; the fstat below refuses it.
	// On a regular file the flag changes nothing.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !ofi.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Mode: ofi.Mode()}
	}
	if fi != nil && !os.SameFile(fi, ofi) {
		return nil, nil, &ChangedError{Path: path}
	}
	b, err := readCapped(f, path, label, ofi.Size(), max)
	if err != nil {
		return nil, nil, err
	}
	observe(len(b))
	return b, fi, nil
}

// ReadDir lists the directory path, sorted by name, as fd_linux.go's
// does (O_DIRECTORY: nothing but a directory is opened), through an
// *os.File.
func ReadDir(path string) ([]fs.DirEntry, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, notDir(path, err)
	}
	defer f.Close()
	es, err := f.ReadDir(-1)
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, err
}
