// Package workdir shows paths the way the user would type them from the
// working directory. One implementation, so match pairs, the ledger's
// findings and writeback's messages name a file alike.
package workdir

import (
	"os"
	"path/filepath"
	"strings"
)

// Rel returns p relative to the working directory when that form does not
// begin with "..", else p as given (also when the working directory is
// unknown, or p cannot be made relative to it). The test is on the text:
// a path that leaves the working directory keeps its own form, and so
// does one under a directory whose name begins with ".." (such as "..x").
func Rel(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}
