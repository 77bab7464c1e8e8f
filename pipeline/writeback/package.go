package writeback

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nullius-dev/nullius/internal/digest"
	"os"
	"path/filepath"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/internal/workdir"
	"github.com/nullius-dev/nullius/pipeline/extract"
	"github.com/nullius-dev/nullius/validators/prior"
)

// DisciplineFunc re-runs the discipline (source scan and IR checks) on a
// package directory, whose ir.json is compiled (the bytes the pin was
// verified on, parsed once), and returns every finding.
type DisciplineFunc func(pkgDir string, compiled *ir.Compiled) ([]diag.Diagnostic, error)

// DefaultDiscipline runs the static scan (analyzers.Lint without the IR) and
// the compiled-IR contract over compiled with beliefs.json required.
func DefaultDiscipline(pkgDir string, compiled *ir.Compiled) ([]diag.Diagnostic, error) {
	res, err := analyzers.Lint([]string{pkgDir}, analyzers.Options{NoIR: true})
	if err != nil {
		return nil, err
	}
	ds := res.Diagnostics
	ids, _, err := ir.CheckCompiled(pkgDir, compiled, ir.CheckOptions{RequireIR: true, RequireBeliefs: true})
	if err != nil {
		return nil, err
	}
	return append(ds, ids...), nil
}

// Refusal is a local refusal (exit 2, nothing sent): one of the writeback
// rules, located in the file it concerns, and the findings behind it (the
// discipline's, the extraction record's).
type Refusal struct {
	Rule         *diag.Rule
	Path         string // the file the refusal concerns ("" for the command line)
	Line, Column int    // 0 when it concerns the file as a whole
	Msg          string
	Diags        []diag.Diagnostic
}

// Error returns the one-line reason.
func (r *Refusal) Error() string { return r.Msg }

// Diagnostic is the refusal itself as a located finding.
func (r *Refusal) Diagnostic() diag.Diagnostic {
	return r.Rule.New(r.Path, r.Line, r.Column, r.Line, r.Column, "%s", r.Msg)
}

