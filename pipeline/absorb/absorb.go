// Package absorb carries a finished pairwise match into the belief layer:
// the winner's Gaia graph gains an observation of the match result and an
// infer() raising `worth`, the loser's graph the same observation with the
// swapped pair lowering `worth`, each at the fixed tier of the protocol
// (unanimous win: substantial 0.90/0.09; split win: weak 0.75/0.25). A tie
// changes nothing. A panel whose independence the artifact does not
// establish (independent_runners false, or a single_family panel) never
// counts as tier 10: its unanimous win is graded weak, and the graph says
// why.
//
// The step is gated and bound to what it checked: the artifact is validated
// first, both packages must be bound to the artifact's ideas and lint clean
// before and after the edit, the same match is never absorbed twice, and
// the artifact's observation_write is the only artifact field ever
// changed. The three edits are one locked, journaled transaction (see
// journal.go): all or nothing, also across kill -9.
package absorb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/projroot"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/extract"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// Checks are the gates absorb runs, injected so the step can be tested
// alone; the CLI wires the real validator and linter. Every one is
// required.
type Checks struct {
	// ValidateArtifact validates pairwise_match_v1 bytes read from path and
	// returns them parsed in the protocol's ordered model (nil when they
	// are not JSON): absorb reads the parse it validated, it does not
	// parse the artifact again (issue 14: one JSON model per parse).
	ValidateArtifact func(path string, data []byte) (*jsonloc.Doc, []diag.Diagnostic)
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

// Result says what happened; Absorb returns one on every outcome, so
// --format json can report refusals and errors too.
type Result struct {
	// Status is "absorbed", "tie" (nothing to absorb), "refused" (a gate
	// said no, nothing edited) or "error" (usage or I/O; nothing edited
	// unless Message says otherwise).
	Status  string
	MatchID string
	Winner  string // "a", "b" or "tie"
	Tier    int    // the tier absorbed: 10, 3, or 0 for a tie
	// Capped is true when a unanimous win was absorbed at tier 3 because
	// the panel's independence is not established; CapReason says why.
	Capped    bool
	CapReason string
	Edited    []string // the modules edited, A's then B's
	Refs      []string // project:// references of both packages, recorded in the artifact
	Message   string
	// Recovered lists the interrupted absorbs this run settled before its
	// own (a journal left by a killed absorb), TempRemoved the temporary
	// files of interrupted journal writes it removed.
	Recovered   []*Recovery
	TempRemoved []string
}

// Refusal is a gate that said no. Diagnostics, when present, say why.
type Refusal struct {
	Msg         string
	Diagnostics []diag.Diagnostic
}

func (r *Refusal) Error() string { return r.Msg }

// refuseAt is a refusal with one located finding of rule.
func refuseAt(rule *diag.Rule, path string, line, col int, pointer, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	d := rule.New(path, line, col, line, col, "%s", msg)
	d.Pointer = pointer
	return &Refusal{Msg: msg, Diagnostics: []diag.Diagnostic{d}}
}

// match is what absorb reads from the artifact.
type match struct {
	id, campaign, a, b string
	tally              matchproto.TallyResult
	tier               int // absorbed tier: 10, 3, or 0 for a tie
	kind               string
	capReason          string // why a unanimous win is graded weak; "" when it is not capped
	winner             string
	written            bool
	doc                *jsonloc.Doc
}

// Absorb runs the whole step. It returns a *Refusal when a gate refuses
// (exit 1 at the CLI) and a plain error for usage and I/O failures (exit
// 2); the Result is never nil.
func Absorb(opts Options, checks Checks) (*Result, error) {
	res := &Result{Status: "refused"}
	err := run(opts, checks, res)
	if err != nil {
		var r *Refusal
		if !errors.As(err, &r) {
			res.Status = "error"
		}
		res.Message = err.Error()
		res.Edited = nil
	}
	return res, err
}

func run(opts Options, checks Checks, res *Result) error {
	// Nothing is read before the locks are held, so every check is bound
	// to the bytes the transaction then edits. Resolving paths reads no
	// content; the artifact must be a regular file before anything else.
	if err := readlimit.Check(opts.Artifact, readlimit.JSON); err != nil {
		return err
	}
	art, err := filepath.Abs(opts.Artifact)
	if err == nil {
		art, err = filepath.EvalSymlinks(art)
	}
	if err != nil {
		return err
	}
	pkgA, pkgB, root, err := resolveDirs(opts)
	if err != nil {
		return err
	}
	if !contain.Within(art, root) {
		return refuseAt(ruleOutsideProject, opts.Artifact, 1, 1, "",
			"the artifact %s is outside the project root (it resolves outside %s); absorb writes only inside the project and records project-relative paths, so move the artifact into the project", opts.Artifact, displayRoot(opts))
	}
	artRel, err := filepath.Rel(root, art)
	if err != nil {
		return err
	}
	// The references are computed before anything is edited, so a package
	// outside the project refuses the step instead of failing it halfway.
	var refs []string
	for i, p := range []string{pkgA, pkgB} {
		ref, err := packageRef(root, p, []string{opts.APackage, opts.BPackage}[i], opts)
		if err != nil {
			return err
		}
		refs = append(refs, ref)
	}

	// Lock order, the same for every absorb and for recovery: the journal
	// directory first (so one absorb runs at a time per project, and any
	// journal found under it belongs to a killed absorb), then the
	// artifact's directory and both packages in one sorted batch. The
	// matches directory is the lock `match assemble` takes for its writes.
	jdir := filepath.Join(root, filepath.FromSlash(journalDir))
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		return fmt.Errorf("could not create the journal directory: %w", err)
	}
	var locks lockfile.Set
	defer locks.Release()
	if err := locks.Add(jdir); err != nil {
		return err
	}
	recs, removed, err := recoverAll(root, &locks)
	res.Recovered, res.TempRemoved = recs, removed
	if err != nil {
		return err
	}
	lockDirs := []string{filepath.Dir(art), pkgA, pkgB}
	if err := locks.Add(lockDirs...); err != nil {
		return err
	}
	failpoint("locked")

	data, artInfo, err := readlimit.ReadFileInfo(art, readlimit.JSON)
	if err != nil {
		return err
	}
	doc, ds := checks.ValidateArtifact(opts.Artifact, data)
	if diag.HasBlocking(ds) {
		return &Refusal{Msg: "the match artifact is invalid; nothing was absorbed", Diagnostics: ds}
	}
	if doc == nil {
		return fmt.Errorf("internal error: the match validator passed %s without parsing it", opts.Artifact)
	}
	m, err := readMatch(doc)
	if err != nil {
		return &Refusal{Msg: fmt.Sprintf("%s: %v; nothing was absorbed", opts.Artifact, err),
			Diagnostics: []diag.Diagnostic{vm.CodeArtifactShape.New(opts.Artifact, 1, 1, 1, 1, "%v", err)}}
	}
	res.MatchID, res.Winner = m.id, m.winner
	for _, rec := range recs {
		if !rec.Done() && (rec.MatchID == m.id || touches(rec, root, art)) {
			return refuseAt(ruleInterrupted, rec.Journal, 1, 1, "",
				"%s; run 'nullius recover' for the details", rec.Summary())
		}
	}
	if m.written {
		off, _ := m.doc.Offset("/observation_write/written")
		line, col := m.doc.Position(off)
		return refuseAt(ruleAlreadyAbsorbed, opts.Artifact, line, col, "/observation_write/written",
			"match %s is already absorbed (observation_write.written is true); a match reaches the belief layer exactly once", m.id)
	}
	if err := checkBindings(m, opts, pkgA, pkgB); err != nil {
		return err
	}
	res.Tier, res.Capped, res.CapReason = m.tier, m.capReason != "", m.capReason
	if m.tier == 0 {
		res.Status = "tie"
		res.Message = fmt.Sprintf("match %s is a tie: no observation is produced and nothing was changed", m.id)
		return nil
	}
	anchor := filepath.ToSlash(artRel)
	sides := []side{
		{pkg: opts.APackage, real: pkgA, node: m.a, other: m.b, won: m.winner == "a", label: "a"},
		{pkg: opts.BPackage, real: pkgB, node: m.b, other: m.a, won: m.winner == "b", label: "b"},
	}
	for i := range sides {
		if err := prepareSide(&sides[i], m, checks, anchor); err != nil {
			return err
		}
	}
	artAfter, err := markWritten(m.doc, strings.Join(refs, " "))
	if err != nil {
		return err
	}
	j := &journal{Version: 1, Step: "absorb", MatchID: m.id, State: statePrepared}
	for _, d := range lockDirs {
		j.Locks = append(j.Locks, relTo(root, d))
	}
	for _, s := range sides {
		j.Files = append(j.Files, journalFile{Path: relTo(root, s.module), Mode: s.mode,
			BeforeSHA256: digest.Of(s.orig), AfterSHA256: digest.Of(s.next), Before: s.orig, After: s.next})
	}
	j.Files = append(j.Files, journalFile{Path: relTo(root, art), Mode: artInfo.Mode().Perm(),
		BeforeSHA256: digest.Of(data), AfterSHA256: digest.Of(artAfter), Before: data, After: artAfter, OnCommit: true})
	if err := commit(root, j, sides, checks, art, data); err != nil {
		return err
	}
	for _, s := range sides {
		res.Edited = append(res.Edited, s.modulePath)
	}
	res.Refs = refs
	res.Status = "absorbed"
	winnerID := map[string]string{"a": m.a, "b": m.b}[m.winner]
	res.Message = fmt.Sprintf("match %s: %s win for idea %s %s (tier %d) absorbed into both graphs; observation_write.written set", m.id, m.kind, strings.ToUpper(m.winner), winnerID, m.tier)
	if m.capReason != "" {
		res.Message = fmt.Sprintf("match %s: unanimous win for idea %s %s absorbed into both graphs at tier 3, not 10 (%s); observation_write.written set", m.id, strings.ToUpper(m.winner), winnerID, m.capReason)
	}
	return nil
}

