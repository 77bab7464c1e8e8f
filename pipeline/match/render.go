package match

import (
	"os"
	"path/filepath"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// RenderOptions select what `match render` writes into the materials dir.
type RenderOptions struct {
	MaterialsDir     string
	CardA, CardB     string // card files
	NodeA, NodeB     string // node ids for bare idea_card_v1 cards
	Summaries        bool   // card_summary_{a,b}.md
	StatementPrompts bool   // statement_request_{a,b}.md
	WordCap          int
}

// Render writes card summaries and statement requests (§2). Both cards and
// the commitment are read and checked before anything is written, so a bad
// card b no longer leaves card a's files behind.
func Render(o RenderOptions) (*Summary, error) {
	if o.CardA == "" || o.CardB == "" {
		return nil, refuse("--card-a and --card-b are required for rendering modes")
	}
	var lk locks
	defer lk.release()
	if err := lk.add(o.MaterialsDir); err != nil {
		return nil, err
	}
	cpath := filepath.Join(o.MaterialsDir, "commitment.json")
	commitment, err := LoadCommitment(cpath, "commitment.json")
	if readRefused(err) {
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
		v, err := readJSON(side.path, "idea card", readlimit.JSON)
		if err != nil {
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
