// Package readlimit reads user-supplied files with a size cap, so a huge
// or endless input (a multi-gigabyte file, /dev/zero, a FIFO that never
// ends) is refused with a clear error instead of exhausting memory. The
// caps for every kind of input nullius reads are defined here, in one
// place, and documented in docs/deviations.md (## Hardening).
package readlimit

import (
	"fmt"
	"io"
	"os"
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
)

// Kind is a class of input with its own cap.
type Kind int

// The kinds of input nullius reads from users.
const (
	JSON     Kind = iota // a JSON artifact (MaxJSON)
	Small                // a roster, commitment, vote or payload (MaxSmall)
	Markdown             // a Markdown material (MaxMarkdown)
)

// Name is what messages call a file of kind k.
func (k Kind) Name() string {
	switch k {
	case Small:
		return "roster, commitment, vote or payload"
	case Markdown:
		return "Markdown material"
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
	}
	return MaxJSON
}

// TooLargeError says that a file is over its cap.
type TooLargeError struct {
	Path  string
	Size  int64 // the file's size; 0 when it could not be known (a pipe, a device)
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

// ReadFile reads path if it holds at most k.Max() bytes, and returns a
// *TooLargeError otherwise.
func ReadFile(path string, k Kind) ([]byte, error) {
	return Read(path, k.Name(), k.Max())
}

// Read reads path if it holds at most max bytes; label names the kind of
// file in the error. It checks the size up front and still reads at most
// max+1 bytes, so a file that grows, or one stat cannot size (a pipe, a
// device), is bounded too. Other errors are the os errors unchanged, so
// callers keep their "cannot read" messages.
func Read(path, label string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > max {
		return nil, &TooLargeError{Path: path, Size: fi.Size(), Max: max, Label: label}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &TooLargeError{Path: path, Max: max, Label: label}
	}
	return b, nil
}
