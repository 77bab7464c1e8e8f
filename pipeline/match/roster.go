package match

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// RosterSource says where a roster came from (§5.1).
type RosterSource struct {
	Source string // explicit, project, user, builtin
	Path   string // "" for builtin
}

// ResolveRoster finds the roster in the reference's order (§5.1): explicit
// --roster, the project's <git root>/.nullius/agents.json, the user's
// ~/.nullius/agents.json, then the built-in single native family. home ""
// means "no user roster" (an unresolvable home never breaks resolution).
//
// Unlike the reference (W26), a roster path that exists but is a directory
// or a broken symlink is a loud error, not a silent fall-through.
func ResolveRoster(explicit, materialsDir, home string) (*matchproto.Roster, RosterSource, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return nil, RosterSource{}, refuse("cannot read roster %s: %v", explicit, err)
		}
		r, err := loadRoster(explicit)
		return r, RosterSource{"explicit", explicit}, err
	}
	userFile := ""
	if home != "" {
		userFile = filepath.Join(home, ".nullius", "agents.json")
	}
	if root := gitRoot(materialsDir); root != "" {
		pf := filepath.Join(root, ".nullius", "agents.json")
		ok, err := presentFile(pf)
		if err != nil {
			return nil, RosterSource{}, err
		}
		if ok {
			if userFile != "" && sameFile(pf, userFile) {
				r, err := loadRoster(pf)
				return r, RosterSource{"user", userFile}, err
			}
			r, err := loadRoster(pf)
			return r, RosterSource{"project", pf}, err
		}
	}
	if userFile != "" {
		ok, err := presentFile(userFile)
		if err != nil {
			return nil, RosterSource{}, err
		}
		if ok {
			r, err := loadRoster(userFile)
			return r, RosterSource{"user", userFile}, err
		}
	}
	r, ps := vm.ParseRoster(matchproto.BuiltinRoster())
	if len(ps) > 0 {
		return nil, RosterSource{}, refuse("built-in roster: %s", vm.Join(ps))
	}
	return r, RosterSource{"builtin", ""}, nil
}

// presentFile reports a regular file at p; nothing at p is (false, nil);
// anything else at p (directory, broken symlink) is an error.
func presentFile(p string) (bool, error) {
	fi, err := os.Stat(p)
	if err == nil {
		if fi.Mode().IsRegular() {
			return true, nil
		}
		return false, refuse("roster %s is not a regular file; remove it or replace it with an agents.json", p)
	}
	if _, lerr := os.Lstat(p); lerr == nil {
		return false, refuse("roster %s is a broken symlink; remove it or point it at an agents.json", p)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return false, refuse("cannot read roster %s: %v", p, err)
}

func loadRoster(p string) (*matchproto.Roster, error) {
	b, err := readlimit.ReadFile(p, readlimit.Small)
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		return nil, refuse("cannot read roster %s: %v", p, err)
	}
	d, err := matchproto.Decode(b)
	if err != nil {
		return nil, refuse("roster %s is not valid JSON: %v", p, err)
	}
	if len(d.Duplicates) > 0 {
		return nil, refuse("%s: repeated key at %v; readers disagree on which value counts", p, d.Duplicates)
	}
	r, ps := vm.ParseRoster(d.Value)
	if len(ps) > 0 {
		return nil, refuse("%s: %s", p, vm.Join(ps))
	}
	return r, nil
}

// gitRoot walks up from dir (symlinks resolved) to the first directory
// holding .git (a directory or a file); "" when there is none.
func gitRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	for {
		if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
			return abs
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}
