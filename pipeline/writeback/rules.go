package writeback

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the refusals of writeback's own preflight (the gate's
// findings are the gate's rules). Every local refusal is one of these,
// located in the file it concerns, so `writeback --format json` reports
// each as a diagnostic.
const family = diag.Family("writeback")

// The writeback refusals (PRIOR1xx: the posterior half of the idea-posterior
// workflow, beside the close-prior gate's PRIOR0xx and PRIOR5xx).
var (
	RuleIDs = rule("PRIOR101", "writeback-id-invalid", "campaign or node id is not an idea-store id",
		"--campaign-id and --node-id must match the engine's id pattern (8 characters of 0-9 and a-z without i, l, o, u); checked before anything else so a typo is not a late store refusal (W-19).",
		"--campaign-id campaign-1", "--campaign-id c0ffee12", "nullius")
	RulePayload = rule("PRIOR102", "posterior-payload-invalid", "posterior payload is not a writable extraction result",
		"The payload is the JSON `nullius extract` prints: value a number in [0, 1], evidence_count a non-negative integer, gaia_package_ref a project://<path>#sha256:<64 hex> pin of the compiled graph, not exploration-only.",
		`{"value": 1.5, "evidence_count": 2.0}`, `{"value": 0.85, "evidence_count": 2, "gaia_package_ref": "project://ideas/x-gaia#sha256:<hex>"}`, "reference")
	RuleNoRoot = rule("PRIOR103", "writeback-project-root-missing", "no project root to resolve the package and the ledger",
		"The project root is --project-root, else the nearest ancestor of --store-root holding .nullius/. Create .nullius/ at the repository root or pass --project-root.",
		"--store-root /tmp/store (no .nullius/ above)", "mkdir .nullius", "reference")
	RulePackage = rule("PRIOR104", "package-ref-unresolved", "gaia_package_ref does not resolve to a package inside the project",
		"The ref's path, under the project root, must hold .gaia/ir.json as a regular file inside both the root and the package directory (symlinks out are refused). Re-extract to refresh the ref.",
		"project://ideas/missing-gaia#sha256:<hex>", "project://ideas/my-idea-gaia#sha256:<hex>", "reference")
	RulePin = rule("PRIOR105", "package-pin-mismatch", "compiled graph changed after extraction",
		"The sha256 of the exact .gaia/ir.json bytes must equal the pin of gaia_package_ref: a graph recompiled after extraction is not the one the posterior came from. Re-extract and write the new posterior.",
		"ir.json edited after extraction", "nullius extract, then writeback", "reference")
	RuleContract = rule("PRIOR106", "package-contract-violated", "compiled graph breaks the package contract",
		"ir.json must be a JSON object with an ir_hash, exporting exactly one knowledge, the claim labelled worth (K-1, K-2).",
		`__all__ = ["worth", "tension_resolution"]`, `__all__ = ["worth"]`, "reference")
	RuleUnbound = rule("PRIOR107", "package-not-bound", "package is not bound to an idea",
		"A package names its idea in [tool.nullius] of its pyproject.toml (campaign-id and node-id). Without it nothing shows that --node-id is its idea, so writeback refuses. Bind it with nullius bind (or nullius scaffold --campaign-id --node-id) and re-extract.",
		"[project] only", "[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"", "nullius")
	RuleBoundElsewhere = rule("PRIOR108", "package-bound-to-another-idea", "package is bound to another idea than the write names",
		"--campaign-id and --node-id must be the package's binding ([tool.nullius] of its pyproject.toml): writing its posterior onto another node would give one idea's evidence to another. Pass the bound ids, or rebind the package (nullius bind --force) and re-extract.",
		"--node-id n0de0002 for a package bound to n0de0001", "--node-id n0de0001", "nullius")
	RuleBindingInvalid = rule("PRIOR109", "package-binding-invalid", "package's binding cannot be read",
		"[tool.nullius] campaign-id and node-id must be non-empty strings in a pyproject.toml that parses. Fix them or rewrite them with nullius bind.",
		"node-id = 5", `node-id = "n0de0001"`, "nullius")
	RuleRecord = rule("PRIOR110", "extraction-record-refuses", "extraction record forbids writing this compiled graph",
		"`.gaia/discipline.json` for these exact ir.json bytes marks them exploration_only, records an error finding, or names another binding than the package's (extracted before a rebind): the posterior is not writable for this idea, whatever the ref says. Fix and re-extract.",
		`{"ir_pin": "<this pin>", "exploration_only": true}`, `{"ir_pin": "<this pin>", "exploration_only": false, "findings": [], "binding": {...}}`, "nullius")
	RuleDiscipline = rule("PRIOR111", "discipline-recheck-failed", "package fails the discipline re-check",
		"Writeback re-runs the source scan and the compiled-IR checks on the package it writes; any error finding, suppressed or not, refuses (a quarantined package is not writable).",
		"a suppressed GAIA011 off-grade pair", "every infer at a grade of the table", "nullius")
	RuleRecompute = rule("PRIOR112", "posterior-not-recomputed", "value or evidence_count differs from the pinned package",
		"value must equal the worth belief of .gaia/beliefs.json and evidence_count the observations compiled into the pinned ir.json (W-1): a hand-edited payload is refused. Re-extract instead of editing.",
		`"value": 0.99 (beliefs say 0.8499)`, `"value": 0.8499370175790979`, "nullius")
	RuleRPC = rule("PRIOR113", "rpc-caller-not-found", "the idea store's RPC program cannot run",
		"The RPC program (--rpc, $NULLIUS_IDEA_RPC, or --runner with --idea-rpc) must be an executable on PATH, and a script it names must exist.",
		"--rpc 'node /missing/idea-rpc.mjs'", "--rpc 'node packages/idea-engine/bin/idea-rpc.mjs'", "reference")
)

// rule registers an error rule of this family added in 0.1.0.
func rule(code, name, title, text, bad, good, origin string) *diag.Rule {
	return family.Register(diag.Rule{Code: code, Name: name, Severity: diag.Error, Title: title, Text: text,
		Bad: bad, Good: good, Since: "0.1.0", Origin: origin})
}
