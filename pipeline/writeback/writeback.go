package writeback

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pipeline/gate"
	"github.com/nullius-dev/nullius/pipeline/report"
	"github.com/nullius-dev/nullius/validators/prior"
)

// Options are the inputs of one writeback.
type Options struct {
	Posterior       []byte // the extraction payload
	PosteriorSource string // where it came from, for messages ("stdin" or a path)

	CampaignID, NodeID, StoreRoot string
	Survey, Matrix, Report        string // paths of the gate inputs
	AllowExploratory              bool
	ProjectRoot                   string // explicit root; "" discovers it from StoreRoot

	IdempotencyKey string    // used verbatim when set
	NewWrite       bool      // salt the derived key
	Random         io.Reader // for --new-write; nil is crypto/rand
}

// Writer sends posteriors to the idea store after the preflight. Its
// collaborators are required: there is no way to build one that skips the
// discipline re-run or sends without announcing the key.
type Writer struct {
	caller     Caller
	discipline DisciplineFunc
	log        io.Writer
}

// New returns a Writer. caller sends the request; discipline re-runs the
// source and IR checks on the package (DefaultDiscipline in production);
// log receives the idempotency key before the call (the only record of a
// salted key if the process dies after the store commits).
func New(caller Caller, discipline DisciplineFunc, log io.Writer) (*Writer, error) {
	switch {
	case caller == nil:
		return nil, errors.New("internal error: writeback needs an RPC caller")
	case discipline == nil:
		return nil, errors.New("internal error: writeback needs the discipline re-check")
	case log == nil:
		return nil, errors.New("internal error: writeback needs a log for the idempotency key")
	}
	return &Writer{caller: caller, discipline: discipline, log: log}, nil
}

// Result is what a writeback got to: filled step by step, so a refusal
// still says how far it came. Key, Request and Outcome are set only when
// the request was sent.
type Result struct {
	Ref     string       // the payload's gaia_package_ref, once validated
	Package *Package     // the verified package
	Gate    *gate.Result // the gate's findings and verdict
	Key     string
	Outcome Outcome
	Request map[string]any
}

// GateError is a refused close-prior gate: exit 2 with located findings.
type GateError struct {
	Header string
	Diags  []diag.Diagnostic
}

// Error returns the header and one bullet per blocking finding.
func (e *GateError) Error() string {
	var b strings.Builder
	b.WriteString(e.Header)
	for _, d := range e.Diags {
		if d.Blocking() {
			b.WriteString("\n  - " + d.String())
		}
	}
	return b.String()
}

// Diagnostics are the located findings of a local refusal: a refused gate's
// findings, or a writeback refusal with the findings behind it; nil for any
// other error.
func Diagnostics(err error) []diag.Diagnostic {
	var ge *GateError
	var rf *Refusal
	switch {
	case errors.As(err, &ge):
		return ge.Diags
	case errors.As(err, &rf):
		return append([]diag.Diagnostic{rf.Diagnostic()}, rf.Diags...)
	}
	return nil
}