// commit runs the journaled part: journal, both modules, the check after
// the edit, the commit mark, the artifact, the journal's removal.
func commit(root string, j *journal, sides []side, checks Checks, art string, checked []byte) error {
	jpath := filepath.Join(root, filepath.FromSlash(journalDir), journalName(j.MatchID))
	failpointAt("write-journal", jpath)
	if err := writeJournal(jpath, j, true); err != nil {
		return fmt.Errorf("could not write the absorb journal (nothing was edited): %w", err)
	}
	failpoint("journaled")
	// undo rolls back what was written so far, by the journal. Only when
	// every file is back does a refusal say so; otherwise the error says
	// exactly what could not be restored, and the journal stays for
	// 'nullius recover'.
	undo := func(cause error) error {
		rec := settle(root, jpath, j, false)
		if !rec.Done() {
			return fmt.Errorf("%v; rolling back failed: %s", cause, rec.Summary())
		}
		var r *Refusal
		if errors.As(cause, &r) {
			r.Msg = strings.Replace(r.Msg, "nothing was absorbed", "both packages were restored", 1)
			for i := range r.Diagnostics {
				if r.Diagnostics[i].Code == ruleEditNotClean.Code || r.Diagnostics[i].Code == ruleArtifactChanged.Code {
					r.Diagnostics[i].Message = r.Msg
				}
			}
		}
		return cause
	}
	for i := range sides {
		s := &sides[i]
		failpointAt("write-module-"+s.label, s.module)
		if err := atomicfile.WriteFile(s.module, s.next, s.mode); err != nil {
			return undo(err)
		}
		failpoint("module-" + s.label)
	}
	for _, s := range sides {
		n, err := lintClean(checks, s.pkg, "after the edit")
		if err == nil && n > s.errCount {
			err = refuseAt(ruleEditNotClean, s.modulePath, 1, 1, "",
				"package %s has %d suppressed error findings after the edit, %d before; nothing was absorbed", s.pkg, n, s.errCount)
		}
		if err != nil {
			return undo(err)
		}
	}
	failpoint("linted")
	// The artifact is spliced from the bytes that were validated: an
	// editor saving it meanwhile must not be overwritten.
	if now, err := readlimit.ReadFile(art, readlimit.JSON); err != nil || !bytes.Equal(now, checked) {
		return undo(refuseAt(ruleArtifactChanged, j.Files[2].Path, 1, 1, "",
			"the artifact changed while it was being absorbed; nothing was absorbed, run the absorb again"))
	}
	j.State = stateCommitted
	failpointAt("write-commit", jpath)
	if err := writeJournal(jpath, j, false); err != nil {
		return undo(fmt.Errorf("could not mark the absorb journal committed: %w", err))
	}
	failpoint("committed")
	// From here the absorb is decided: a failure leaves the journal, and
	// recovery completes it.
	failpointAt("write-artifact", art)
	if err := atomicfile.WriteFile(art, j.Files[2].After, j.Files[2].Mode); err != nil {
		return fmt.Errorf("both modules hold match %s but the artifact could not be marked (%v); the journal %s completes it: run 'nullius recover' once the cause is fixed",
			j.MatchID, err, relTo(root, jpath))
	}
	failpoint("artifact")
	if err := atomicfile.Remove(jpath); err != nil {
		return fmt.Errorf("match %s is absorbed, but its journal %s could not be removed (%v); 'nullius recover' will find it complete and remove it",
			j.MatchID, relTo(root, jpath), err)
	}
	failpoint("journal-removed")
	return nil
}