// refuseAt builds a refusal of rule located at path:line:col.
func refuseAt(rule *diag.Rule, path string, line, col int, format string, args ...any) *Refusal {
	return &Refusal{Rule: rule, Path: path, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// Package is a verified package reference.
type Package struct {
	IRPath  string // its .gaia/ir.json, as named in findings
	IRBytes []byte // the exact bytes the pin was verified on
	// Compiled is IRBytes parsed, once: the discipline, the recount and
	// the gate all read it.
	Compiled *ir.Compiled
}

// VerifyPackage resolves the ref under root (§3.3), checks that the
// package is bound to want, checks the exact-byte pin and the contract,
// honours the extractor's record, re-runs the discipline, and recomputes
// value and evidence_count (W-1). discipline is required: nil refuses.
func VerifyPackage(root string, post *Posterior, want binding.Binding, discipline DisciplineFunc) (*Package, error) {
	if discipline == nil {
		return nil, errors.New("internal error: the package cannot be verified without the discipline re-check")
	}
	refresh := "re-run nullius extract (the reference's run_infer_and_extract.py) to refresh the ref, or pass --project-root for nested projects"
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, refuseAt(RuleNoRoot, root, 0, 0, "project root %q does not resolve: %v", root, err)
	}
	pkgDir := filepath.Join(rootReal, filepath.FromSlash(post.RelPath))
	irPath := filepath.Join(pkgDir, ".gaia", "ir.json")
	display := displayDir(root, post.RelPath)
	irShown := filepath.Join(display, ".gaia", "ir.json")
	pkgReal, err1 := filepath.EvalSymlinks(pkgDir)
	irReal, err2 := filepath.EvalSymlinks(irPath)
	if err1 != nil || err2 != nil || !contain.Within(irReal, rootReal) || !contain.Within(irReal, pkgReal) || !contain.Within(pkgReal, rootReal) {
		return nil, refuseAt(RulePackage, irShown, 0, 0, "gaia_package_ref does not resolve inside the project root: %s/.gaia/ir.json is missing or escapes it; %s", post.RelPath, refresh)
	}
	if err := checkBinding(pkgReal, display, want); err != nil {
		return nil, err
	}
	fi, err := os.Stat(irReal)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, refuseAt(RulePackage, irShown, 0, 0, "gaia_package_ref does not resolve inside the project root: %s/.gaia/ir.json is not a regular file; %s", post.RelPath, refresh)
	}
	b, info, err := readlimit.ReadFileInfo(irReal, readlimit.JSON)
	if err != nil {
		return nil, refuseAt(RulePackage, irShown, 0, 0, "cannot read %s: %v", irShown, err)
	}
	compiled := ir.ParseCompiled(b, info)
	v, err := irValue(b, compiled)
	if err != nil {
		return nil, refuseAt(RuleContract, irShown, 1, 1, "compiled %s/.gaia/ir.json is not valid JSON: %v; %s", post.RelPath, err, refresh)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, refuseAt(RuleContract, irShown, 1, 1, "compiled %s/.gaia/ir.json is not a JSON object; %s", post.RelPath, refresh)
	}
	if h, _ := m["ir_hash"].(string); !digest.IsSHA256(h) {
		return nil, refuseAt(RuleContract, irShown, 1, 1, "compiled %s/.gaia/ir.json is missing a valid ir_hash (sha256:<64 hex>); %s", post.RelPath, refresh)
	}
	if got := prior.PinBytes(b); got != post.Pin {
		return nil, refuseAt(RulePin, irShown, 0, 0, "gaia_package_ref pin %s does not match the package's current compiled state %s: the graph changed after extraction; re-extract and write the new posterior", post.Pin, got)
	}
	if err := exportedWorth(m); err != nil {
		return nil, refuseAt(RuleContract, irShown, 1, 1, "%v; declare __all__ = [\"worth\"] in the package and re-run run_infer_and_extract.py (nullius extract)", err)
	}
	if err := checkSidecar(pkgReal, display, post.Pin, want); err != nil {
		return nil, err
	}
	// beliefs.json is read once, here: the discipline judges these bytes
	// (GAIA206/207/212) and the recount takes value from them, so the
	// value sent is one the discipline saw.
	compiled.Beliefs = ir.ReadBeliefs(pkgReal)
	ds, err := discipline(pkgReal, compiled)
	if err != nil {
		return nil, refuseAt(RuleDiscipline, display, 0, 0, "discipline re-check of %s failed: %v", post.RelPath, err)
	}
	var errs []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) > 0 {
		r := refuseAt(RuleDiscipline, display, 0, 0,
			"package %s fails the discipline re-check with %d error findings (suppressed ones count: a quarantined package is not writable); first: %s %s",
			post.RelPath, len(errs), errs[0].Code, errs[0].Message)
		r.Diags = errs
		return nil, r
	}
	if err := recompute(pkgReal, display, compiled, post); err != nil {
		return nil, err
	}
	return &Package{IRPath: irShown, IRBytes: b, Compiled: compiled}, nil
}

