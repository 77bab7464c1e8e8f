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
	"github.com/nullius-dev/nullius/pipeline/extract"
	vm "github.com/nullius-dev/nullius/validators/match"
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
	Winner  string // "a", "b" or "tie"
	Tier    int    // 10, 3, or 0 for a tie
	Edited  []string
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
	tally    vm.TallyResult
	tier     int // 10, 3, or 0 for a tie
	winner   string
	written  bool
	doc      *jsonloc.Doc
}

// Absorb runs the whole step. It returns a *Refusal when a gate refuses
// (exit 1 at the CLI) and a plain error for I/O failures (exit 2).
func Absorb(opts Options, checks Checks) (*Result, error) {
	data, err := os.ReadFile(opts.Artifact)
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
	res := &Result{MatchID: m.id, Winner: m.winner}
	tier := Tier(m.votes)
	if m.winner == "tie" {
		res.Message = fmt.Sprintf("match %s is a tie: no observation is produced and nothing was changed", m.id)
		return res, nil
	}
	res.Tier = tier
	root, err := projectRoot(opts)
	if err != nil {
		return nil, err
	}
	sides := []side{{pkg: opts.APackage, node: m.a, other: m.b, won: m.winner == "a"}, {pkg: opts.BPackage, node: m.b, other: m.a, won: m.winner == "b"}}
	if filepath.Clean(opts.APackage) == filepath.Clean(opts.BPackage) {
		return nil, refuse("--a-package and --b-package name the same package %q; a match compares two ideas", opts.APackage)
	}
	anchorPath := relOrAbs(root, opts.Artifact)
	for i := range sides {
		s := &sides[i]
		if s.module, err = checks.Module(s.pkg); err != nil {
			return nil, refuse("package %s: %v", s.pkg, err)
		}
		if s.orig, err = os.ReadFile(s.module); err != nil {
			return nil, err
		}
		if bytes.Contains(s.orig, []byte(marker(m.id))) {
			return nil, refuse("%s already holds match %s; a match is absorbed exactly once", s.module, m.id)
		}
		if !bindsWorth.Match(s.orig) {
			return nil, refuse("%s does not bind 'worth' at module level; absorb appends an update of worth there", s.module)
		}
		if err := lintClean(checks, s.pkg, "before the edit"); err != nil {
			return nil, err
		}
		s.next = append(append([]byte{}, s.orig...), block(m, *s, tier, anchorPath)...)
	}
	if err := applyAll(sides, checks); err != nil {
		return nil, err
	}
	refs := []string{packageRef(root, opts.APackage), packageRef(root, opts.BPackage)}
	updated, err := markWritten(m.doc, strings.Join(refs, " "))
	if err == nil {
		err = atomicfile.WriteFile(opts.Artifact, updated, 0o644)
	}
	if err != nil {
		rollback(sides)
		return nil, fmt.Errorf("could not record the absorption in %s, both packages restored: %w", opts.Artifact, err)
	}
	for _, s := range sides {
		res.Edited = append(res.Edited, s.module)
	}
	res.Message = fmt.Sprintf("match %s: %s win for idea %s (tier %d) absorbed into both graphs; observation_write.written set", m.id, map[int]string{10: "unanimous", 3: "split"}[tier], m.winner, tier)
	return res, nil
}

type side struct {
	pkg, node, other string
	won              bool
	module           string
	orig, next       []byte
	written          bool
}

var bindsWorth = regexp.MustCompile(`(?m)^worth\s*(:[^=\n]*)?=`)

func lintClean(checks Checks, pkg, when string) error {
	ds, err := checks.Lint(pkg)
	if err != nil {
		return err
	}
	if diag.HasBlocking(ds) {
		return &Refusal{Msg: fmt.Sprintf("package %s does not lint clean %s; nothing was absorbed", pkg, when), Diagnostics: ds}
	}
	return nil
}

