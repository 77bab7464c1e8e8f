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
		"$ nullius writeback --posterior-json posterior.json --campaign-id campaign-1 --node-id n0de0001 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n",
		wbLine, "nullius")
	RulePayload = rule("PRIOR102", "posterior-payload-invalid", "posterior payload is not a writable extraction result",
		"The payload is the JSON `nullius extract` prints: value a number in [0, 1], evidence_count a non-negative integer, gaia_package_ref a project://<path>#sha256:<64 hex> pin of the compiled graph, not exploration-only.",
		wbLine+"-- posterior.json --\n{\"value\": 1.5}\n",
		wbLine+"-- posterior.json --\n{\"value\": 0.8427}\n", "reference")
	RuleNoRoot = rule("PRIOR103", "writeback-project-root-missing", "no project root to resolve the package and the ledger",
		"The project root is --project-root, else the nearest ancestor of --store-root holding .nullius/. Create .nullius/ at the repository root or pass --project-root.",
		"$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 --store-root /tmp/idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n",
		"$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n", "reference")
	RulePackage = rule("PRIOR104", "package-ref-unresolved", "gaia_package_ref does not resolve to a package inside the project",
		"The ref's path, under the project root, must hold .gaia/ir.json as a regular file inside both the root and the package directory (symlinks out are refused). Re-extract to refresh the ref.",
		wbLine+"-- posterior.json --\n{\"gaia_package_ref\": \"project://ideas/my-idea-gaia#sha256:5b2c4be3d1f0a9e8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4\"}\n",
		wbLine+"-- posterior.json --\n{\"gaia_package_ref\": \"project://my-idea-gaia#sha256:<pin>\"}\n", "reference")
	RulePin = rule("PRIOR105", "package-pin-mismatch", "compiled graph changed after extraction",
		"The sha256 of the exact .gaia/ir.json bytes must equal the pin of gaia_package_ref: a graph recompiled after extraction is not the one the posterior came from. Re-extract and write the new posterior.",
		wbLine+"-- my-idea-gaia/.gaia/ir.json --\n{\"strategies\": [{\"strategy_id\": \"lcs_check\", \"conditional_probabilities\": [0.03, 0.9]}]}\n",
		wbLine, "reference")
	RuleContract = rule("PRIOR106", "package-contract-violated", "compiled graph breaks the package contract",
		"ir.json must be a JSON object with an ir_hash, exporting exactly one knowledge, the claim labelled worth (K-1, K-2).",
		wbLine+"-- my-idea-gaia/.gaia/ir.json --\n{\"knowledges\": [{\"id\": \"github:my_idea::tension_resolution\", \"exported\": true}]}\n-- posterior.json --\n{\"gaia_package_ref\": \"project://my-idea-gaia#sha256:<pin>\"}\n",
		wbLine+"-- my-idea-gaia/.gaia/ir.json --\n{\"knowledges\": [{\"id\": \"github:my_idea::tension_resolution\", \"exported\": false}]}\n-- posterior.json --\n{\"gaia_package_ref\": \"project://my-idea-gaia#sha256:<pin>\"}\n", "reference")
	RuleUnbound = rule("PRIOR107", "package-not-bound", "package is not bound to an idea",
		"A package names its idea in [tool.nullius] of its pyproject.toml (campaign-id and node-id). Without it nothing shows that --node-id is its idea, so writeback refuses. Bind it with nullius bind (or nullius scaffold --campaign-id --node-id) and re-extract.",
		wbLine+"-- my-idea-gaia/pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\nversion = \"0.1.0\"\n",
		wbLine+"-- my-idea-gaia/pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\nversion = \"0.1.0\"\n\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n", "nullius")
	RuleBoundElsewhere = rule("PRIOR108", "package-bound-to-another-idea", "package is bound to another idea than the write names",
		"--campaign-id and --node-id must be the package's binding ([tool.nullius] of its pyproject.toml): writing its posterior onto another node would give one idea's evidence to another. Pass the bound ids, or rebind the package (nullius bind --force) and re-extract.",
		"$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0002 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n",
		"$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n", "nullius")
	RuleBindingInvalid = rule("PRIOR109", "package-binding-invalid", "package's binding cannot be read",
		"[tool.nullius] campaign-id and node-id must be non-empty strings in a pyproject.toml that parses. Fix them or rewrite them with nullius bind.",
		wbLine+"-- my-idea-gaia/pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\nversion = \"0.1.0\"\n\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = 5\n",
		wbLine+"-- my-idea-gaia/pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\nversion = \"0.1.0\"\n\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n", "nullius")
	RuleRecord = rule("PRIOR110", "extraction-record-refuses", "extraction record forbids writing this compiled graph",
		"`.gaia/discipline.json` for these exact ir.json bytes marks them exploration_only, records an error finding, or names another binding than the package's (extracted before a rebind): the posterior is not writable for this idea, whatever the ref says. Fix and re-extract.",
		wbLine+"-- my-idea-gaia/.gaia/discipline.json --\n{\"exploration_only\": true}\n",
		wbLine+"-- my-idea-gaia/.gaia/discipline.json --\n{\"exploration_only\": false}\n", "nullius")
	RuleDiscipline = rule("PRIOR111", "discipline-recheck-failed", "package fails the discipline re-check",
		"Writeback re-runs the source scan and the compiled-IR checks on the package it writes; any error finding, suppressed or not, refuses (a quarantined package is not writable).",
		wbLine+"-- my-idea-gaia/src/my_idea/side.py --\nfrom gaia.engine.lang import claim, infer\n\nfrom my_idea import worth\n\nside = claim(\"A side check agrees with the matching.\")\ninfer(side, hypothesis=worth, p_e_given_h=0.8, p_e_given_not_h=0.3,  # nullius: ignore[GAIA011] the pair is tuned by hand\n      rationale=\"reader_reasoning: a side check that agrees makes the work likelier to pay off. anchor: idea card\")\n",
		wbLine+"-- my-idea-gaia/src/my_idea/side.py --\nfrom gaia.engine.lang import claim, infer\n\nfrom my_idea import worth\n\nside = claim(\"A side check agrees with the matching.\")\ninfer(side, hypothesis=worth, p_e_given_h=0.75, p_e_given_not_h=0.25,\n      rationale=\"reader_reasoning: a side check that agrees makes the work likelier to pay off. anchor: idea card\")\n", "nullius")
	RuleRecompute = rule("PRIOR112", "posterior-not-recomputed", "value or evidence_count differs from the pinned package",
		"value must equal the worth belief of .gaia/beliefs.json and evidence_count the observations compiled into the pinned ir.json (W-1): a hand-edited payload is refused. Re-extract instead of editing.",
		wbLine+"-- posterior.json --\n{\"value\": 0.99}\n",
		wbLine+"-- posterior.json --\n{\"value\": 0.8427}\n", "nullius")
	RuleRPC = rule("PRIOR113", "rpc-caller-not-found", "the idea store's RPC program cannot run",
		"The RPC program (--rpc, $NULLIUS_IDEA_RPC, or --runner with --idea-rpc) must be an executable on PATH, and a script it names must exist.",
		"$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node /missing/idea-rpc.mjs'\n",
		"$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n", "reference")
)

