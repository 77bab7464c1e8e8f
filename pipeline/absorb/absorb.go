// Package absorb carries a finished pairwise match into the belief layer:
// the winner's Gaia graph gains an observation of the match result and an
// infer() raising `worth`, the loser's graph the same observation with the
// swapped pair lowering `worth`, each at the fixed tier of the protocol
// (unanimous win: substantial 0.90/0.09; split win: weak 0.75/0.25). A tie
// changes nothing.
//
// The step is gated and bound to what it checked: the artifact is validated
// first, both packages must lint clean before and after the edit, the edit
// is atomic per module and rolled back as a whole on any failure, the same
// match is never absorbed twice, and the artifact's
// observation_write.written is the only artifact field ever changed.
package absorb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/extract"
)

// Checks are the gates absorb runs, injected so the step can be tested
// alone; the CLI wires the real validator and linter.
type Checks struct {
	// ValidateArtifact validates pairwise_match_v1 bytes read from path.
	ValidateArtifact func(path string, data []byte) []diag.Diagnostic
	// Lint runs the discipline (source and, when compiled, IR) on a package.
	Lint func(pkgDir string) ([]diag.Diagnostic, error)
	// Module returns the Python module of a package that binds `worth`.
	Module func(pkgDir string) (string, error)
}

// Options name the inputs.
type Options struct {
	Artifact    string // the match-<id>.json artifact
	APackage    string // package of idea_a_node_id
	BPackage    string // package of idea_b_node_id
	ProjectRoot string // for references and anchors; found by .nullius/ when empty
}

// Result says what happened.
type Result struct {
	MatchID string
	Winner  string   // "a", "b" or "tie"
	Tier    int      // 10, 3, or 0 for a tie
	Edited  []string // the modules edited, A's then B's
	Refs    []string // project:// references of both packages, recorded in the artifact
	Message string
}

// Refusal is a gate that said no. Diagnostics, when present, say why.
type Refusal struct {
	Msg         string
	Diagnostics []diag.Diagnostic
}

func (r *Refusal) Error() string { return r.Msg }

