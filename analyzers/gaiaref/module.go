package gaiaref

import (
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/pyscan"
)

// Verbs resolves the calls of one parsed module on its own, without its
// package's other modules (so a verb re-exported by a sibling module is
// not seen), and returns the Gaia verb of each call that is a statement.
// It serves an editor's hover, which looks at one buffer.
func Verbs(m *pyscan.Module) map[*pyscan.Call]string {
	f := newResolver([]*pyscan.Module{m}).resolveFile(&pyparse.File{Path: m.Path, Src: m.Src, Module: m, BadByte: -1})
	out := make(map[*pyscan.Call]string, len(f.Stmts))
	for _, s := range f.Stmts {
		out[s.Call] = s.Verb
	}
	return out
}