// wbLine is the command line of the examples: the writeback of the
// posterior that nullius extract printed for the clean package my-idea-gaia/
// (bound to node n0de0001 of campaign c0ffee12) of the close-prior project,
// to the idea engine's RPC program; an example about one flag spells the
// line out with that flag's value changed. The examples' files are what
// changed after the extraction. A constant: the rules register at package
// initialisation, which every nullius process pays for.
const wbLine = "$ nullius writeback --posterior-json posterior.json --campaign-id c0ffee12 --node-id n0de0001 --store-root idea-store --survey artifacts/literature/survey.json --matrix artifacts/literature/close_prior_matrix.json --report artifacts/posterior_report_v1.md --rpc 'node idea-engine/bin/idea-rpc.mjs'\n"

// rule is an error rule of this family added in 0.1.0. The call inlines
// to a literal the linker lays out, so declaring a rule runs nothing at
// start.
func rule(code, name, title, text, bad, good, origin string) *diag.Rule {
	return &diag.Rule{Code: code, Name: name, Severity: diag.Error, Title: title, Text: text,
		Bad: bad, Good: good, Since: "0.1.0", Origin: origin, Owner: string(family)}
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		RuleIDs, RulePayload, RuleNoRoot, RulePackage, RulePin, RuleContract, RuleUnbound,
		RuleBoundElsewhere, RuleBindingInvalid, RuleRecord, RuleDiscipline, RuleRecompute, RuleRPC,
	}
}

var _ = family.Declare(ruleList)