func refuse(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

var shortID = regexp.MustCompile(`^[0123456789abcdefghjkmnpqrstvwxyz]{8}$`)

// match is what absorb reads from the artifact.
type match struct {
	id, a, b string
	tally    matchproto.TallyResult
	tier     int // 10, 3, or 0 for a tie
	winner   string
	written  bool
	doc      *jsonloc.Doc
}

// Absorb runs the whole step. It returns a *Refusal when a gate refuses
// (exit 1 at the CLI) and a plain error for I/O failures (exit 2).
func Absorb(opts Options, checks Checks) (*Result, error) {
	data, err := readlimit.ReadFile(opts.Artifact, readlimit.JSON)
	if err != nil {
		return nil, err
	}
	if ds := checks.ValidateArtifact(opts.Artifact, data); diag.HasBlocking(ds) {
		return nil, &Refusal{Msg: "the match artifact is invalid; nothing was absorbed", Diagnostics: ds}
	}
	m, err := readMatch(data)
	if err != nil {
		return nil, refuse("%s: %v; nothing was absorbed", opts.Artifact, err)
	}
	if m.written {
		return nil, refuse("match %s is already absorbed (observation_write.written is true); a match reaches the belief layer exactly once", m.id)
	}
	res := &Result{MatchID: m.id, Winner: m.winner, Tier: m.tier}
	if m.tier == 0 {
		res.Message = fmt.Sprintf("match %s is a tie: no observation is produced and nothing was changed", m.id)
		return res, nil
	}
	pkgA, pkgB, root, err := resolveDirs(opts)
	if err != nil {
		return nil, err
	}
	// The references are computed before anything is edited, so a package
	// outside the project refuses the step instead of failing it halfway.
	var refs []string
	for _, p := range []string{pkgA, pkgB} {
		ref, err := packageRef(root, p)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	sides := []side{{pkg: opts.APackage, node: m.a, other: m.b, won: m.winner == "a"}, {pkg: opts.BPackage, node: m.b, other: m.a, won: m.winner == "b"}}
	anchor := anchorPath(root, opts.Artifact)
	for i := range sides {
		s := &sides[i]
		if s.module, err = checks.Module(s.pkg); err != nil {
			return nil, refuse("package %s: %v", s.pkg, err)
		}
		fi, err := os.Stat(s.module)
		if err != nil {
			return nil, err
		}
		s.mode = fi.Mode().Perm()
		if s.orig, err = readlimit.ReadFile(s.module, readlimit.Python); err != nil {
			return nil, err
		}
		if holdsMatch(s.orig, m.id) {
			return nil, refuse("%s already holds match %s; a match is absorbed exactly once", s.module, m.id)
		}
		if !bindsWorth.Match(s.orig) {
			return nil, refuse("%s does not bind 'worth' at module level; absorb appends an update of worth there", s.module)
		}
		if s.errCount, err = lintClean(checks, s.pkg, "before the edit"); err != nil {
			return nil, err
		}
		s.next = append(append([]byte{}, s.orig...), block(m, *s, anchor)...)
	}
	if err := applyAll(sides, checks); err != nil {
		return nil, err
	}
	if err := recordWritten(opts.Artifact, data, m.doc, strings.Join(refs, " ")); err != nil {
		rollback(sides)
		return nil, fmt.Errorf("could not record the absorption in %s, both packages restored: %w", opts.Artifact, err)
	}
	for _, s := range sides {
		res.Edited = append(res.Edited, s.module)
	}
	res.Refs = refs
	winnerID := map[string]string{"a": m.a, "b": m.b}[m.winner]
	res.Message = fmt.Sprintf("match %s: %s win for idea %s %s (tier %d) absorbed into both graphs; observation_write.written set", m.id, kindOf(m.tier), strings.ToUpper(m.winner), winnerID, m.tier)
	return res, nil
}

// kindOf names a tier as the protocol's mapping table does.
func kindOf(tier int) string {
	if tier == 10 {
		return "unanimous"
	}
	return "split"
}

// resolveDirs resolves both packages and the project root (symlink-free, as
// extraction does) and refuses two names for one package.
func resolveDirs(opts Options) (a, b, root string, err error) {
	if a, err = extract.ResolveDir(opts.APackage); err != nil {
		return "", "", "", fmt.Errorf("--a-package: %w", err)
	}
	if b, err = extract.ResolveDir(opts.BPackage); err != nil {
		return "", "", "", fmt.Errorf("--b-package: %w", err)
	}
	if a == b {
		return "", "", "", refuse("--a-package and --b-package name the same package %q; a match compares two ideas", opts.APackage)
	}
	if opts.ProjectRoot != "" {
		if root, err = extract.ResolveDir(opts.ProjectRoot); err != nil {
			return "", "", "", fmt.Errorf("--project-root: %w", err)
		}
		return a, b, root, nil
	}
	root, ok := extract.FindProjectRoot(a)
	if !ok {
		return "", "", "", refuse("no project root found: no ancestor of %s contains .nullius/ (pass --project-root)", opts.APackage)
	}
	return a, b, root, nil
}

// recordWritten sets observation_write in the artifact, refusing when the
// file changed since it was validated: the splice is of the checked bytes.
func recordWritten(path string, checked []byte, doc *jsonloc.Doc, ref string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	now, err := readlimit.ReadFile(path, readlimit.JSON)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, checked) {
		return errors.New("the artifact changed while it was being absorbed")
	}
	updated, err := markWritten(doc, ref)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, updated, fi.Mode().Perm())
}

type side struct {
	pkg, node, other string
	won              bool
	module           string
	orig, next       []byte
	mode             os.FileMode // kept across the atomic replace
	written          bool
	errCount         int // error findings before the edit, suppressed ones included
}

var bindsWorth = regexp.MustCompile(`(?m)^worth\s*(:[^=\n]*)?=`)

// lintClean runs the discipline on pkg and refuses on any blocking error.
// It returns how many error findings there are, suppressed ones included,
// so the check after the edit can tell whether the appended block added
// one: an inline ignore written for some other line must not let a broken
// update of worth through.
func lintClean(checks Checks, pkg, when string) (int, error) {
	ds, err := checks.Lint(pkg)
	if err != nil {
		return 0, err
	}
	if diag.HasBlocking(ds) {
		return 0, &Refusal{Msg: fmt.Sprintf("package %s does not lint clean %s; nothing was absorbed", pkg, when), Diagnostics: ds}
	}
	n := 0
	for _, d := range ds {
		if d.Severity == diag.Error {
			n++
		}
	}
	return n, nil
}

