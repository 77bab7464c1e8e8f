// Package readlimit is the one bounded reader of user input. Every file
// nullius reads from a user (artifacts, records, Markdown, configuration,
// Python sources) goes through ReadFile (or ReadListed, for a file a
// directory listing just gave as regular: the listing stands for the
// stat), which
//
//   - stats the path first and refuses anything that is not a regular file
//     (a FIFO, a device, a socket, a directory) before opening it, so a
//     FIFO never blocks the open and /dev/zero is never read;
//   - refuses a regular file over its kind's cap before reading it;
//   - opens with O_NONBLOCK, so a path swapped for a FIFO between the stat
//     and the open cannot block either, and checks with fstat that what it
//     opened is the regular file it stat'ed;
//   - reads at most cap+1 bytes into a buffer sized from the stat, so a
//     file that grows while being read is bounded too and memory is the
//     file's size, not a doubling of it.
//
// On Linux files and directories are read through their descriptors, not
// an *os.File, which would register each with the runtime's network
// poller for nothing (fd_linux.go).
//
// The caps for every kind of input are defined here, in one place, and
// documented in docs/deviations.md (## Hardening). A test in this package
// (callsites_test.go) lists every remaining direct os read in production
// code, so a new one cannot slip in.
package readlimit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync/atomic"
)

const mib = 1 << 20

// The caps. They sit one to three orders of magnitude above anything the
// protocols produce (a real commitment is under 2 KiB, a compiled IR of a
// large Gaia package a few MiB), so they only stop pathological input.
const (
	// MaxJSON caps a JSON artifact: IR, beliefs, survey, matrix, ledger,
	// pairwise_match_v1, panel report, idea cards, node lists.
	MaxJSON = 64 * mib
	// MaxSmall caps a small protocol record: roster (agents.json),
	// criteria commitment and criteria file, vote record or judge reply,
	// posterior payload.
	MaxSmall = 4 * mib
	// MaxMarkdown caps a Markdown material: card summaries, statements,
	// report pages.
	MaxMarkdown = 8 * mib
	// MaxConfig caps a TOML file: pyproject.toml, nullius.toml. Real ones
	// are a few KiB.
	MaxConfig = 1 * mib
	// MaxPython caps a Python source file. Gaia modules are kilobytes;
	// anything bigger is generated or a mistake, and a tree-sitter pass
	// over it would hold hundreds of megabytes.
	MaxPython = 8 * mib
)

// Kind is a class of input with its own cap.
type Kind int

// The kinds of input nullius reads from users.
const (
	JSON     Kind = iota // a JSON artifact (MaxJSON)
	Small                // a roster, commitment, vote or payload (MaxSmall)
	Markdown             // a Markdown material (MaxMarkdown)
	Config               // pyproject.toml or nullius.toml (MaxConfig)
	Python               // a Python source file (MaxPython)
)

// Kinds lists every kind, for tests and help texts.
var Kinds = []Kind{JSON, Small, Markdown, Config, Python}

// Name is what messages call a file of kind k.
func (k Kind) Name() string {
	switch k {
	case Small:
		return "roster, commitment, vote or payload"
	case Markdown:
		return "Markdown material"
	case Config:
		return "TOML configuration file"
	case Python:
		return "Python source file"
	}
	return "JSON artifact"
}

// Max is the cap of kind k in bytes.
func (k Kind) Max() int64 {
	switch k {
	case Small:
		return MaxSmall
	case Markdown:
		return MaxMarkdown
	case Config:
		return MaxConfig
	case Python:
		return MaxPython
	}
	return MaxJSON
}

// TooLargeError says that a file is over its cap.
type TooLargeError struct {
	Path  string
	Size  int64 // the file's size; 0 when it could not be known (it grew while being read)
	Max   int64
	Label string // the kind's name
}

func (e *TooLargeError) Error() string {
	size := fmt.Sprintf("%d bytes", e.Size)
	if e.Size <= e.Max {
		size = fmt.Sprintf("more than %d bytes", e.Max)
	}
	return fmt.Sprintf("%s is %s; nullius reads at most %s for a %s (see --help)", e.Path, size, human(e.Max), e.Label)
}

func human(n int64) string {
	if n >= mib && n%mib == 0 {
		return fmt.Sprintf("%d MiB", n/mib)
	}
	return fmt.Sprintf("%d bytes", n)
}

// NotRegularError says that a path names something other than a regular
// file (after symlinks): nullius never opens it.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; nullius reads only regular files", e.Path, Describe(e.Mode))
}

// ChangedError says that the file opened is not the one stat'ed: the path
// was replaced between the two.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s was replaced while nullius opened it; nullius reads only a regular file that stays put, so run again", e.Path)
}

// Describe names a file type the way the refusal does ("a FIFO").
func Describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// Refused reports whether err is one of this package's refusals (too
// large, not a regular file, not a directory, replaced while opening) rather than an os
// error. Callers pass a refusal up unwrapped: it is already one complete
// line naming the path.
func Refused(err error) bool {
	var tl *TooLargeError
	var nr *NotRegularError
	var ch *ChangedError
	var nd *NotDirError
	return errors.As(err, &tl) || errors.As(err, &nr) || errors.As(err, &ch) || errors.As(err, &nd)
}

