// Package pyparse defines the prerequisite analyzer that reads and parses
// every Python file of a Gaia package exactly once, so the rule analyzers
// share one model per file (the part go/analysis/passes/inspect plays for
// Go). It reports nothing itself: read and parse failures are recorded on
// the File and reported by the syntax analyzer (GAIA000).
package pyparse

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pyscan"
)

// MaxFileSize is the largest source file nullius parses (the bounded
// reader's cap for Python sources).
const MaxFileSize = readlimit.MaxPython

// ErrTooLarge is returned by a driver's ReadFile for files over MaxFileSize.
// A value of a type without fields, which the linker lays out: building
// its message in a package-level errors.New ran at every process start.
var ErrTooLarge error = errTooLarge{}

type errTooLarge struct{}

func (errTooLarge) Error() string {
	return "file is larger than the " + strconv.Itoa(MaxFileSize>>20) + " MiB limit"
}

// Analyzer parses the package's Python files (Pass.OtherFiles).
var Analyzer = &analysis.Analyzer{
	Name:       "pyparse",
	Doc:        "parse the Python files of a Gaia package once\n\nThe result is a *pyparse.Result; rule analyzers Require this analyzer.",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Result is the parsed package: one File per Pass.OtherFiles entry, in
// the same order.
type Result struct {
	Files []*File
}

// File is one source file and its model.
type File struct {
	Path string // as listed in Pass.OtherFiles (the display path)
	Src  []byte // nil when unreadable
	// Tok places the file's offsets in the package's FileSet. Its line
	// table is set on first need (Result.Lines): most files have no
	// finding to place, and the table is a pass over the source and a
	// slice of one int per line.
	Tok *token.File
	// Module is the parsed model; nil when the file could not be read or
	// is not UTF-8 (see Err and BadByte).
	Module *pyscan.Module
	// Err is a read failure (unreadable, too large).
	Err error
	// BadByte is the offset of the first byte that is not UTF-8, or -1.
	BadByte int
	// linesDue is set while Tok still needs its line table.
	linesDue bool
}

// Parsed reports whether the file has a model free of syntax errors, the
// condition for any rule other than GAIA000 to look at it.
func (f *File) Parsed() bool {
	return f.Module != nil && len(f.Module.Syntax) == 0
}

// Pos converts a byte offset of the file into a token.Pos.
func (f *File) Pos(offset int) token.Pos {
	if f.Tok == nil {
		return token.NoPos
	}
	return f.Tok.Pos(min(max(offset, 0), f.Tok.Size()))
}

// Span converts a pyscan span into the [Pos, End) pair of a diagnostic.
func (f *File) Span(s pyscan.Span) (token.Pos, token.Pos) {
	return f.Pos(int(s.Start.Offset)), f.Pos(int(s.End.Offset))
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Files: make([]*File, len(pass.OtherFiles))}
	for i, path := range pass.OtherFiles {
		res.Files[i] = Load(pass.Fset, path, pass.ReadFile)
	}
	parseAll(res.Files)
	return res, nil
}

// ReadSource reads one Python file of a package: from overlay when it
// holds the path (an editor's unsaved buffer), else through the bounded
// reader, which refuses a file over MaxFileSize before reading it and a
// FIFO or device without opening it. A file over the cap is ErrTooLarge.
func ReadSource(path string, overlay map[string][]byte) ([]byte, error) {
	return readSource(path, overlay, nil)
}

// readSource is ReadSource with the file read from disk by disk (nil:
// the bounded reader's ReadFile).
func readSource(path string, overlay map[string][]byte, disk func(string) ([]byte, error)) ([]byte, error) {
	if src, ok := overlay[path]; ok {
		if len(src) > MaxFileSize {
			return nil, ErrTooLarge
		}
		return src, nil
	}
	var src []byte
	var err error
	if disk != nil {
		src, err = disk(path)
	} else {
		src, err = readlimit.ReadFile(path, readlimit.Python)
	}
	var tl *readlimit.TooLargeError
	if errors.As(err, &tl) {
		return nil, ErrTooLarge
	}
	return src, err
}