// applyAll writes every side, lints each edited package, and restores all
// of them if anything fails.
func applyAll(sides []side, checks Checks) error {
	for i := range sides {
		if err := atomicfile.WriteFile(sides[i].module, sides[i].next, sides[i].mode); err != nil {
			rollback(sides)
			return err
		}
		sides[i].written = true
	}
	for _, s := range sides {
		n, err := lintClean(checks, s.pkg, "after the edit")
		if err == nil && n > s.errCount {
			err = &Refusal{Msg: fmt.Sprintf("package %s has %d suppressed error findings after the edit, %d before; nothing was absorbed", s.pkg, n, s.errCount)}
		}
		if err != nil {
			rollback(sides)
			var r *Refusal
			if errors.As(err, &r) {
				r.Msg = strings.Replace(r.Msg, "nothing was absorbed", "both packages were restored", 1)
			}
			return err
		}
	}
	return nil
}

func rollback(sides []side) {
	for _, s := range sides {
		if s.written {
			_ = atomicfile.WriteFile(s.module, s.orig, s.mode)
		}
	}
}

func readMatch(data []byte) (*match, error) {
	doc, err := jsonloc.Parse(data, jsonloc.Options{})
	if err != nil {
		return nil, err
	}
	obj, ok := doc.Value.(map[string]any)
	if !ok {
		return nil, errors.New("artifact is not a JSON object")
	}
	m := &match{doc: doc}
	m.id, _ = obj["match_id"].(string)
	m.a, _ = obj["idea_a_node_id"].(string)
	m.b, _ = obj["idea_b_node_id"].(string)
	for _, id := range []string{m.id, m.a, m.b} {
		if !shortID.MatchString(id) {
			return nil, fmt.Errorf("id %q is not an engine short id", id)
		}
	}
	panel, _ := obj["panel"].([]any)
	var votes []string
	for _, e := range panel {
		entry, _ := e.(map[string]any)
		v, _ := entry["vote"].(string)
		votes = append(votes, v)
	}
	if m.tally, err = matchproto.Tally(votes); err != nil {
		return nil, err
	}
	out, _ := obj["outcome"].(map[string]any)
	m.winner, _ = out["winner"].(string)
	if m.winner != m.tally.Winner {
		return nil, fmt.Errorf("outcome.winner %q does not match the panel tally %q", m.winner, m.tally.Winner)
	}
	if m.tier, _, err = matchproto.Tier(m.tally); err != nil {
		return nil, err
	}
	ow, _ := obj["observation_write"].(map[string]any)
	m.written, _ = ow["written"].(bool)
	return m, nil
}

// grade returns (p_e_given_h, p_e_given_not_h) as literal text.
func grade(tier int, raise bool) (string, string) {
	h, nh := "0.90", "0.09"
	if tier == 3 {
		h, nh = "0.75", "0.25"
	}
	if !raise {
		h, nh = nh, h
	}
	return h, nh
}

// marker opens an appended block. It must not start with "# nullius:",
// which is the inline-directive prefix the linter parses.
func marker(id string) string { return "# absorbed pairwise match " + id }

// holdsMatch reports whether a module already carries match id: the block's
// marker, or its evidence family written by hand.
func holdsMatch(src []byte, id string) bool {
	return bytes.Contains(src, []byte(marker(id))) || regexp.MustCompile(`evidence_family\s*:\s*pairwise-match-`+id+`\s*;`).Match(src)
}