// Run performs the preflight, each step failing closed, then sends the
// request: the payload, the project root, the package (containment, its
// binding to --campaign-id/--node-id, pin, contract, extraction record,
// discipline re-run, recomputed numbers), then the one close-prior gate
// (pipeline/gate) over the survey, matrix, report and the package's
// compiled IR, then the RPC program. Errors before the call are local
// refusals (exit 2); the Outcome carries the store's answer.
func (w *Writer) Run(ctx context.Context, o Options) (*Result, error) {
	res := &Result{}
	if o.NewWrite && o.IdempotencyKey != "" {
		return res, errors.New("--new-write and --idempotency-key are mutually exclusive")
	}
	// W-19: the engine's id pattern is checked here, so a typo fails before
	// the gate runs instead of as a store refusal after every local check.
	want := binding.Binding{CampaignID: o.CampaignID, NodeID: o.NodeID}
	if err := binding.CheckIDs(want); err != nil {
		return res, refuseAt(RuleIDs, "", 0, 0, "%v", err)
	}
	post, err := ValidatePosterior(o.Posterior)
	if err != nil {
		return res, refuseAt(RulePayload, o.PosteriorSource, 0, 0, "invalid posterior JSON from %s: %v", o.PosteriorSource, err)
	}
	res.Ref = post.Ref
	loaded, err := gate.Load(gate.Input{Survey: o.Survey, Matrix: o.Matrix, Report: o.Report, AllowExploratory: o.AllowExploratory})
	var re *gate.ReadError
	if errors.As(err, &re) {
		return res, refuseAt(prior.CodeUnreadable, re.Path, 0, 0, "%v", err)
	}
	if err != nil {
		return res, err
	}
	root, err := projectRoot(o.ProjectRoot, o.StoreRoot)
	if err != nil {
		return res, refuseAt(RuleNoRoot, o.StoreRoot, 0, 0, "%v", err)
	}
	res.Package, err = VerifyPackage(root, post, want, w.discipline)
	if err != nil {
		return res, err
	}
	res.Gate, err = loaded.Run(root, &gate.IR{Path: res.Package.IRPath, Bytes: res.Package.IRBytes, Doc: res.Package.Compiled.Doc})
	if err != nil {
		return res, err
	}
	if res.Gate.Refused() {
		return res, &GateError{Header: gateHeader(res.Gate.Diagnostics, o.Report, root), Diags: res.Gate.Diagnostics}
	}
	if err := w.caller.Check(); err != nil {
		return res, refuseAt(RuleRPC, "", 0, 0, "%v", err)
	}
	key := o.IdempotencyKey
	if key == "" {
		key = DeriveKey(o.CampaignID, o.NodeID, post.Ref, post.Value, post.EvidenceCount)
		if o.NewWrite {
			if key, err = FreshKey(key, o.Random); err != nil {
				return res, fmt.Errorf("could not mint a fresh key: %v", err)
			}
		}
	}
	req := Request(o, post, key, res.Gate)
	body, err := json.Marshal(req)
	if err != nil {
		return res, err
	}
	fmt.Fprintf(w.log, "using idempotency key %s\n", key)
	stdout, stderr, code, callErr := w.caller.Call(ctx, body)
	res.Key, res.Request, res.Outcome = key, req, Interpret(stdout, stderr, code, callErr, key)
	return res, nil
}

// gateHeader is the one-line reason of a refused gate: the reference's
// wording when the posterior report is what failed (§3.2 steps 10–12),
// with the command that fixes it.
func gateHeader(ds []diag.Diagnostic, reportPath, root string) string {
	for _, d := range ds {
		if !d.Blocking() {
			continue
		}
		switch d.Code {
		case report.CodeOutOfRange.Code:
			return "close-prior gate failed: posterior report has invalid human posterior display;"
		case report.CodeUnrounded.Code:
			return "close-prior gate failed: posterior report display values are not rounded; run 'nullius report posteriors " + reportPath + "' (the reference's normalize_report_posteriors.py);"
		case report.CodeLinkNotNorm.Code:
			return "close-prior gate failed: posterior report links are not normalized/clickable; run 'nullius report links --project-root " + root + " " + reportPath + "' (the reference's normalize_report_links.py);"
		case report.CodeLinkBroken.Code, report.CodeLinkEscapes.Code:
			return "close-prior gate failed: posterior report contains broken local links;"
		}
	}
	return "close-prior gate failed:"
}

// Request builds the node.set_posterior request (§3.5). The declared
// posterior_status is sent when the matrix has one, so the store cannot
// resolve a different readiness than the gate allowed (W-4).
func Request(o Options, post *Posterior, key string, g *gate.Result) map[string]any {
	p := map[string]any{"value": post.Value, "evidence_count": post.EvidenceCount, "gaia_package_ref": post.Ref}
	if g.PosteriorStatus != "" {
		p["status"] = g.PosteriorStatus
	}
	store := o.StoreRoot
	if abs, err := filepath.Abs(store); err == nil {
		store = abs
	}
	return map[string]any{"method": "node.set_posterior", "store_root": store, "params": map[string]any{
		"campaign_id": o.CampaignID, "node_id": o.NodeID, "idempotency_key": key,
		"posterior": p, "literature_coverage": g.Coverage}}
}

// projectRoot is --project-root (must be a directory) or the nearest
// ancestor of the store holding .nullius/.
func projectRoot(explicit, store string) (string, error) {
	if explicit != "" {
		fi, err := os.Stat(explicit)
		if err != nil || !fi.IsDir() {
			return "", fmt.Errorf("--project-root %q is not a directory", explicit)
		}
		return filepath.Abs(explicit)
	}
	if r := prior.FindProjectRoot(store); r != "" {
		return r, nil
	}
	return "", fmt.Errorf("no project root found: no directory above the store %q holds .nullius/; create .nullius/ at the project root or pass --project-root", store)
}
