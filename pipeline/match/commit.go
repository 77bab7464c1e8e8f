package match

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

func isUTF8(b []byte) bool { return utf8.Valid(b) }

// LoadCriteriaFile reads a --criteria-file: a JSON array of strings.
func LoadCriteriaFile(path string) (any, error) {
	b, err := readlimit.ReadFile(path, readlimit.Small)
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		return nil, refuse("cannot read --criteria-file %s: %v", path, err)
	}
	d, err := matchproto.Decode(b)
	if err != nil {
		return nil, refuse("cannot read --criteria-file %s: %v", path, err)
	}
	return d.Value, nil
}

// Commit canonicalizes criteria, and writes the commitment to out with an
// exclusive atomic create (§1.3): an existing file is never overwritten
// (exit 2), even by a concurrent writer (W23).
func Commit(out string, criteria any, now Clock) (matchproto.Object, error) {
	if _, err := os.Lstat(out); err == nil {
		return nil, &Error{Code: ExitInvalid, Msg: fmt.Sprintf("%s already exists; a criteria commitment is never overwritten (commit to a new path)", out)}
	}
	c, err := matchproto.BuildCommitment(criteria, now.now())
	if err != nil {
		return nil, refuse("criteria are invalid: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, fmt.Errorf("could not create %q: %w", filepath.Dir(out), err)
	}
	var lk lockfile.Set
	defer lk.Release()
	if err := lk.Add(filepath.Dir(out)); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteNew(out, matchproto.Marshal(c), 0o644); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &Error{Code: ExitInvalid, Msg: fmt.Sprintf("%s already exists; a criteria commitment is never overwritten (commit to a new path)", out)}
		}
		return nil, err
	}
	return c, nil
}
