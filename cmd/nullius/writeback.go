package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pipeline/writeback"
)

func (a *app) writebackCmd() *cobra.Command {
	var (
		o                      writeback.Options
		postPath, rpc          string
		ideaRPC, runner        string
		format                 string
		allowAlias, allowExplo bool
		rpcTimeout             int
	)
	cmd := &cobra.Command{
		Use:   "writeback --campaign-id ID --node-id ID --store-root DIR --survey F --matrix F --report F",
		Short: "Write an extracted posterior to the idea store, after the close-prior gate",
		Long: `Writeback sends one posterior (the JSON that 'nullius extract' prints) to the
idea store's node.set_posterior RPC, after a preflight that fails closed at
the first refusal and sends nothing:

  1. the payload: value in [0, 1], integer evidence_count, a pinned
     gaia_package_ref that is not exploration-only
  2. the package: ir.json resolved inside the project root; the package bound
     to --campaign-id and --node-id ([tool.nullius] of its pyproject.toml,
     written by 'nullius scaffold --campaign-id --node-id' or 'nullius bind');
     ir.json matching the pin byte for byte, the worth export, the
     extractor's record (.gaia/discipline.json: not quarantined, extracted
     for this idea), the discipline re-run on source and IR, and value /
     evidence_count recomputed from beliefs.json and ir.json
  3. the close-prior gate, the same one 'nullius gate close-prior' runs, over
     --survey, --matrix and --report (JSON Schemas, the pinned ledger
     resolved and recomputed, the matrix, the report's displays and links)
     and the package's compiled IR (tension/IR consistency, anchors)
  4. the RPC program exists

The project root is --project-root, else the nearest ancestor of --store-root
holding .nullius/. The RPC program is --rpc "node <repo>/packages/idea-engine/bin/idea-rpc.mjs"
(split into words without a shell), else $NULLIUS_IDEA_RPC, else --runner and
--idea-rpc as in the reference. The request JSON goes to its stdin.

The idempotency key is the reference's recipe (campaign, node, ref,
repr(value), evidence_count), printed before the call. A replay of an earlier
identical write is reported with a WARNING; --new-write mints a fresh key
(the derived key plus a random suffix); --idempotency-key reuses one.

--format json prints, on stdout, the lint v1 document ("version", "tool",
"diagnostics": every local refusal as a located finding, PRIOR1xx for
writeback's own checks, the gate's findings otherwise; "summary") followed by
the outcome: "status" (written, replayed, refused: nothing sent, rejected:
the store refused, failed: the RPC program failed), "campaign_id", "node_id",
"idempotency_key" and "gaia_package_ref" (null until known), "package",
"verdict" (the gate's), "gate_checks", "response" (the store's reply) and
"message". The schema is schemas/writeback_result_v1.schema.json. Usage
errors and an unreadable payload stay one line on stderr.

Exit codes: 0 written or replayed, 1 the store refused the write (lifecycle,
idempotency conflict, schema), 2 refused locally or infrastructure failure
(the RPC program crashed, was killed, or did not answer within --rpc-timeout,
default 120 s: whether the store committed the write is then unknown; retry
with the printed --idempotency-key).` + limitsNote,
		Example: `  # Extract the package bound to node n0de0001, then write its posterior:
  nullius extract --package ideas/my-idea-gaia --output posterior.json
  nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 \
    --store-root idea-store --survey artifacts/literature/survey.json \
    --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md \
    --rpc "node packages/idea-engine/bin/idea-rpc.mjs"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageErrorf("invalid --format %q; use text or json", format)
			}
			for _, req := range []struct{ flag, val string }{
				{"--campaign-id", o.CampaignID}, {"--node-id", o.NodeID}, {"--store-root", o.StoreRoot},
				{"--survey", o.Survey}, {"--matrix", o.Matrix}, {"--report", o.Report},
			} {
				if req.val == "" {
					return usageErrorf("writeback needs %s", req.flag)
				}
			}
			if rpcTimeout <= 0 {
				return usageErrorf("invalid --rpc-timeout %d; give the seconds the RPC program may take, at least 1", rpcTimeout)
			}
			if o.NewWrite && o.IdempotencyKey != "" {
				return usageErrorf("--new-write and --idempotency-key are mutually exclusive: --new-write mints a fresh key, --idempotency-key retries a printed one")
			}
			o.AllowExploratory = allowExplo || allowAlias
			var err error
			if o.Posterior, o.PosteriorSource, err = a.readPosterior(postPath); err != nil {
				return err
			}
			if rpc == "" {
				rpc = a.getenv("NULLIUS_IDEA_RPC")
			}
			// With no RPC program configured the caller is empty: its
			// Check refuses after the preflight, as the reference does.
			caller := writeback.CommandCaller{Timeout: time.Duration(rpcTimeout) * time.Second}
			switch {
			case rpc != "":
				argv, err := writeback.SplitCommand(rpc)
				if err != nil {
					return usageErrorf("--rpc: %v", err)
				}
				caller.Argv = argv
			case ideaRPC != "":
				if _, err := os.Stat(ideaRPC); err != nil {
					return &exitErr{code: exitError, msg: fmt.Sprintf("RPC caller not found: %q", ideaRPC)}
				}
				caller.Argv = []string{runner, ideaRPC}
			}
			w, err := writeback.New(caller, writeback.DefaultDiscipline, a.stderr)
			if err != nil {
				return &exitErr{code: exitError, msg: err.Error()}
			}
			res, err := w.Run(cmd.Context(), o)
			if format == "json" {
				return a.writebackJSON(o, res, err)
			}
			if err != nil {
				return a.writebackRefusal(err)
			}
			out := res.Outcome
			if out.Response != nil && out.Exit == 0 {
				b, _ := json.MarshalIndent(out.Response, "", "  ")
				fmt.Fprintln(a.stdout, string(b))
			}
			if out.Exit == 0 {
				fmt.Fprintln(a.stderr, out.Message)
				return nil
			}
			return &exitErr{code: out.Exit, msg: storeFailure(out)}
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "text", "output format: text, or json (the lint v1 document with every refusal as a located finding, plus the outcome; schemas/writeback_result_v1.schema.json)")
	fl.StringVar(&postPath, "posterior-json", "-", "posterior payload file ('-' reads stdin)")
	fl.StringVar(&o.CampaignID, "campaign-id", "", "idea-store campaign id (required)")
	fl.StringVar(&o.NodeID, "node-id", "", "idea-store node id (required)")
	fl.StringVar(&o.StoreRoot, "store-root", "", "idea-store root (required)")
	fl.StringVar(&o.Survey, "survey", "", "literature_survey_v1 JSON (required)")
	fl.StringVar(&o.Matrix, "matrix", "", "close-prior matrix JSON (required)")
	fl.StringVar(&o.Report, "report", "", "posterior_report_v1 Markdown (required)")
	fl.StringVar(&o.Survey, "literature-survey-json", "", "alias of --survey (the reference's name)")
	fl.StringVar(&o.Matrix, "close-prior-matrix-json", "", "alias of --matrix (the reference's name)")
	fl.StringVar(&o.Report, "posterior-report-md", "", "alias of --report (the reference's name)")
	fl.BoolVar(&allowExplo, "allow-exploratory", false, "allow exploratory_allocation on coverage_incomplete (an explicit, flagged waiver)")
	fl.BoolVar(&allowAlias, "allow-exploratory-allocation", false, "alias of --allow-exploratory (the reference's name)")
	fl.StringVar(&o.ProjectRoot, "project-root", "", "project root (default: nearest ancestor of --store-root holding .nullius/)")
	fl.StringVar(&rpc, "rpc", "", "idea-store RPC command, e.g. \"node packages/idea-engine/bin/idea-rpc.mjs\" (default $NULLIUS_IDEA_RPC)")
	fl.StringVar(&ideaRPC, "idea-rpc", "", "path of the RPC caller script, run with --runner (the reference's form)")
	fl.StringVar(&runner, "runner", "node", "interpreter for --idea-rpc")
	fl.IntVar(&rpcTimeout, "rpc-timeout", 120, "`SECONDS` the RPC program may take before it is killed (its whole process group) and the write reported failed")
	fl.StringVar(&o.IdempotencyKey, "idempotency-key", "", "use this key verbatim (retry a printed key)")
	fl.BoolVar(&o.NewWrite, "new-write", false, "salt the derived key: write again on purpose")
	return markInterruptible(cmd)
}

// writebackJSON is the outcome carried in the json output, after the
// findings (schemas/writeback_result_v1.schema.json).
type writebackJSON struct {
	Status         string         `json:"status"` // written, replayed, refused, rejected, failed
	CampaignID     string         `json:"campaign_id"`
	NodeID         string         `json:"node_id"`
	IdempotencyKey *string        `json:"idempotency_key"`
	Ref            *string        `json:"gaia_package_ref"`
	Package        *string        `json:"package"`
	Verdict        *string        `json:"verdict"`
	GateChecks     []string       `json:"gate_checks"`
	Response       map[string]any `json:"response"`
	Message        string         `json:"message"`
}

// writebackJSON prints the json document of any outcome and returns the
// exit status text mode would: 0 written or replayed, 1 the store refused,
// 2 a local refusal or a failure. The one-line reason still goes to stderr.
func (a *app) writebackJSON(o writeback.Options, res *writeback.Result, err error) error {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	out := writebackJSON{CampaignID: o.CampaignID, NodeID: o.NodeID, Ref: opt(res.Ref), GateChecks: []string{}}
	var ds []diag.Diagnostic
	if res.Package != nil {
		out.Package = opt(filepath.ToSlash(filepath.Dir(filepath.Dir(res.Package.IRPath))))
	}
	if res.Gate != nil {
		out.Verdict, out.GateChecks, ds = opt(res.Gate.Verdict), res.Gate.Ran, res.Gate.Diagnostics
	}
	code, msg := 0, ""
	switch {
	case err != nil && writeback.Diagnostics(err) != nil:
		out.Status, ds, code = "refused", writeback.Diagnostics(err), exitError
		msg = err.Error() + "; nothing was sent to the store"
		if ge := (*writeback.GateError)(nil); errors.As(err, &ge) {
			msg = fmt.Sprintf("%s %s (the json findings); nothing was sent to the store", ge.Header, plural.N(countBlocking(ge.Diags), "problem"))
		}
	case err != nil:
		out.Status, code, msg = "failed", exitError, err.Error()
	default:
		oc := res.Outcome
		out.IdempotencyKey, out.Response = opt(res.Key), oc.Response
		switch {
		case oc.Exit == 0 && oc.Replay:
			out.Status = "replayed"
		case oc.Exit == 0:
			out.Status = "written"
		case oc.Exit == 1:
			out.Status, msg = "rejected", storeFailure(oc)
		default:
			out.Status, msg = "failed", oc.Message
		}
		code = oc.Exit
		if code == 0 {
			fmt.Fprintln(a.stderr, oc.Message)
		}
	}
	if out.Message = msg; msg == "" {
		out.Message = res.Outcome.Message
	}
	f := reportFlags{format: "json", color: "never", exitZero: true, result: out}
	if rerr := a.report(&f, "writeback", ds, 3); rerr != nil {
		return rerr
	}
	if code != 0 {
		if out.Status == "refused" {
			msg = "error: " + msg
		}
		return &exitErr{code: code, msg: msg}
	}
	return nil
}

// countBlocking counts the findings that block.
func countBlocking(ds []diag.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Blocking() {
			n++
		}
	}
	return n
}

// readPosterior reads the payload from a file or stdin.
func (a *app) readPosterior(path string) ([]byte, string, error) {
	if path == "-" || path == "" {
		b, err := readlimit.ReadStream(a.stdin, "stdin", readlimit.Small)
		if readlimit.Refused(err) {
			return nil, "", &exitErr{code: exitError, msg: err.Error()}
		}
		if err != nil {
			return nil, "", &exitErr{code: exitError, msg: "cannot read the posterior from stdin: " + err.Error()}
		}
		return b, "stdin", nil
	}
	b, err := readlimit.ReadFile(path, readlimit.Small)
	if readlimit.Refused(err) {
		return nil, "", &exitErr{code: exitError, msg: err.Error()}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", &exitErr{code: exitError, msg: fmt.Sprintf("posterior JSON not found: %q", path)}
	}
	if err != nil {
		return nil, "", &exitErr{code: exitError, msg: fmt.Sprintf("cannot read posterior JSON %q: %v", path, err)}
	}
	return b, path, nil
}

// writebackRefusal prints a local refusal: located findings first (one per
// line on stderr), then the one-line reason; exit 2, nothing sent.
func (a *app) writebackRefusal(err error) error {
	var ge *writeback.GateError
	var rf *writeback.Refusal
	var ds []diag.Diagnostic
	msg := err.Error()
	switch {
	case errors.As(err, &ge):
		ds, msg = ge.Diags, ge.Header
	case errors.As(err, &rf):
		ds, msg = rf.Diags, rf.Msg
	}
	n := 0
	for _, d := range diag.SortDedup(ds) {
		if d.Severity == diag.Error {
			fmt.Fprintf(a.stderr, "  - %s\n", d.String())
			n++
		}
	}
	if ge != nil {
		msg = fmt.Sprintf("%s %s (listed above)", msg, plural.N(n, "problem"))
	}
	return &exitErr{code: exitError, msg: "error: " + msg + "; nothing was sent to the store"}
}

// storeFailure is the one line for a write the store refused (exit 1: its
// error, quoted in full, then the next step when one is known) or that
// failed on the way (exit 2: the RPC caller's own output). It never points
// "above": nothing is printed before it.
func storeFailure(oc writeback.Outcome) string {
	if oc.Exit == 1 {
		if hint := lifecycleHint(oc.Response); hint != "" {
			return oc.Message + "; " + hint
		}
	}
	return oc.Message
}

// lifecycleHint turns a store refusal into the operator's next step (§3.7),
// or "" when the store's reason has no known remedy (its error says it).
func lifecycleHint(resp map[string]any) string {
	e, _ := resp["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	details, _ := data["details"].(map[string]any)
	switch data["reason"] {
	case "posterior_write_lifecycle_invalid":
		if details["current_state"] == "candidate" {
			return "the node is a candidate: move it to admission_review (node.set_lifecycle) before writing a posterior"
		}
		return fmt.Sprintf("a posterior can be written only in admission_review, admitted or needs_refresh (the node is %v)", details["current_state"])
	case "idempotency_key_conflict":
		return "this key was used for a different payload (coverage or refs changed): re-run with --new-write to write again"
	case "posterior_status_not_supported_by_coverage":
		return "current needs saturated coverage or an allowed exploratory allocation"
	}
	return ""
}
