package absorb

import (
	"github.com/nullius-dev/nullius/internal/diag"
)

const family = diag.Family("absorb")

// absorbCmd is the absorb of the examples: the project of the absorb
// scripts, two packages bound to the two ideas of match 5d0b3e21 (A
// 1f6c9d5e wins), the artifact in campaign/artifacts/matches/. A second
// command line ran before the example's files were written. absorbLine is
// the command without its newline, for examples that add flags.
const (
	absorbLine = "$ nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json --a-package graphs/idea-one-gaia --b-package graphs/idea-two-gaia"
	absorbCmd  = absorbLine + "\n"
)

// killedCommitted kills the command before it at the crash point where
// the journal is committed and both modules edited, the artifact not yet
// marked (CrashPoints).
const killedCommitted = "# killed at the crash point committed (journal committed, both modules edited, the artifact not yet marked)\n"

// The refusals of `nullius match absorb` and `nullius recover`, each a
// located finding so --format json carries every refusal as a diagnostic.
// An invalid artifact and a package that does not lint clean are reported
// by the validator's and the linter's own findings instead.
var (
	ruleAlreadyAbsorbed = &diag.Rule{
		Code: "MATCH060", Name: "absorb-already-absorbed", Severity: diag.Error,
		Title: "the match is already in the belief layer",
		Text: "A match reaches each graph exactly once. Absorb refuses an artifact whose " +
			"observation_write.written is true, and a package whose root module already holds the " +
			"match (its '# absorbed pairwise match <id>' block, or an evidence_family " +
			"pairwise-match-<id> written by hand), so resetting the flag by hand cannot count a " +
			"match twice. Nothing to fix when the match was absorbed; otherwise remove the stale block.",
		Bad:   absorbCmd + absorbCmd + "-- campaign/artifacts/matches/match-5d0b3e21.json --\n{\"observation_write\": {\"written\": false, \"gaia_package_ref\": null}}\n",
		Good:  absorbCmd,
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleNotBound = &diag.Rule{
		Code: "MATCH061", Name: "absorb-package-not-bound", Severity: diag.Error,
		Title: "a package is not bound to the idea the artifact names",
		Text: "Each package is bound to its idea by campaign-id and node-id in [tool.nullius] of its " +
			"pyproject.toml. --a-package must be bound to the artifact's idea_a_node_id, --b-package to " +
			"idea_b_node_id, both to its campaign_id; otherwise the winner's graph could record a loss. " +
			"Swapped flags are named as such; an unbound package is bound with 'nullius bind --package " +
			"DIR --campaign-id C --node-id N'.",
		Bad:   "$ nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json --a-package graphs/idea-two-gaia --b-package graphs/idea-one-gaia\n",
		Good:  absorbCmd,
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleOutsideProject = &diag.Rule{
		Code: "MATCH062", Name: "absorb-outside-project", Severity: diag.Error,
		Title: "the artifact or a package is outside the project root",
		Text: "Absorb writes only inside the project (the nearest directory holding .nullius/, or " +
			"--project-root) and records project-relative paths only: the anchors in the graphs and " +
			"the project:// references in the artifact never carry a machine path. An artifact or a " +
			"package that resolves (after symbolic links) outside the root, or a package that is the " +
			"root itself, is refused. Move it into the project.",
		Bad:   absorbLine + " --project-root graphs\n",
		Good:  absorbLine + " --project-root .\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleModule = &diag.Rule{
		Code: "MATCH063", Name: "absorb-module-unfit", Severity: diag.Error,
		Title: "the package's root module cannot take the update of worth",
		Text: "Absorb appends a claim, an observe() and an infer() on worth to the package's root " +
			"module (<package>/<import>/__init__.py, else <package>/src/<import>/__init__.py), so the " +
			"module must exist inside the package and bind worth at module level.",
		Bad:   absorbCmd + "-- graphs/idea-two-gaia/pyproject.toml --\n[project]\nname = \"idea-2-gaia\"\nversion = \"0.1.0\"\n\n[tool.nullius]\ncampaign-id = \"3b8e1f70\"\nnode-id = \"2a7d0e6f\"\n",
		Good:  absorbCmd + "-- graphs/idea-two-gaia/pyproject.toml --\n[project]\nname = \"idea-two-gaia\"\nversion = \"0.1.0\"\n\n[tool.nullius]\ncampaign-id = \"3b8e1f70\"\nnode-id = \"2a7d0e6f\"\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleEditNotClean = &diag.Rule{
		Code: "MATCH064", Name: "absorb-edit-not-clean", Severity: diag.Error,
		Title: "the appended statements would add an error finding",
		Text: "Both packages are linted again after the edit, inside the transaction. An edit that " +
			"adds an error finding, suppressed or not (an inline ignore written for another line must " +
			"not let a broken update of worth through), is rolled back and refused. In the example the " +
			"artifact's directory name holds a line break, which breaks the anchor line of the appended notes " +
			"(GAIA032), and the package's nullius.toml hides GAIA032.",
		Bad:   "$ nullius match absorb $'campaign/round\\n2/match-5d0b3e21.json' --a-package graphs/idea-one-gaia --b-package graphs/idea-two-gaia\n" + "-- graphs/idea-one-gaia/nullius.toml --\nignore = [\"GAIA032\"]\n-- $'campaign/round\\n2/match-5d0b3e21.json' --\n{\"match_id\": \"5d0b3e21\"}\n",
		Good:  "$ nullius match absorb 'campaign/round 2/match-5d0b3e21.json' --a-package graphs/idea-one-gaia --b-package graphs/idea-two-gaia\n" + "-- graphs/idea-one-gaia/nullius.toml --\nignore = [\"GAIA032\"]\n-- campaign/round 2/match-5d0b3e21.json --\n{\"match_id\": \"5d0b3e21\"}\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleSamePackage = &diag.Rule{
		Code: "MATCH065", Name: "absorb-same-package", Severity: diag.Error,
		Title: "--a-package and --b-package name one package",
		Text:  "A match compares two ideas, so absorb edits two packages. Give each idea's package.",
		Bad:   "$ nullius match absorb campaign/artifacts/matches/match-5d0b3e21.json --a-package graphs/idea-one-gaia --b-package graphs/../graphs/idea-one-gaia\n",
		Good:  absorbCmd,
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleArtifactChanged = &diag.Rule{
		Code: "MATCH066", Name: "absorb-artifact-changed", Severity: diag.Error,
		Title: "the artifact changed while it was being absorbed",
		Text: "observation_write is spliced into the bytes that were validated. When the artifact " +
			"changes during the absorb (an editor saved it), both packages are restored and nothing " +
			"is absorbed; run the absorb again.",
		Bad:   absorbCmd + "-- campaign/artifacts/matches/match-5d0b3e21.json (saved during the absorb) --\n{\"outcome\": {\"decided_at\": \"2026-11-30T05:35:28+00:00\"}}\n",
		Good:  absorbCmd,
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
	ruleInterrupted = &diag.Rule{
		Code: "MATCH067", Name: "absorb-interrupted", Severity: diag.Error,
		Title: "an interrupted absorb could not be completed or rolled back",
		Text: "An absorb journals its three files (both root modules and the artifact) under " +
			".nullius/journal/ before the first edit. A later absorb, lint or 'nullius recover' that " +
			"finds the journal of a killed absorb completes it (once it was committed) or rolls it " +
			"back, by the sha256 digests recorded there. A file that is in neither recorded state " +
			"(edited since) is left as it is and reported, and the journal stays: put the file back " +
			"in one of the two states, or, once all three are as they should be, delete the journal.",
		Bad:   absorbCmd + killedCommitted + "$ nullius recover\n-- campaign/artifacts/matches/match-5d0b3e21.json --\n{\"outcome\": {\"decided_at\": \"2026-11-30T05:35:28+00:00\"}}\n",
		Good:  absorbCmd + killedCommitted + "$ nullius recover\n",
		Since: "0.1.0", Origin: "nullius", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		ruleAlreadyAbsorbed, ruleNotBound, ruleOutsideProject, ruleModule, ruleEditNotClean,
		ruleSamePackage, ruleArtifactChanged, ruleInterrupted,
	}
}

var _ = family.Declare(ruleList)
