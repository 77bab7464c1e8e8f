// Package fix applies the suggested fixes the analyzers attach to their
// diagnostics: one implementation shared by `nullius lint --fix/--diff`,
// the SARIF printer's fixes and the language server's quick fixes.
//
// Only safe fixes are applied. A fix is safe when the module it produces
// still parses, every number literal of the module is unchanged, and every
// call keeps its callee and each of its arguments (a call may be split in
// several, as the pairwise expansion of GAIA509 does, but no call and no
// argument disappears): a fix may rewrite how a statement is written, never
// change a probability or delete evidence (ecosystem.md §1.3, safe fixes).
package fix

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// ErrOverlap is returned when two edits of one file overlap.
var ErrOverlap = errors.New("fixes overlap")

// Apply returns src with edits applied. Edits are given as byte offsets
// into src and may come in any order; identical duplicates count once.
// Overlapping or out-of-range edits are an error and nothing is applied.
func Apply(src []byte, edits []diag.Edit) ([]byte, error) {
	es, err := normalize(src, edits)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(len(src))
	at := 0
	for _, e := range es {
		out.Write(src[at:e.Start])
		out.WriteString(e.NewText)
		at = e.End
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// normalize sorts edits by offset, drops exact duplicates, and checks
// that they lie inside src and do not overlap. Two insertions at one
// offset overlap (their order would be a guess).
func normalize(src []byte, edits []diag.Edit) ([]diag.Edit, error) {
	es := slices.Clone(edits)
	slices.SortStableFunc(es, func(a, b diag.Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.NewText, b.NewText))
	})
	es = slices.Compact(es)
	for i, e := range es {
		if e.Start < 0 || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) lies outside the %d-byte file", e.Start, e.End, len(src))
		}
		if i > 0 {
			p := es[i-1]
			if e.Start < p.End || (e.Start == p.Start && e.Start == e.End) {
				return nil, fmt.Errorf("%w: [%d,%d) and [%d,%d)", ErrOverlap, p.Start, p.End, e.Start, e.End)
			}
		}
	}
	return es, nil
}

// Edits returns the edits of the fix the analyzers suggest first for d,
// or nil when d offers none. Like go/analysis drivers, a driver applies
// at most one fix per diagnostic.
func Edits(d diag.Diagnostic) []diag.Edit {
	if len(d.Fixes) == 0 {
		return nil
	}
	return d.Fixes[0].Edits
}

// File is the plan for one file.
type File struct {
	Path  string
	Src   []byte      // the contents the fixes were computed against
	Edits []diag.Edit // sorted, non-overlapping; nil when Skipped
	Fixed []byte      // Src with Edits applied
	// Fixes counts the diagnostics whose fix is applied.
	Fixes int
	// Skipped says why the file is left untouched ("" when it is not):
	// fixes that overlap, or a fix that is not safe. Nothing of a skipped
	// file is applied, so no half-fixed file is ever written.
	Skipped string
}

// Plan groups the fixes of the unsuppressed diagnostics by file and checks
// each file's set: a file whose fixes overlap, or one of whose fixes is not
// safe, is skipped whole. read returns a file's current contents (from
// disk or an editor buffer). Files are returned sorted by path.
func Plan(ds []diag.Diagnostic, read func(path string) ([]byte, error)) ([]File, error) {
	byPath := map[string][]diag.Diagnostic{}
	for _, d := range ds {
		if d.Suppressed || len(Edits(d)) == 0 {
			continue
		}
		byPath[d.Path] = append(byPath[d.Path], d)
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var out []File
	for _, p := range paths {
		src, err := read(p)
		if err != nil {
			return nil, err
		}
		out = append(out, planFile(p, src, byPath[p]))
	}
	return out, nil
}

func planFile(path string, src []byte, ds []diag.Diagnostic) File {
	f := File{Path: path, Src: src}
	var all []diag.Edit
	for _, d := range ds {
		if why := Unsafe(path, src, Edits(d)); why != "" {
			f.Skipped = fmt.Sprintf("the fix for %s at line %d is not safe (%s)", d.Code, d.Line, why)
			return f
		}
		all = append(all, Edits(d)...)
		f.Fixes++
	}
	es, err := normalize(src, all)
	if errors.Is(err, ErrOverlap) {
		err = overlapping(src, ds)
	}
	if err == nil && len(ds) > 1 {
		if why := Unsafe(path, src, es); why != "" {
			err = errors.New("the fixes together are not safe (" + why + ")")
		}
	}
	var fixed []byte
	if err == nil {
		fixed, err = Apply(src, es)
	}
	if err != nil {
		f.Skipped, f.Fixes = err.Error(), 0
		return f
	}
	f.Edits, f.Fixed = es, fixed
	return f
}

// overlapping names the first two diagnostics whose fixes overlap.
func overlapping(src []byte, ds []diag.Diagnostic) error {
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			if _, err := normalize(src, append(slices.Clone(Edits(ds[i])), Edits(ds[j])...)); errors.Is(err, ErrOverlap) {
				return fmt.Errorf("the fixes for %s at line %d and %s at line %d overlap; apply one by hand and run again",
					ds[i].Code, ds[i].Line, ds[j].Code, ds[j].Line)
			}
		}
	}
	return ErrOverlap
}

// ReadSource reads a Python file the way the scan does, through the
// bounded reader.
func ReadSource(path string) ([]byte, error) {
	return readlimit.ReadFile(path, readlimit.Python)
}

// Write writes every planned file that is not skipped, each atomically
// (a temporary file renamed over it, keeping its mode), and returns the
// paths written. A file whose contents changed since it was planned is
// not written (the error says so); the files before it stay written.
// The check and the write exclude other nullius steps only under the
// package's lock: FixPackage calls Write holding it.
func Write(files []File) ([]string, error) {
	var done []string
	for _, f := range files {
		if f.Skipped != "" || f.Fixed == nil {
			continue
		}
		info, err := os.Stat(f.Path)
		if err != nil {
			return done, err
		}
		now, err := ReadSource(f.Path)
		if err != nil {
			return done, err
		}
		if !bytes.Equal(now, f.Src) {
			return done, fmt.Errorf("%s changed while it was being fixed; run again", f.Path)
		}
		if err := atomicfile.WriteFile(f.Path, f.Fixed, info.Mode().Perm()); err != nil {
			return done, err
		}
		done = append(done, f.Path)
	}
	return done, nil
}

// DropUnsafe returns ds with every fix that is not safe removed, so a
// printer (SARIF's fixes[]) offers only what --fix would apply. Files are
// read with read, once each; a file that cannot be read keeps no fix.
func DropUnsafe(ds []diag.Diagnostic, read func(path string) ([]byte, error)) []diag.Diagnostic {
	out := slices.Clone(ds)
	srcs := map[string][]byte{}
	for i, d := range out {
		if len(d.Fixes) == 0 {
			continue
		}
		src, ok := srcs[d.Path]
		if !ok {
			src, _ = read(d.Path)
			srcs[d.Path] = src
		}
		var keep []diag.Fix
		for _, f := range d.Fixes {
			if src != nil && Unsafe(d.Path, src, f.Edits) == "" {
				keep = append(keep, f)
			}
		}
		out[i].Fixes = keep
	}
	return out
}
