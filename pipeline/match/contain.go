package match

import (
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/contain"
)

// contained checks that base/rel, a path whose layout the protocol fixes
// (§0.2: artifacts/matches under the campaign, votes/ and raw/ under the
// panel directory, the five materials files), resolves inside base once
// symlinks are followed (issue 7). base itself may be anywhere and may be
// a symlink: users and scripts name it; only what nullius derives from it
// is held inside it. A component that does not exist yet is fine: nullius
// creates it as a real directory. It returns a refusal naming the path
// and where it leads.
func contained(base, rel string) error {
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil // the step reports the missing base itself
	}
	p := filepath.Join(base, rel)
	real, err := contain.Resolve(p)
	if err != nil {
		return refuse("cannot resolve %s: %v", p, err)
	}
	if !contain.Within(real, realBase) {
		return refuse("%s resolves to %s, outside %s; the protocol keeps %s inside that directory, so replace the symlink with a real directory or file", p, real, base, rel)
	}
	return nil
}
