package binding

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Found is a package directory bound to an idea.
type Found struct {
	Dir     string // relative to the scanned root, slash-separated
	Binding Binding
}

// Index is every bound package under a directory, so reports can name the
// package of an idea node (match pairs, report portfolio).
type Index struct {
	Packages []Found // sorted by Dir
	// Problems are packages whose binding could not be read (malformed,
	// unreadable): reported, never guessed.
	Problems []error
}

// skipDir reports the directories that never hold a project's own packages.
func skipDir(name string) bool {
	switch name {
	case "node_modules", "venv", "__pycache__", "site-packages":
		return true
	}
	return false
}

// Scan walks root for Gaia packages (directories holding a pyproject.toml)
// and indexes the bound ones. Hidden directories, virtual environments and
// node_modules are skipped, symlinks are not followed, and a package's own
// subdirectories are not searched (packages do not nest).
func Scan(root string) (*Index, error) {
	ix := &Index{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable corner of the tree holds no package we could bind
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && (strings.HasPrefix(d.Name(), ".") || skipDir(d.Name())) {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(Path(p))
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		b, bound, err := Read(p)
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case err != nil:
			ix.Problems = append(ix.Problems, err)
		case bound:
			ix.Packages = append(ix.Packages, Found{Dir: rel, Binding: b})
		}
		if p == root {
			return nil // a project whose root is a package may still hold others
		}
		return filepath.SkipDir
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ix.Packages, func(a, b Found) int { return strings.Compare(a.Dir, b.Dir) })
	return ix, nil
}

// ErrAmbiguous is returned by Lookup when several packages are bound to one
// idea.
var ErrAmbiguous = errors.New("several packages are bound to this idea")

// Lookup returns the directories of the packages bound to node (and to
// campaign, when it is not ""): none, one, or several with ErrAmbiguous.
func (ix *Index) Lookup(campaign, node string) (dirs []string, err error) {
	if ix == nil {
		return nil, nil
	}
	for _, f := range ix.Packages {
		if f.Binding.NodeID == node && (campaign == "" || f.Binding.CampaignID == campaign) {
			dirs = append(dirs, f.Dir)
		}
	}
	if len(dirs) > 1 {
		return dirs, ErrAmbiguous
	}
	return dirs, nil
}

// NodeCampaign is the campaign_id a node of a nodes file (the engine's
// nodes_latest.json) is looked up under (Lookup): the node's own when it
// is a non-empty string, else the wrapper's ({"campaign_id", "nodes"})
// when it is a string, else "" (any campaign). wrapper is nil for the
// engine's native {node_id: node} map. `match pairs` and `report
// portfolio` both call it, so the report and the next round name the same
// package for a node (the reference's portfolio ignores the wrapper's
// campaign_id: docs/deviations.md).
func NodeCampaign(node, wrapper map[string]any) string {
	if own, _ := node["campaign_id"].(string); own != "" {
		return own
	}
	w, _ := wrapper["campaign_id"].(string)
	return w
}
