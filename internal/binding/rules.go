package binding

import "github.com/nullius-dev/nullius/internal/diag"

// family owns the binding rules.
const family = diag.Family("binding")

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule { return []*diag.Rule{RuleRebind} }

var _ = family.Declare(ruleList)

// RuleRebind is `nullius bind`'s refusal to move a package to another idea
// without --force, a located finding so `bind --format json` carries it as
// a diagnostic (PRIOR1xx: the posterior half of the idea-posterior
// workflow, beside writeback's binding rules PRIOR107-109).
var RuleRebind = &diag.Rule{
	Code: "PRIOR114", Name: "package-rebind-refused", Severity: diag.Error,
	Title: "bind would move a package to another idea",
	Text: "A package bound to one idea ([tool.nullius] campaign-id and node-id of its pyproject.toml) " +
		"holds a graph written for that idea. `nullius bind` refuses to rebind it to another idea " +
		"unless --force says the move is meant; after a forced rebind, re-run `nullius extract` (the " +
		"extraction record names the idea it was extracted for, and writeback checks it). Completing a " +
		"half binding, or binding again to the same idea, is not a move.",
	Bad: "$ nullius bind --package my-idea-gaia --campaign-id c0ffee12 --node-id n0de0002\n" +
		"-- my-idea-gaia/pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\n\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n",
	Good: "$ nullius bind --package my-idea-gaia --campaign-id c0ffee12 --node-id n0de0001\n" +
		"-- my-idea-gaia/pyproject.toml --\n[project]\nname = \"my-idea-gaia\"\n\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n",
	Since: "0.1.0", Origin: "nullius", Owner: string(family),
}
