// Package pyparse defines the prerequisite analyzer that reads and parses
// every Python file of a Gaia package exactly once, so the rule analyzers
// share one model per file (the part go/analysis/passes/inspect plays for
// Go). It reports nothing itself: read and parse failures are recorded on
// the File and reported by the syntax analyzer (GAIA000).
package pyparse

import (
	"errors"
	"fmt"
	"go/token"
	"reflect"
	"runtime"
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
var ErrTooLarge = fmt.Errorf("file is larger than the %d MiB limit", MaxFileSize>>20)

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
	Path string      // as listed in Pass.OtherFiles (the display path)
	Src  []byte      // nil when unreadable
	Tok  *token.File // positions; nil when unreadable
	// Module is the parsed model; nil when the file could not be read or
	// is not UTF-8 (see Err and BadByte).
	Module *pyscan.Module
	// Err is a read failure (unreadable, too large).
	Err error
	// BadByte is the offset of the first byte that is not UTF-8, or -1.
	BadByte int
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
	return f.Pos(s.Start.Offset), f.Pos(s.End.Offset)
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{Files: make([]*File, len(pass.OtherFiles))}
	for i, path := range pass.OtherFiles {
		res.Files[i] = read(pass, path)
	}
	parseAll(res.Files)
	return res, nil
}

// read loads one file and registers it in the FileSet.
func read(pass *analysis.Pass, path string) *File {
	f := &File{Path: path, BadByte: -1}
	src, err := pass.ReadFile(path)
	if err != nil {
		// An empty entry in the FileSet still gives the file's GAIA000 a
		// position (1:1).
		f.Tok = pass.Fset.AddFile(path, -1, 0)
		f.Err = err
		if errors.Is(err, ErrTooLarge) {
			f.Err = ErrTooLarge
		}
		return f
	}
	f.Src = src
	f.Tok = pass.Fset.AddFile(path, -1, len(src))
	f.Tok.SetLinesForContent(src)
	if !utf8.Valid(src) {
		f.BadByte = firstInvalid(src)
	}
	return f
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
				m, err := p.Parse(f.Path, f.Src)
				if err != nil {
					// An internal parser failure on one file is that file's
					// GAIA000, not the end of the run.
					f.Err = fmt.Errorf("the Python parser failed: %w", err)
					continue
				}
				f.Module = m
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
