package fix

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lockfile"
)

// Linter lints one package with overlay in place of its Python files on
// disk, and returns the findings and the files it linted (as the lint
// spelled them, the overlay's keys).
type Linter func(overlay map[string][]byte) (ds []diag.Diagnostic, files []string, err error)

// Package is what FixPackage did to one package.
type Package struct {
	Files   []File   // the plan, made under the lock against the bytes read under it
	Written []string // the files written, in order
}

// FixPackage applies the safe fixes of the package in dir, whose Python
// files are files, under the package directory's lock: the lock `nullius
// match absorb` and `nullius bind` take (lockfile, <dir>/.nullius.lock),
// with the same waiting rules (lockfile.Wait: $NULLIUS_LOCK_WAIT, default
// 10 s; then a *lockfile.BusyError and nothing is written). Without it a
// fix planned against the module an absorb is about to edit would be
// written over the absorb's block, losing a match the artifact says was
// absorbed.
//
// Under the lock it reads every file once, lints the package with exactly
// those bytes (lint, with them as the overlay), plans the fixes against
// the same bytes, and writes each file only while its bytes on disk are
// still the ones planned against (Write). So the findings, the plan and
// the verification all judge one version of each file, and no nullius
// step can change it between the plan and the write.
func FixPackage(dir string, files []string, lint Linter) (*Package, error) {
	var locks lockfile.Set
	defer locks.Release()
	if err := locks.Add(dir); err != nil {
		return nil, err
	}
	overlay := make(map[string][]byte, len(files))
	for _, p := range files {
		src, err := ReadSource(p)
		if err != nil {
			return nil, err
		}
		overlay[p] = src
	}
	ds, linted, err := lint(overlay)
	if err != nil {
		return nil, err
	}
	if !sameFiles(linted, files) {
		// A module added or removed since the first lint, or one the
		// overlay did not reach: nothing here proves what was linted.
		return nil, fmt.Errorf("the files of package %s changed while it was being fixed; run again", dir)
	}
	var mine []diag.Diagnostic
	for _, d := range ds {
		if _, ok := overlay[d.Path]; ok {
			mine = append(mine, d)
		}
	}
	plan, err := Plan(mine, func(p string) ([]byte, error) { return overlay[p], nil })
	if err != nil {
		return nil, err
	}
	if testHook != nil {
		testHook("planned", dir)
	}
	written, err := Write(plan)
	return &Package{Files: plan, Written: written}, err
}

// sameFiles reports whether a and b name the same files.
func sameFiles(a, b []string) bool {
	clean := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = filepath.Clean(p)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	return slices.Equal(clean(a), clean(b))
}

// testHook, when set, is called at the named points of FixPackage
// ("planned": the lock held, the plan made, nothing written yet) with the
// package directory. Only tests set it (SetTestHook), to hold a fix at that
// point and show that no other step can write the package meanwhile.
var testHook func(point, dir string)

// SetTestHook installs f as the test hook. The production binary never
// calls it: cmd/nullius installs one from a _test.go file.
func SetTestHook(f func(point, dir string)) { testHook = f }