// block renders the statements appended to one side's module.
func block(m *match, s side, artifactAt string) []byte {
	tier := m.tier
	v := "pairwise_match_" + m.id
	fam := "pairwise-match-" + m.id
	anchor := fmt.Sprintf("anchor: pairwise_match_v1 %s at %s", m.id, artifactAt)
	kind := kindOf(tier)
	var content, reasoning string
	if s.won {
		content = fmt.Sprintf("In pairwise match %s a judge panel preferred this idea over idea %s on the committed criteria (%d votes to %d, %s).", m.id, s.other, votesFor(m, s.node), votesFor(m, s.other), ties(m.tally.Ties))
		reasoning = fmt.Sprintf("reader_reasoning: a %s panel win over idea %s is %d times as likely if this idea merits sustained effort as if it does not. ", kind, s.other, tier)
	} else {
		content = fmt.Sprintf("In pairwise match %s a judge panel preferred idea %s over this idea on the committed criteria (%d votes to %d, %s).", m.id, s.other, votesFor(m, s.other), votesFor(m, s.node), ties(m.tally.Ties))
		reasoning = fmt.Sprintf("reader_reasoning: a %s panel loss to idea %s is %d times as likely if this idea does not merit sustained effort as if it does. ", kind, s.other, tier)
	}
	family := fmt.Sprintf("evidence_family: %s; correlation_model: single; ", fam)
	h, nh := grade(tier, s.won)
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n%s (appended by 'nullius match absorb'; the match artifact is the record)\n", marker(m.id))
	b.WriteString("from gaia.engine.lang import claim, infer, observe  # noqa: E402\n\n")
	fmt.Fprintf(&b, "%s = claim(\n    %s,\n    title=%s,\n)\n", v, pyfmt.Quote(content, '"'), pyfmt.Quote(v, '"'))
	fmt.Fprintf(&b, "observe(\n    %s,\n    rationale=(\n        %s\n        %s\n        %s\n    ),\n)\n", v,
		pyfmt.Quote("reader_reasoning: the match artifact records every judge's vote and anchored arguments. ", '"'), pyfmt.Quote(family, '"'), pyfmt.Quote(anchor, '"'))
	fmt.Fprintf(&b, "infer(\n    %s,\n    hypothesis=worth,\n    p_e_given_h=%s,\n    p_e_given_not_h=%s,\n    rationale=(\n        %s\n        %s\n        %s\n    ),\n)\n",
		v, h, nh, pyfmt.Quote(reasoning, '"'), pyfmt.Quote(family, '"'), pyfmt.Quote(anchor, '"'))
	return []byte(b.String())
}

// ties says how many judges called the match a tie, in words.
func ties(n int) string {
	if n == 1 {
		return "1 tie"
	}
	return fmt.Sprintf("%d ties", n)
}

func votesFor(m *match, node string) int {
	if node == m.a {
		return m.tally.A
	}
	return m.tally.B
}

// markWritten splices observation_write in the artifact bytes, keeping every
// other byte as it was.
func markWritten(doc *jsonloc.Doc, ref string) ([]byte, error) {
	start, end, ok := doc.Range("/observation_write")
	if !ok {
		return nil, errors.New("artifact has no observation_write")
	}
	line, _ := doc.Position(start)
	indent := leadingSpace(doc.Src, line)
	refJSON := pyfmt.JSONString(ref, false)
	repl := fmt.Sprintf("{\n%s  \"written\": true,\n%s  \"gaia_package_ref\": %s\n%s}", indent, indent, refJSON, indent)
	out := append(append(append([]byte{}, doc.Src[:start]...), repl...), doc.Src[end:]...)
	if _, err := jsonloc.Parse(out, jsonloc.Options{}); err != nil {
		return nil, fmt.Errorf("internal error: spliced artifact is not JSON: %w", err)
	}
	return out, nil
}

func leadingSpace(src []byte, line int) string {
	lines := bytes.Split(src, []byte("\n"))
	if line-1 >= len(lines) {
		return ""
	}
	l := lines[line-1]
	return string(l[:len(l)-len(bytes.TrimLeft(l, " \t"))])
}

// anchorPath is where the anchor says the artifact is: relative to the
// project root when it sits under it (resolved like the root, so a symlinked
// temp dir does not turn it absolute), else its absolute path.
func anchorPath(root, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if rel, err := extract.RelPath(abs, root); err == nil {
		return rel
	}
	return filepath.ToSlash(abs)
}

// packageRef is the project:// reference of a resolved package directory,
// encoded as extraction encodes it but without a pin: the pin changes when
// the package is recompiled after absorption.
func packageRef(root, pkg string) (string, error) {
	rel, err := extract.RelPath(pkg, root)
	if err != nil {
		return "", refuse("package %s: %v (project root %s); absorb records project:// references relative to the root", pkg, err, root)
	}
	return "project://" + extract.PercentEncode(rel), nil
}
