//go:build linux

package readlimit

import (
	"encoding/binary"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// openRead opens and reads path, refusing what is not a regular file of
// at most max bytes from the open file's fstat; fi, when not nil, is the
// stat made before the open, and a different file found open is refused.
// The FileInfo returned is fi: the os.Stat of the very file read (the same
// device and inode), so os.SameFile holds it to a later stat of the path.
//
// The file is read through its descriptor, not an *os.File: os.OpenFile
// registers every file it opens with the runtime's network poller (on
// Linux an epoll_ctl that fails for a regular file, after an epoll
// instance and an eventfd made on the first open), which a regular file
// never uses. The system calls are the ones an *os.File makes otherwise
// (open, fstat, read, close), and so are the errors.
func openRead(path, label string, max int64, fi fs.FileInfo) ([]byte, fs.FileInfo, error) {
	// O_NONBLOCK: if path became a FIFO after the stat, the open returns
	// at once instead of waiting for a writer; the fstat below refuses it.
	// On a regular file the flag changes nothing.
	fd, err := open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, path, &st); err != nil {
		return nil, nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, nil, &NotRegularError{Path: path, Mode: fileMode(st.Mode)}
	}
	if fi != nil && !sameFile(fi, &st) {
		return nil, nil, &ChangedError{Path: path}
	}
	b, err := readCapped(fdReader{fd: fd, path: path}, path, label, st.Size, max)
	if err != nil {
		return nil, nil, err
	}
	observe(len(b))
	return b, fi, nil
}

// open opens path with flags, the error being what os.OpenFile returns.
func open(path string, flags int) (int, error) {
	for {
		fd, err := syscall.Open(path, flags, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// fstat stats the descriptor fd opened as path, the error being what
// (*os.File).Stat returns.
func fstat(fd int, path string, st *syscall.Stat_t) error {
	for {
		err := syscall.Fstat(fd, st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		return nil
	}
}

// fileMode is the fs.FileMode of a stat's st_mode, as os makes it.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// sameFile is os.SameFile for the stat made before the open (by os.Stat)
// and the open descriptor's: the same device and inode.
func sameFile(before fs.FileInfo, open *syscall.Stat_t) bool {
	st, ok := before.Sys().(*syscall.Stat_t)
	return ok && st.Dev == open.Dev && st.Ino == open.Ino
}

// fdReader reads the descriptor fd opened as path, as (*os.File).Read
// does a regular file's.
type fdReader struct {
	fd   int
	path string
}

func (r fdReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(r.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: r.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadDir lists the directory path, sorted by name as os.ReadDir does.
// os.ReadDir's plain open of a FIFO named where a directory was expected
// blocks; O_DIRECTORY makes the kernel refuse anything but a directory
// before it opens it (no FIFO waited on, no device opened), so no stat is
// paid before the open. When the open fails, the stat it replaced is made
// then, so the errors are what a stat-then-open gives: the stat's error,
// a *NotDirError, or the open's error for a directory that cannot be
// opened.
//
// The directory is read through its descriptor (getdents64), not an
// *os.File, which would register it with the runtime's network poller
// (see openRead); the entries are what (*os.File).ReadDir gives.
func ReadDir(path string) ([]fs.DirEntry, error) {
	fd, err := open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK|syscall.O_CLOEXEC)
	if err != nil {
		return nil, notDir(path, err)
	}
	defer syscall.Close(fd)
	es, err := readDirents(fd, path)
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, err
}

// Offsets in a struct linux_dirent64: d_ino (8 bytes), d_off (8),
// d_reclen (2), d_type (1), then the NUL-terminated name.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// direntBufs are the buffers listings are read into, os's block size for
// them, shared by the listings of a run as os shares its own.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8192); return &b }}

// readDirents is (*os.File).ReadDir(-1) of the directory open as fd
// (named path): every entry but . and .. and those with inode 0, in the
// order listed; an entry of unknown type is lstat'ed for it, and one
// gone by then is left out.
func readDirents(fd int, path string) ([]fs.DirEntry, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	es := []fs.DirEntry{}
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return es, &fs.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			return es, nil
		}
		for b := buf[:n]; len(b) > direntName; {
			reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
			if reclen > len(b) || reclen <= direntName {
				return es, nil
			}
			rec := b[:reclen]
			b = b[reclen:]
			if binary.NativeEndian.Uint64(rec) == 0 {
				continue
			}
			name := rec[direntName:]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			if string(name) == "." || string(name) == ".." {
				continue
			}
			e := &dirent{parent: path, name: string(name), typ: modeOf(rec[direntType])}
			if e.typ == unknownType {
				info, err := os.Lstat(path + "/" + e.name)
				if os.IsNotExist(err) {
					continue // gone since it was listed
				}
				if err != nil {
					return es, err
				}
				e.typ, e.info = info.Mode().Type(), info
			}
			es = append(es, e)
		}
	}
}

// unknownType is the type of an entry the listing does not give one for.
const unknownType = ^fs.FileMode(0)

// modeOf is the file type of a d_type.
func modeOf(t uint8) fs.FileMode {
	switch t {
	case syscall.DT_BLK:
		return fs.ModeDevice
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_REG:
		return 0
	case syscall.DT_SOCK:
		return fs.ModeSocket
	}
	return unknownType
}

// dirent is one listed entry, as os's: Info lstats it on demand.
type dirent struct {
	parent, name string
	typ          fs.FileMode
	info         fs.FileInfo
}

func (d *dirent) Name() string      { return d.name }
func (d *dirent) IsDir() bool       { return d.typ.IsDir() }
func (d *dirent) Type() fs.FileMode { return d.typ }
func (d *dirent) String() string    { return fs.FormatDirEntry(d) }

func (d *dirent) Info() (fs.FileInfo, error) {
	if d.info != nil {
		return d.info, nil
	}
	return os.Lstat(d.parent + "/" + d.name)
}