// touches reports whether a journal names the artifact at art (one
// journal per match, but a match id could be typed twice).
func touches(rec *Recovery, root, art string) bool {
	for _, f := range rec.Files {
		if f.Path == relTo(root, art) {
			return true
		}
	}
	return false
}

// kindOf names a tier as the protocol's mapping table does.
func kindOf(tier int) string {
	if tier == 10 {
		return "unanimous"
	}
	return "split"
}

func displayRoot(opts Options) string {
	if opts.ProjectRoot != "" {
		return opts.ProjectRoot
	}
	return "the project root"
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
		return "", "", "", refuseAt(ruleSamePackage, opts.BPackage, 1, 1, "",
			"--a-package and --b-package name the same package %q; a match compares two ideas", opts.APackage)
	}
	if opts.ProjectRoot != "" {
		if root, err = extract.ResolveDir(opts.ProjectRoot); err != nil {
			return "", "", "", fmt.Errorf("--project-root: %w", err)
		}
		return a, b, root, nil
	}
	root, ok := projroot.Find(a)
	if !ok {
		return "", "", "", refuseAt(ruleOutsideProject, opts.APackage, 1, 1, "",
			"no project root found: no ancestor of %s contains .nullius/ (run 'nullius init' at the repository root, or pass --project-root)", opts.APackage)
	}
	return a, b, root, nil
}

