package gaiaref

import "github.com/nullius-dev/nullius/pyscan"

// TitleMap is the reference's claim identity by title (M6): variable ->
// the literal `title=` of the claim assigned to it, forgotten when the
// variable is assigned again anywhere in the file.
type TitleMap struct {
	titles     map[string]string
	reassigned map[string]bool
	// aliases holds plain `r2 = downstream_reach` assignments (W3): Gaia
	// labels a claim by its first variable, so the alias names the same
	// criterion.
	aliases map[string]string
}

// Title returns the claim title recorded for a variable.
func (t *TitleMap) Title(name string) (string, bool) {
	if t == nil || t.reassigned[name] {
		return "", false
	}
	s, ok := t.titles[name]
	return s, ok
}

// Is reports whether the hypothesis expression names the claim X: a bare
// name that is X itself or a variable whose claim title is X.
func (t *TitleMap) Is(hyp *pyscan.Expr, x string) bool {
	if hyp == nil || hyp.Kind != pyscan.ExprName {
		return false
	}
	name := hyp.Name
	for range 8 { // follow at most a few aliases; a cycle ends the walk
		if name == x {
			return true
		}
		if title, ok := t.Title(name); ok && title == x {
			return true
		}
		next, ok := t.aliases[name]
		if !ok || t.reassigned[name] {
			return false
		}
		name = next
	}
	return false
}

// buildTitles sets f.Titles to the file's TitleMap, which records `x =
// claim(..., title="...")` assignments with one bare-name target anywhere
// in the file. The claim call may be any Gaia
// claim (also through an alias, which the reference missed) or a call
// spelled `claim` whose provenance is unknown: for identity, recognising
// more claims only means checking more updates.
func buildTitles(f *File) {
	// The maps are made on first write: most modules assign few claims
	// and no aliases, and a nil map reads as empty.
	t := &f.titles
	f.Titles = t
	for _, a := range f.Module.Assigns {
		if len(a.Targets) != 1 || a.Targets[0].Kind != pyscan.ExprName {
			continue
		}
		name := a.Targets[0].Name
		title, isClaim := claimTitle(f, a)
		_, mapped := t.titles[name]
		_, aliased := t.aliases[name]
		plain := !a.Annotated && !a.Augmented && !a.Walrus
		switch {
		case mapped || aliased || t.reassigned[name]:
			if !a.Annotated || a.Value != nil {
				if t.reassigned == nil {
					t.reassigned = map[string]bool{}
				}
				t.reassigned[name] = true
			}
		case isClaim && plain:
			if t.titles == nil {
				t.titles = make(map[string]string, claims(f))
			}
			t.titles[name] = title
		case plain && a.Value != nil && a.Value.Kind == pyscan.ExprName:
			if t.aliases == nil {
				t.aliases = map[string]string{}
			}
			t.aliases[name] = a.Value.Name
		}
	}
}

// claimTitle returns the literal title of a claim call assigned by a.
func claimTitle(f *File, a *pyscan.Assign) (string, bool) {
	v := a.Value
	if v == nil || v.Kind != pyscan.ExprCall || v.Call == nil {
		return "", false
	}
	c := v.Call
	// Spelled claim, or a claim statement under another name: the
	// spelling, which nearly every claim has, spares the map lookup.
	if spelled(c.Func) != "claim" {
		if s := f.byCall[c]; s == nil || s.Verb != "claim" {
			return "", false
		}
	}
	k := c.Keyword("title")
	if k == nil || k.Value.Kind != pyscan.ExprString {
		return "", false
	}
	return k.Value.Str, true
}

// claims counts the claim statements of f: nearly every one is assigned
// a title, so the title map is made that large at once rather than grown
// (growing it was a fifth of gaiaref's time on modules of a few hundred
// claims). Claims of unknown provenance are not counted; the map grows
// for them.
func claims(f *File) int {
	n := 0
	for _, s := range f.Stmts {
		if s.Verb == "claim" {
			n++
		}
	}
	return n
}
