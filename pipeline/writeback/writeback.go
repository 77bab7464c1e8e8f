package writeback

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/readlimit"
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

	IdempotencyKey string // used verbatim when set
	NewWrite       bool   // salt the derived key

	Caller     Caller
	Discipline DisciplineFunc // nil skips the re-run (tests only)
	// ReportChecks runs the posterior report display and link checks (§3.2
	// steps 10–12); nil skips them.
	ReportChecks func(report, root string) error
	Stderr       io.Writer
	Random       io.Reader // for --new-write; nil is crypto/rand
}

// Result is a completed exchange with the store.
type Result struct {
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

var engineIDRE = regexp.MustCompile(`^[0123456789abcdefghjkmnpqrstvwxyz]{8}$`)

// Run performs the preflight in the reference's order, each step failing
// closed, then sends the request. Errors before the call are local
// refusals (exit 2); the Outcome carries the store's answer.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.NewWrite && o.IdempotencyKey != "" {
		return nil, errors.New("--new-write and --idempotency-key are mutually exclusive")
	}
	// W-19: the engine's id pattern is checked here, so a typo fails before
	// the gate runs instead of as a store refusal after every local check.
	for _, id := range []struct{ flag, v string }{{"--campaign-id", o.CampaignID}, {"--node-id", o.NodeID}} {
		if !engineIDRE.MatchString(id.v) {
			return nil, fmt.Errorf("%s %q is not an idea-store id: 8 characters of 0-9 and a-z without i, l, o, u", id.flag, id.v)
		}
	}
	post, err := ValidatePosterior(o.Posterior)
	if err != nil {
		return nil, fmt.Errorf("invalid posterior JSON from %s: %v", o.PosteriorSource, err)
	}
	files := map[string][]byte{}
	for _, p := range []string{o.Survey, o.Matrix, o.Report} {
		b, err := readlimit.ReadFile(p, readlimit.JSON)
		if err != nil {
			return nil, fmt.Errorf("close-prior gate input could not be read: %v", err)
		}
		files[p] = b
	}
	root, err := projectRoot(o.ProjectRoot, o.StoreRoot)
	if err != nil {
		return nil, err
	}
	in := prior.Input{ProjectRoot: root, AllowExploratory: o.AllowExploratory, ReportPath: o.Report,
		SurveyBytes: files[o.Survey], MatrixBytes: files[o.Matrix]}
	var pre []diag.Diagnostic
	var ds []diag.Diagnostic
	in.Survey, ds = prior.ParseFile(o.Survey, files[o.Survey])
	pre = append(pre, ds...)
	in.Matrix, ds = prior.ParseFile(o.Matrix, files[o.Matrix])
	pre = append(pre, ds...)
	if len(pre) > 0 {
		return nil, fmt.Errorf("close-prior gate input could not be read: %s", pre[0].String())
	}
	text := string(files[o.Report])
	in.Report = &text
	in.SurveyAbs, _ = filepath.Abs(o.Survey)
	in.MatrixAbs, _ = filepath.Abs(o.Matrix)
	res := prior.Gate(in)
	all := append(pre, res.Diagnostics...)
	if diag.HasBlocking(all) || res.Verdict == prior.Refused {
		return nil, &GateError{Header: "close-prior gate failed:", Diags: diag.SortDedup(all)}
	}
	pkg, err := VerifyPackage(root, post, o.Discipline)
	if err != nil {
		return nil, err
	}
	if tds := append(prior.CheckTensionIR(in.Matrix, pkg.IR), prior.CheckIRAnchors(in.Matrix, pkg.IR)...); len(tds) > 0 {
		return nil, &GateError{Header: "close-prior/Gaia consistency gate failed:", Diags: tds}
	}
	if o.ReportChecks != nil {
		if err := o.ReportChecks(o.Report, root); err != nil {
			return nil, err
		}
	}
	if o.Caller == nil {
		return nil, errors.New("RPC caller not found: no command configured (pass --rpc or set NULLIUS_IDEA_RPC)")
	}
	if err := o.Caller.Check(); err != nil {
		return nil, err
	}
	key := o.IdempotencyKey
	if key == "" {
		key = DeriveKey(o.CampaignID, o.NodeID, post.Ref, post.Value, post.EvidenceCount)
		if o.NewWrite {
			if key, err = FreshKey(key, o.Random); err != nil {
				return nil, fmt.Errorf("could not mint a fresh key: %v", err)
			}
		}
	}
	req := Request(o, post, key, res)
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if o.Stderr != nil {
		fmt.Fprintf(o.Stderr, "using idempotency key %s\n", key)
	}
	stdout, stderr, code, callErr := o.Caller.Call(ctx, body)
	return &Result{Key: key, Request: req, Outcome: Interpret(stdout, stderr, code, callErr, key)}, nil
}

// Request builds the node.set_posterior request (§3.5). The declared
// posterior_status is sent when the matrix has one, so the store cannot
// resolve a different readiness than the gate allowed (W-4).
func Request(o Options, post *Posterior, key string, gate prior.Result) map[string]any {
	p := map[string]any{"value": post.Value, "evidence_count": post.EvidenceCount, "gaia_package_ref": post.Ref}
	if gate.PosteriorStatus != "" {
		p["status"] = gate.PosteriorStatus
	}
	store := o.StoreRoot
	if abs, err := filepath.Abs(store); err == nil {
		store = abs
	}
	return map[string]any{"method": "node.set_posterior", "store_root": store, "params": map[string]any{
		"campaign_id": o.CampaignID, "node_id": o.NodeID, "idempotency_key": key,
		"posterior": p, "literature_coverage": gate.Coverage}}
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