// applyAll writes every side, lints each edited package, and restores all
// of them if anything fails.
func applyAll(sides []side, checks Checks) error {
	for i := range sides {
		if err := atomicfile.WriteFile(sides[i].module, sides[i].next, 0o644); err != nil {
			rollback(sides)
			return err
		}
		sides[i].written = true
	}
	for _, s := range sides {
		if err := lintClean(checks, s.pkg, "after the edit"); err != nil {
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
			_ = atomicfile.WriteFile(s.module, s.orig, 0o644)
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
	for _, e := range panel {
		entry, _ := e.(map[string]any)
		switch entry["vote"] {
		case "a":
			m.votes[0]++
		case "b":
			m.votes[1]++
		case "tie":
			m.votes[2]++
		}
	}
	out, _ := obj["outcome"].(map[string]any)
	m.winner, _ = out["winner"].(string)
	if m.winner != tally(m.votes) {
		return nil, fmt.Errorf("outcome.winner %q does not match the panel tally %q", m.winner, tally(m.votes))
	}
	ow, _ := obj["observation_write"].(map[string]any)
	m.written, _ = ow["written"].(bool)
	return m, nil
}

func tally(v [3]int) string {
	switch {
	case v[0] > v[1]:
		return "a"
	case v[1] > v[0]:
		return "b"
	}
	return "tie"
}

// Tier maps votes (a, b, tie) to the protocol's likelihood tier: 10 for a
// unanimous win, 3 for a split win, 0 for a tie. Unanimous means the loser
// has no vote AND the winner holds a majority of the whole panel: the
// reference also calls [a, tie, tie] unanimous (W28), one judge of three
// carrying a substantial grade; nullius grades it a split win.
func Tier(v [3]int) int {
	n := v[0] + v[1] + v[2]
	win, lose := max(v[0], v[1]), min(v[0], v[1])
	switch {
	case v[0] == v[1]:
		return 0
	case lose == 0 && 2*win > n:
		return 10
	}
	return 3
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

func marker(id string) string { return "# nullius: absorbed pairwise match " + id }

// block renders the statements appended to one side's module.
func block(m *match, s side, tier int, anchorPath string) []byte {
	v := "pairwise_match_" + m.id
	fam := "pairwise-match-" + m.id
	anchor := fmt.Sprintf("anchor: pairwise_match_v1 %s at %s", m.id, anchorPath)
	kind := map[int]string{10: "unanimous", 3: "split"}[tier]
	var content, reasoning string
	if s.won {
		content = fmt.Sprintf("In pairwise match %s a judge panel preferred this idea over idea %s on the committed criteria (%d votes to %d, %d ties).", m.id, s.other, votesFor(m, s.node), votesFor(m, s.other), m.votes[2])
		reasoning = fmt.Sprintf("reader_reasoning: a %s panel win over idea %s is %d times as likely if this idea merits sustained effort as if it does not. ", kind, s.other, tier)
	} else {
		content = fmt.Sprintf("In pairwise match %s a judge panel preferred idea %s over this idea on the committed criteria (%d votes to %d, %d ties).", m.id, s.other, votesFor(m, s.other), votesFor(m, s.node), m.votes[2])
		reasoning = fmt.Sprintf("reader_reasoning: a %s panel loss to idea %s is %d times as likely if this idea does not merit sustained effort as if it does. ", kind, s.other, tier)
	}
	family := fmt.Sprintf("evidence_family: %s; correlation_model: single; ", fam)
	h, nh := grade(tier, s.won)
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n%s (appended by nullius match absorb; the artifact is the record)\n", marker(m.id))
	b.WriteString("from gaia.engine.lang import claim, infer, observe  # noqa: E402\n\n")
	fmt.Fprintf(&b, "%s = claim(\n    %s,\n    title=%s,\n)\n", v, pyQuote(content), pyQuote(v))
	fmt.Fprintf(&b, "observe(\n    %s,\n    rationale=(\n        %s\n        %s\n    ),\n)\n", v,
		pyQuote(family+"the panel outcome is recorded in the match artifact. "), pyQuote(anchor))
	fmt.Fprintf(&b, "infer(\n    %s,\n    hypothesis=worth,\n    p_e_given_h=%s,\n    p_e_given_not_h=%s,\n    rationale=(\n        %s\n        %s\n        %s\n    ),\n)\n",
		v, h, nh, pyQuote(reasoning), pyQuote(family), pyQuote(anchor))
	return []byte(b.String())
}

func votesFor(m *match, node string) int {
	if node == m.a {
		return m.votes[0]
	}
	return m.votes[1]
}

// pyQuote renders s as a double-quoted Python string literal.
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
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
	refJSON := pyQuote(ref) // every escape pyQuote emits is also a JSON escape
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

func projectRoot(opts Options) (string, error) {
	if opts.ProjectRoot != "" {
		return filepath.Abs(opts.ProjectRoot)
	}
	dir, err := filepath.Abs(opts.APackage)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if fi, err := os.Stat(filepath.Join(d, ".nullius")); err == nil && fi.IsDir() {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", refuse("no project root found: no ancestor of %s contains .nullius/ (pass --project-root)", opts.APackage)
		}
		d = parent
	}
}

func relOrAbs(root, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// packageRef is the project:// reference of a package directory (without a
// pin: the pin changes when the package is recompiled after absorption).
func packageRef(root, pkg string) string {
	return "project://" + encodePath(relOrAbs(root, pkg))
}

// encodePath percent-encodes a path as the reference does: keep A-Z a-z
// 0-9 _ . - ~ and /, encode every other byte as %XX.
func encodePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("_.-~/", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
