package match

import (
	"os"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// RenderOptions select what `match render` writes into the materials dir.
type RenderOptions struct {
	MaterialsDir string
	CardA, CardB string // card files
	NodeA, NodeB string // node ids for bare idea_card_v1 cards, or of the Nodes records
	// Nodes is the idea store's nodes_latest.json; with it the cards are
	// the records of NodeA and NodeB (idea_node_v1, the idea card inside),
	// and no card file is read.
	Nodes            string
	Summaries        bool // card_summary_{a,b}.md
	StatementPrompts bool // statement_request_{a,b}.md
	WordCap          int
}

// Render writes card summaries and statement requests (§2). Both cards and
// the commitment are read and checked before anything is written, so a bad
// card b no longer leaves card a's files behind.
func Render(o RenderOptions) (*Summary, error) {
	var nodes map[string]any
	switch {
	case o.Nodes != "":
		if o.CardA != "" || o.CardB != "" {
			return nil, refuse("--nodes takes the cards from the node records: give --node-a and --node-b, not --card-a/--card-b")
		}
		if o.NodeA == "" || o.NodeB == "" {
			return nil, refuse("--nodes needs --node-a and --node-b: the ids of the two nodes to match")
		}
		var err error
		if nodes, err = nodeRecords(o.Nodes); err != nil {
			return nil, err
		}
	case o.CardA == "" || o.CardB == "":
		return nil, refuse("--card-a and --card-b are required for rendering modes (or --nodes with --node-a and --node-b)")
	}
	var lk lockfile.Set
	defer lk.Release()
	if err := lk.Add(o.MaterialsDir); err != nil {
		return nil, err
	}
	cpath := filepath.Join(o.MaterialsDir, "commitment.json")
	commitment, err := LoadCommitment(cpath, "commitment.json")
	if readlimit.Refused(err) {
		return nil, err
	}
	if err != nil {
		if e, ok := err.(*Error); ok && len(e.Msg) > 0 && fileMissing(cpath) {
			return nil, refuse("%s not found; run nullius match commit first (the reference: commit_criteria.py first)", cpath)
		}
		return nil, err
	}
	type out struct{ path, text string }
	var outs, reqs []out
	for _, side := range []struct{ label, path, node string }{{"a", o.CardA, o.NodeA}, {"b", o.CardB, o.NodeB}} {
		var v any
		if nodes != nil {
			rec, ok := nodes[side.node]
			if !ok {
				return nil, refuse("%s has no node %s (--node-%s)", o.Nodes, side.node, side.label)
			}
			v = rec
		} else if v, err = readJSON(side.path, "idea card", readlimit.JSON); err != nil {
			return nil, err
		}
		c, err := matchproto.ParseCard(v, side.label, side.node)
		if err != nil {
			return nil, refuse("%v", err)
		}
		if o.Summaries {
			outs = append(outs, out{filepath.Join(o.MaterialsDir, "card_summary_"+side.label+".md"), matchproto.RenderSummary(side.label, c)})
		}
		if o.StatementPrompts {
			req, err := matchproto.RenderStatementRequest(side.label, c, commitment, o.WordCap)
			if err != nil {
				return nil, refuse("%v", err)
			}
			reqs = append(reqs, out{filepath.Join(o.MaterialsDir, "statement_request_"+side.label+".md"), req})
		}
	}
	s := &Summary{}
	for _, w := range append(outs, reqs...) {
		if err := atomicfile.WriteFile(w.path, []byte(w.text), 0o644); err != nil {
			return s, err
		}
		s.add(w.path)
	}
	return s, nil
}

func fileMissing(p string) bool {
	_, err := os.Stat(p)
	return err != nil
}

// nodeRecords reads an idea store's nodes file: the engine's map {node_id:
// node}, or a {"nodes": [...] | {...}} wrapper; records are keyed by their
// node_id (the map key when the record has none).
func nodeRecords(path string) (map[string]any, error) {
	v, err := readJSON(path, "nodes file", readlimit.JSON)
	if err != nil {
		return nil, err
	}
	top, ok := v.(matchproto.Object)
	if !ok {
		return nil, refuse("nodes file %s is not a JSON object", path)
	}
	var items []matchproto.Member
	if w, ok := top.Get("nodes"); ok {
		switch t := w.(type) {
		case matchproto.Object:
			items = t
		case []any:
			for _, e := range t {
				items = append(items, matchproto.Member{Value: e})
			}
		default:
			return nil, refuse("nodes file %s: nodes must be a list or an object", path)
		}
	} else {
		items = top
	}
	out := map[string]any{}
	for _, m := range items {
		rec, ok := m.Value.(matchproto.Object)
		if !ok {
			return nil, refuse("nodes file %s: node %s is not a JSON object", path, m.Key)
		}
		id := m.Key
		if n, ok := rec.Get("node_id"); ok {
			if s, ok := n.(string); ok && s != "" {
				id = s
			}
		}
		out[id] = rec
	}
	return out, nil
}