// Load reads one file with read and registers it in fset. It may be
// called from several goroutines on one FileSet; Parse completes the File.
func Load(fset *token.FileSet, path string, read func(string) ([]byte, error)) *File {
	f := &File{Path: path, BadByte: -1}
	src, err := read(path)
	if err != nil {
		// An empty entry in the FileSet still gives the file's GAIA000 a
		// position (1:1).
		f.Tok = fset.AddFile(path, -1, 0)
		f.Err = err
		if errors.Is(err, ErrTooLarge) {
			f.Err = ErrTooLarge
		}
		return f
	}
	f.Src = src
	f.Tok = fset.AddFile(path, -1, len(src))
	f.linesDue = true
	if !utf8.Valid(src) {
		f.BadByte = firstInvalid(src)
	}
	return f
}

// Lines gives the file holding p its line table if it has none yet, so
// the FileSet can turn p into a line and column. Call it before asking
// the FileSet for the position of anything in these files.
func (r *Result) Lines(p token.Pos) {
	// The files were added to the FileSet in order: their bases increase.
	i := sort.Search(len(r.Files), func(i int) bool {
		tf := r.Files[i].Tok
		return tf == nil || tf.Base()+tf.Size() >= int(p)
	})
	if i == len(r.Files) {
		return
	}
	if f := r.Files[i]; f.linesDue && f.Tok.Base() <= int(p) {
		f.Tok.SetLines(lineStarts(f.Src))
		f.linesDue = false
	}
}

// lineStarts returns the offsets at which the lines of src start, exactly
// as token.File.SetLinesForContent computes them (no entry for the end of
// a final newline), with a vectorised newline search instead of a loop
// over every byte.
func lineStarts(src []byte) []int {
	if len(src) == 0 {
		return nil
	}
	lines := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		if off < len(src) {
			lines = append(lines, off)
		}
	}
	return lines
}

// Parse builds the file's model with p, unless the file could not be read
// or is not UTF-8. An internal parser failure is the file's GAIA000, not
// the end of the run.
func (f *File) Parse(p *pyscan.Parser) {
	if f.Err != nil || f.BadByte >= 0 {
		return
	}
	m, err := p.Parse(f.Path, f.Src)
	if err != nil {
		f.Err = fmt.Errorf("the Python parser failed: %w", err)
		return
	}
	f.Module = m
}

// ParseWith reads (an overlay's buffer first, see ReadSource) and parses
// files in order with one parser, registering them in fset: the package
// as the analyzer gives it, for a caller that owns a parser (a lint
// worker's long-lived one) instead of the analyzer's per-run workers.
// disk, when not nil, reads a file from disk in place of the bounded
// reader's ReadFile (a lint run's reader, which knows each file's type
// from the listing it found it in, see readlimit.ReadListed).
func ParseWith(p *pyscan.Parser, fset *token.FileSet, files []string, overlay map[string][]byte, disk func(path string) ([]byte, error)) *Result {
	res := &Result{Files: make([]*File, len(files))}
	read := func(path string) ([]byte, error) { return readSource(path, overlay, disk) }
	for i, path := range files {
		// Pass through the scheduler before each parse: a goroutine that
		// runs 10 ms on one scheduling tick is preempted, and when it is in
		// a cgo call (the parse) sysmon takes its P and wakes every 20 µs
		// for a while after; yielding between files (each parse is a few
		// ms) keeps that from happening. With the spare P of `nullius lint`
		// (cmd/nullius spareProc), this cuts a run's context switches on
		// the large-file corpus from ~4,200 to ~1,000 (issue 15).
		runtime.Gosched()
		f := Load(fset, path, read)
		f.Parse(p)
		res.Files[i] = f
	}
	return res
}

// firstInvalid returns the offset of the first byte that is not UTF-8.
func firstInvalid(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// parseAll parses the readable UTF-8 files in parallel, one pyscan.Parser
// per worker goroutine (a Parser is not safe for concurrent use), each
// closed when its worker ends.
func parseAll(files []*File) {
	jobs := make(chan *File)
	workers := min(runtime.GOMAXPROCS(0), len(files))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := pyscan.NewParser()
			defer p.Close()
			for f := range jobs {
				f.Parse(p)
			}
		}()
	}
	for _, f := range files {
		if f.Err == nil && f.BadByte < 0 {
			jobs <- f
		}
	}
	close(jobs)
	wg.Wait()
}