// irValue is ir.json's first JSON value as encoding/json decodes it
// (numbers as json.Number), the value whose contract VerifyPackage
// checks: the value ir.Parse gave whenever that parse succeeded on bytes
// without a byte-order mark and nested nothing as deep as encoding/json's
// limit of 10000 containers, since both parsers are otherwise strict RFC
// 8259 and keep the last of a repeated member (FuzzIRValue holds them to
// it). Only other bytes are decoded again, with encoding/json, so a
// refusal keeps its wording and bytes only jsonloc refuses go on to the
// discipline's GAIA100, as they always did.
func irValue(b []byte, c *ir.Compiled) (any, error) {
	if c.Doc != nil && !bytes.HasPrefix(b, utf8BOM) && c.Doc.Depth() < jsonloc.MaxDepth {
		return c.Doc.Value, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

var utf8BOM = []byte("\xef\xbb\xbf")

// displayDir names the package for messages and commands: the project
// root as the user gave it joined with the ref's path, relative to the
// working directory when that is shorter.
func displayDir(root, rel string) string {
	return workdir.Rel(filepath.Join(root, filepath.FromSlash(rel)))
}

// checkBinding refuses a package that is not bound to the idea the write
// names (issue 12): one idea's posterior must never land on another node.
func checkBinding(pkgDir, display string, want binding.Binding) error {
	shown := filepath.Join(display, binding.File)
	got, bound, err := binding.Read(pkgDir)
	var be *binding.Error
	if errors.As(err, &be) {
		return refuseAt(RuleBindingInvalid, shown, be.Line, be.Column, "the package's binding to its idea is unusable: %v; fix it or rewrite it with %s", err, binding.BindCommand(display, want))
	}
	if err != nil {
		return refuseAt(RuleBindingInvalid, shown, 0, 0, "cannot read the package's binding: %v", err)
	}
	if !bound {
		return refuseAt(RuleUnbound, shown, 0, 0, "package %s is not bound to an idea (no [tool.nullius] campaign-id and node-id in its pyproject.toml), so nothing shows that node %s of campaign %s is its idea; bind it with %s, then re-run nullius extract",
			display, want.NodeID, want.CampaignID, binding.BindCommand(display, want))
	}
	if got != want {
		key := binding.KeyNode
		if got.NodeID == want.NodeID {
			key = binding.KeyCampaign
		}
		line, col := binding.Locate(pkgDir, key)
		return refuseAt(RuleBoundElsewhere, shown, line, col, "--campaign-id %s --node-id %s do not match the package: %s is bound to campaign-id %s, node-id %s (its pyproject.toml), and one idea's posterior must not be written to another; pass --campaign-id %s --node-id %s, or if the package really argues for node %s, rebind it (%s --force) and re-run nullius extract",
			want.CampaignID, want.NodeID, display, got.CampaignID, got.NodeID, got.CampaignID, got.NodeID, want.NodeID, binding.BindCommand(display, want))
	}
	return nil
}

// exportedWorth is K-2: exactly one exported knowledge, the claim `worth`.
func exportedWorth(m map[string]any) error {
	ks, _ := m["knowledges"].([]any)
	var exported []map[string]any
	for _, kv := range ks {
		k, _ := kv.(map[string]any)
		if k["exported"] == true {
			exported = append(exported, k)
		}
	}
	if len(exported) != 1 {
		return fmt.Errorf("compiled package must export exactly one knowledge, the claim labelled worth; found %d exported", len(exported))
	}
	if exported[0]["label"] != "worth" || exported[0]["type"] != "claim" {
		return fmt.Errorf("compiled package exports %v (type %v), not the claim labelled worth", exported[0]["label"], exported[0]["type"])
	}
	return nil
}

// checkSidecar refuses a package the extractor quarantined for exactly these
// ir.json bytes, whatever the ref string says (W7), and one extracted while
// bound to another idea (or unbound). A missing record, or one for other
// bytes, defers to the discipline re-run.
func checkSidecar(pkgDir, display, pin string, want binding.Binding) error {
	path := filepath.Join(pkgDir, ".gaia", extract.DisciplineFile)
	shown := filepath.Join(display, ".gaia", extract.DisciplineFile)
	b, err := readlimit.ReadFile(path, readlimit.JSON)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return refuseAt(RuleRecord, shown, 0, 0, "cannot read %s: %v", shown, err)
	}
	var rec extract.DisciplineRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return refuseAt(RuleRecord, shown, 1, 1, ".gaia/discipline.json is not a valid discipline record (%v); re-run nullius extract", err)
	}
	if rec.IRPin != pin {
		return nil
	}
	if rec.ExplorationOnly {
		return refuseAt(RuleRecord, shown, 0, 0, "package is quarantined: .gaia/discipline.json marks this exact compiled graph exploration_only (extracted over allowed discipline violations); exploration-only posteriors are not writable to the idea store, whatever the ref prefix says")
	}
	for _, d := range rec.Findings {
		if d.Severity == diag.Error {
			r := refuseAt(RuleRecord, shown, 0, 0, "package is quarantined: .gaia/discipline.json records error %s for this exact compiled graph (suppressed: %v); fix it and re-extract", d.Code, d.Suppressed)
			r.Diags = rec.Findings
			return r
		}
	}
	if rec.Binding == nil || *rec.Binding != want {
		was := "while it was unbound"
		if rec.Binding != nil {
			was = fmt.Sprintf("for campaign-id %s, node-id %s", rec.Binding.CampaignID, rec.Binding.NodeID)
		}
		return refuseAt(RuleRecord, shown, 0, 0, "package %s was extracted %s (.gaia/discipline.json), but it is now bound to campaign-id %s, node-id %s: the posterior was not extracted for this idea; re-run nullius extract --package %s",
			display, was, want.CampaignID, want.NodeID, display)
	}
	return nil
}