type side struct {
	pkg, real, node, other string
	label                  string // "a" or "b"
	won                    bool
	module                 string // resolved path of the root module
	modulePath             string // the same as the user named the package
	orig, next             []byte
	mode                   fs.FileMode // kept across the atomic replace
	errCount               int         // error findings before the edit, suppressed ones included
}

// prepareSide reads one side's module, checks it can take the block and
// that the package lints clean, and computes its new bytes.
func prepareSide(s *side, m *match, checks Checks, anchor string) error {
	mod, err := checks.Module(s.pkg)
	if err != nil {
		return refuseAt(ruleModule, s.pkg, 1, 1, "", "package %s: %v", s.pkg, err)
	}
	s.modulePath = mod
	abs, err := filepath.Abs(mod)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return err
	}
	if !contain.Within(abs, s.real) {
		return refuseAt(ruleModule, mod, 1, 1, "", "%s resolves outside its package %s; absorb edits only files inside the package", mod, s.pkg)
	}
	s.module = abs
	orig, fi, err := readlimit.ReadFileInfo(abs, readlimit.Python)
	if err != nil {
		return err
	}
	s.orig, s.mode = orig, fi.Mode().Perm()
	if line := holdsMatch(s.orig, m.id); line > 0 {
		return refuseAt(ruleAlreadyAbsorbed, mod, line, 1, "", "%s already holds match %s; a match is absorbed exactly once", mod, m.id)
	}
	if !bindsWorth.Match(s.orig) {
		return refuseAt(ruleModule, mod, 1, 1, "", "%s does not bind 'worth' at module level; absorb appends an update of worth there", mod)
	}
	if s.errCount, err = lintClean(checks, s.pkg, "before the edit"); err != nil {
		return err
	}
	s.next = append(append([]byte{}, s.orig...), block(m, *s, anchor)...)
	return nil
}

var bindsWorth = lazyre.New(`(?m)^worth\s*(:[^=\n]*)?=`)

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

// readMatch reads what absorb needs from the validated artifact, parsed in
// the protocol's ordered model.
func readMatch(doc *jsonloc.Doc) (*match, error) {
	obj, ok := doc.Value.(jsonloc.Object)
	if !ok {
		return nil, errors.New("artifact is not a JSON object")
	}
	m := &match{doc: doc}
	m.id, _ = member(obj, "match_id").(string)
	m.campaign, _ = member(obj, "campaign_id").(string)
	m.a, _ = member(obj, "idea_a_node_id").(string)
	m.b, _ = member(obj, "idea_b_node_id").(string)
	for _, id := range []string{m.id, m.a, m.b} {
		if !matchproto.ShortIDRE.MatchString(id) {
			return nil, fmt.Errorf("id %q is not an engine short id", id)
		}
	}
	panel, _ := member(obj, "panel").([]any)
	var votes []string
	for _, e := range panel {
		entry, _ := e.(jsonloc.Object)
		v, _ := member(entry, "vote").(string)
		votes = append(votes, v)
	}
	var err error
	if m.tally, err = matchproto.Tally(votes); err != nil {
		return nil, err
	}
	out, _ := member(obj, "outcome").(jsonloc.Object)
	m.winner, _ = member(out, "winner").(string)
	if m.winner != m.tally.Winner {
		return nil, fmt.Errorf("outcome.winner %q does not match the panel tally %q", m.winner, m.tally.Winner)
	}
	if m.tier, _, err = matchproto.Tier(m.tally); err != nil {
		return nil, err
	}
	m.kind = kindOf(m.tier)
	if m.tier == 10 {
		m.capReason = independenceGap(obj)
		if m.capReason != "" {
			m.tier = 3
		}
	}
	ow, _ := member(obj, "observation_write").(jsonloc.Object)
	m.written, _ = member(ow, "written").(bool)
	return m, nil
}