// Regular stats path (following symlinks) and returns its FileInfo if it
// is a regular file, a *NotRegularError if it is anything else, or the os
// error. It is for callers that must decide before reading (a directory
// walk that skips a FIFO with a diagnostic).
func Regular(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return fi, nil
}

// Check applies ReadFile's refusals without reading: path must be a
// regular file of at most k.Max() bytes. It is for a step that must refuse
// a bad input before it starts work it would have to undo (a panel run's
// reply files), and reads the file later with ReadFile.
func Check(path string, k Kind) error {
	fi, err := Regular(path)
	if err != nil {
		return err
	}
	if fi.Size() > k.Max() {
		return &TooLargeError{Path: path, Size: fi.Size(), Max: k.Max(), Label: k.Name()}
	}
	return nil
}

// ReadFile reads path if it is a regular file of at most k.Max() bytes.
func ReadFile(path string, k Kind) ([]byte, error) {
	b, _, err := read(path, k.Name(), k.Max())
	return b, err
}

// ReadFileInfo is ReadFile that also returns the file's FileInfo, for
// callers that need its modification time, mode or identity: the os.Stat
// made before the open, of the very file then opened and read (the same
// device and inode), so os.SameFile holds it to a later stat of the path.
func ReadFileInfo(path string, k Kind) ([]byte, fs.FileInfo, error) {
	return read(path, k.Name(), k.Max())
}

// Read reads path if it is a regular file of at most max bytes; label
// names the kind of file in the error. Refusals are *NotRegularError,
// *TooLargeError or *ChangedError (see Refused); other errors are the os
// errors unchanged, so callers keep their "cannot read" messages.
func Read(path, label string, max int64) ([]byte, error) {
	b, _, err := read(path, label, max)
	return b, err
}

// ReadListed is ReadFile for a path that a directory listing just gave
// as a regular file: typ is the listing's type bits (fs.DirEntry.Type),
// which are 0 for a regular file that is not a symlink. The listing then
// stands for the stat ReadFile makes before opening (the one that keeps a
// FIFO or device from being opened), so none is made; the open file's
// fstat still refuses anything but a regular file and one over the cap,
// as ReadFile's does for a name replaced after its stat. Any other type
// is read by ReadFile.
func ReadListed(path string, typ fs.FileMode, k Kind) ([]byte, error) {
	if typ.Type() != 0 {
		return ReadFile(path, k)
	}
	b, _, err := openRead(path, k.Name(), k.Max(), nil)
	return b, err
}

func read(path, label string, max int64) ([]byte, fs.FileInfo, error) {
	fi, err := Regular(path)
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > max {
		return nil, nil, &TooLargeError{Path: path, Size: fi.Size(), Max: max, Label: label}
	}
	if testHookAfterStat != nil {
		testHookAfterStat(path)
	}
	return openRead(path, label, max, fi)
}

// Bytes read so far by this process, for a memory budget proportional to
// input (Observe).
var (
	readTotal atomic.Int64
	observer  atomic.Pointer[func(total int64)]
)

// Observe registers f to be called, after every read, with the total
// number of bytes the bounded reader has returned in this process; nil
// unregisters. The CLI uses it to keep a document-validating command's
// memory within a multiple of what it read (cmd/nullius/membudget.go).
func Observe(f func(total int64)) {
	if f == nil {
		observer.Store(nil)
		return
	}
	observer.Store(&f)
}

// Total is the number of bytes the bounded reader has returned in this
// process so far.
func Total() int64 { return readTotal.Load() }

func observe(n int) {
	total := readTotal.Add(int64(n))
	if f := observer.Load(); f != nil {
		(*f)(total)
	}
}

// testHookAfterStat lets a test replace the file between the stat and the
// open, the race the fstat check closes.
var testHookAfterStat func(path string)

// notDir is ReadDir's error when the open of path failed with err: the
// stat the open replaced is made then, so the errors are what a
// stat-then-open gives (the stat's error, a *NotDirError, or the open's
// error for a directory that cannot be opened).
func notDir(path string, err error) error {
	fi, serr := os.Stat(path)
	switch {
	case serr != nil:
		return serr
	case !fi.IsDir():
		return &NotDirError{Path: path, Mode: fi.Mode()}
	}
	return err
}

// NotDirError says that a path expected to be a directory is not one.
type NotDirError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotDirError) Error() string {
	return fmt.Sprintf("%s is %s, not a directory", e.Path, Describe(e.Mode))
}

// readCapped reads at most max+1 bytes into a buffer sized for size bytes
// (one more, to see the end), growing only if the file grew.
func readCapped(r io.Reader, path, label string, size, max int64) ([]byte, error) {
	if size > max {
		return nil, &TooLargeError{Path: path, Size: size, Max: max, Label: label}
	}
	buf := make([]byte, 0, size+1)
	lr := io.LimitReader(r, max+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // the file grew: let append pick the next size
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) > max {
		return nil, &TooLargeError{Path: path, Max: max, Label: label}
	}
	return buf, nil
}

// ReadStream reads at most max bytes from an already open stream (stdin),
// which may be a pipe; name stands for it in the error.
func ReadStream(r io.Reader, name string, k Kind) ([]byte, error) {
	b, err := readCapped(r, name, k.Name(), 512, k.Max())
	if err == nil {
		observe(len(b))
	}
	return b, err
}