// recompute checks value and evidence_count against the pinned package (W-1):
// the worth belief of .gaia/beliefs.json as compiled.Beliefs holds it (the
// bytes the discipline judged) and the observation count of the IR.
func recompute(pkgDir, display string, compiled *ir.Compiled, post *Posterior) error {
	bf := compiled.Beliefs
	belShown := filepath.Join(display, ".gaia", "beliefs.json")
	irShown := filepath.Join(display, ".gaia", "ir.json")
	real, err := filepath.EvalSymlinks(bf.Path)
	if err != nil || !contain.Within(real, pkgDir) {
		return refuseAt(RuleRecompute, belShown, 0, 0, "cannot verify value: %s is missing or escapes the package; re-run nullius extract", belShown)
	}
	if bf.Err != nil {
		return refuseAt(RuleRecompute, belShown, 0, 0, "cannot read %s: %v", belShown, bf.Err)
	}
	// The bytes were read through the link; the file they came from must
	// be the one that resolves inside the package now.
	if fi, err := os.Stat(real); err != nil || !os.SameFile(fi, bf.Info) {
		return refuseAt(RuleRecompute, belShown, 0, 0, "cannot verify value: %s was replaced while writeback read it; run again", belShown)
	}
	bel, ds := ir.LoadBeliefs(real, bf.Src)
	if bel == nil {
		r := refuseAt(RuleRecompute, belShown, 0, 0, "cannot verify value: .gaia/beliefs.json is not usable; re-run nullius extract")
		r.Diags = ds
		return r
	}
	worth, d := ir.ExtractWorthBelief(bel, ir.RootLabel)
	if d != nil {
		r := refuseAt(RuleRecompute, belShown, 0, 0, "cannot verify value: %s", d.Message)
		r.Diags = []diag.Diagnostic{*d}
		return r
	}
	if worth != post.Value {
		return refuseAt(RuleRecompute, belShown, 0, 0, "value %s does not match the worth belief %s in .gaia/beliefs.json of the pinned package: the payload was edited by hand or comes from another extraction; re-extract instead of editing", pyfmt.Repr(post.Value), pyfmt.Repr(worth))
	}
	doc, ds := ir.LoadParsed(filepath.Join(pkgDir, ".gaia", "ir.json"), compiled.Doc, compiled.Err)
	if doc == nil {
		r := refuseAt(RuleRecompute, irShown, 0, 0, "cannot count observations: ir.json is not usable")
		r.Diags = ds
		return r
	}
	if n := ir.CountObservations(doc); int64(n) != post.EvidenceCount {
		return refuseAt(RuleRecompute, irShown, 0, 0, "evidence_count %d does not match the %d observations compiled into the pinned ir.json: the payload was edited by hand; re-extract instead of editing", post.EvidenceCount, n)
	}
	return nil
}