// member is the value of key in obj (the last one of repeated keys, as
// Python reads it), nil when it is missing.
func member(obj jsonloc.Object, key string) any {
	v, _ := obj.Get(key)
	return v
}

// independenceGap says why the artifact does not establish that its panel
// was independent, or "" when it does. The protocol asks the belief layer
// to weight a panel's diversity down from the record: a single-family
// panel (native subagent seats of one host) and a panel whose runners are
// not vouched for (stub runners, a counted --runner override) are the
// same judges asked again, not independent evidence.
func independenceGap(obj jsonloc.Object) string {
	pi, _ := member(obj, "panel_independence").(jsonloc.Object)
	mode, _ := member(pi, "mode").(string)
	if mode != "cross_family" {
		if mode == "" {
			mode = "not recorded"
		}
		return "panel independence not established: " + mode
	}
	if ir, ok := member(obj, "independent_runners").(bool); !ok || !ir {
		return "panel independence not established: independent_runners is false (stub runners or a counted --runner override)"
	}
	return ""
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

// holdsMatch returns the 1-based line at which a module already carries
// match id (the block's marker, or its evidence family written by hand),
// or 0.
func holdsMatch(src []byte, id string) int {
	at := bytes.Index(src, []byte(marker(id)))
	if at < 0 {
		if loc := regexp.MustCompile(`evidence_family\s*:\s*pairwise-match-` + id + `\s*;`).FindIndex(src); loc != nil {
			at = loc[0]
		}
	}
	if at < 0 {
		return 0
	}
	return bytes.Count(src[:at], []byte("\n")) + 1
}

// block renders the statements appended to one side's module.
func block(m *match, s side, artifactAt string) []byte {
	tier := m.tier
	v := "pairwise_match_" + m.id
	fam := "pairwise-match-" + m.id
	anchor := fmt.Sprintf("anchor: pairwise_match_v1 %s at %s", m.id, artifactAt)
	var content, reasoning string
	if s.won {
		content = fmt.Sprintf("In pairwise match %s a judge panel preferred this idea over idea %s on the committed criteria (%d votes to %d, %s).", m.id, s.other, votesFor(m, s.node), votesFor(m, s.other), plural.N(m.tally.Ties, "tie"))
		reasoning = fmt.Sprintf("reader_reasoning: a %s panel win over idea %s is %d times as likely if this idea merits sustained effort as if it does not. ", m.kind, s.other, tier)
		if m.capReason != "" {
			reasoning = fmt.Sprintf("reader_reasoning: a unanimous panel win over idea %s, graded weak (tier 3, not 10) because %s, is 3 times as likely if this idea merits sustained effort as if it does not. ", s.other, m.capReason)
		}
	} else {
		content = fmt.Sprintf("In pairwise match %s a judge panel preferred idea %s over this idea on the committed criteria (%d votes to %d, %s).", m.id, s.other, votesFor(m, s.other), votesFor(m, s.node), plural.N(m.tally.Ties, "tie"))
		reasoning = fmt.Sprintf("reader_reasoning: a %s panel loss to idea %s is %d times as likely if this idea does not merit sustained effort as if it does. ", m.kind, s.other, tier)
		if m.capReason != "" {
			reasoning = fmt.Sprintf("reader_reasoning: a unanimous panel loss to idea %s, graded weak (tier 3, not 10) because %s, is 3 times as likely if this idea does not merit sustained effort as if it does. ", s.other, m.capReason)
		}
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
	// A check of the splice, not a second reading of the artifact: it
	// builds no model.
	if !json.Valid(out) {
		return nil, errors.New("internal error: spliced artifact is not JSON")
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

// packageRef is the project:// reference of a resolved package directory,
// encoded as extraction encodes it but without a pin: the pin changes when
// the package is recompiled after absorption.
func packageRef(root, pkg, named string, opts Options) (string, error) {
	rel, err := extract.RelPath(pkg, root)
	if err != nil {
		return "", refuseAt(ruleOutsideProject, named, 1, 1, "",
			"package %s: %v (%s); absorb records project:// references relative to the root", named, err, displayRoot(opts))
	}
	return "project://" + extract.PercentEncode(rel), nil
}
