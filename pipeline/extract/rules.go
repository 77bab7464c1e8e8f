package extract

import "github.com/nullius-dev/nullius/internal/diag"

const family = diag.Family("extract")

// The extraction rules (gaia-discipline.md §3.2). They describe why the
// pipeline stopped; each is reported once, as a Failure. GAIA206-209 and
// GAIA212 (beliefs-stale, W11), which the compiled-IR checks report too,
// are declared in analyzers/ir.
var (
	rulePackageMissing = &diag.Rule{
		Code: "GAIA200", Name: "package-dir-not-found", Severity: diag.Error,
		Title: "the --package path is not a directory",
		Text: "Extraction resolves --package to an absolute, symlink-free path and requires a directory " +
			"(the Gaia package holding pyproject.toml). Fix the path.",
		Bad: `$ nullius extract --package ideas/my-idea-gaia
-- .nullius/.keep --
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	ruleNoProjectRoot = &diag.Rule{
		Code: "GAIA201", Name: "project-root-not-found", Severity: diag.Error,
		Title: "no project root: no ancestor directory holds .nullius/",
		Text: "The gaia_package_ref is a project-relative path, so extraction needs the project root: " +
			"--project-root, or the nearest directory at or above the package that contains a directory " +
			"named .nullius (a file of that name does not count). Create .nullius/ at the repository root " +
			"or pass --project-root.",
		Bad: `$ nullius extract --package my-idea-gaia
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	ruleNoGaia = &diag.Rule{
		Code: "GAIA202", Name: "gaia-not-found", Severity: diag.Error,
		Title: "no gaia executable could be run",
		Text: "Extraction drives the gaia CLI: --gaia, else $GAIA_BIN, else gaia on PATH. When none can be " +
			"started, nullius prints the install recipe for gaia-lang==0.5.0a4 and stops.",
		Bad: `$ nullius extract --package my-idea-gaia --gaia ./bin/gaia
-- .nullius/.keep --
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	ruleVersion = &diag.Rule{
		Code: "GAIA203", Name: "gaia-version-mismatch", Severity: diag.Error,
		Title: "gaia --version is not exactly the pinned 0.5.0a4",
		Text: "The discipline (grades, IR fields, evidence-family audit) is written for gaia-lang 0.5.0a4. " +
			"The first line of `gaia --version` must contain the exact token 0.5.0a4 (commas count as " +
			"spaces): 0.5.0a41, v0.5.0a4 and 0.5.0A4 are refused. Install the pinned release.",
		Bad: `$ gaia --version
gaia-lang 0.5.0a41
$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Good: `$ gaia --version
gaia-lang 0.5.0a4
$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	ruleRefused = &diag.Rule{
		Code: "GAIA204", Name: "discipline-violations-refused", Severity: diag.Error,
		Title: "extraction refused: the package breaks the discipline",
		Text: "Extraction lints the package first and refuses, before any gaia stage runs, when an " +
			"error finding is left. --allow-discipline-warnings lets every static finding through " +
			"(not only the statically certain ones); the result is then marked exploration-only in " +
			"its ref and in .gaia/discipline.json and can never be written to the idea store. " +
			"Compiled-IR findings are never allowed through.",
		Bad: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/src/my_idea/extra.py --
from gaia.engine.lang import infer

from . import ev_check, mechanism_insight

infer(
    ev_check,
    hypothesis=mechanism_insight,
    p_e_given_h=0.85,
    p_e_given_not_h=0.15,
    rationale="reader_reasoning: the closed gap points at the dropped term. anchor: results/first-check.md",
)
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
-- my-idea-gaia/src/my_idea/extra.py --
"""Notes kept beside the graph; no statements."""
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	ruleStage = &diag.Rule{
		Code: "GAIA205", Name: "gaia-stage-failed", Severity: diag.Error,
		Title: "a gaia stage (compile, check or infer) failed",
		Text: "gaia build compile, gaia build check and gaia run infer run in that order; a non-zero " +
			"exit stops extraction with the stage and the tool's own output. A posterior from a " +
			"package that fails compile, check or infer is not a result. Fix what gaia reports.",
		Bad: `$ gaia build compile my-idea-gaia
TypeError: exclusive() takes 2 positional arguments but 3 were given
$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	ruleOutsideRoot = &diag.Rule{
		Code: "GAIA210", Name: "package-outside-project-root", Severity: diag.Error,
		Title: "the package is not under the project root",
		Text: "gaia_package_ref is project://<path relative to the project root>, so the package must " +
			"sit inside the root. nullius checks this before any gaia stage runs (the reference only " +
			"after all of them). The package's .gaia/ directory, where gaia writes the compiled artifacts " +
			"and nullius writes discipline.json, and every symlink in it must resolve inside the root too " +
			"(the reference follows a symlinked .gaia anywhere).",
		Bad: `$ nullius extract --project-root repo --package my-idea-gaia
-- repo/.nullius/.keep --
`,
		Good: `$ nullius extract --project-root . --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
	rulePackageIsRoot = &diag.Rule{
		Code: "GAIA211", Name: "package-is-project-root", Severity: diag.Error,
		Title: "the package directory is the project root itself",
		Text: "A package that is the project root has an empty project-relative path, so no " +
			"gaia_package_ref can name it. This usually means a .nullius/ directory inside the package; " +
			"move it to the repository root. Checked before any gaia stage runs.",
		Bad: `$ nullius extract --package my-idea-gaia
-- my-idea-gaia/.nullius/.keep --
`,
		Good: `$ nullius extract --package my-idea-gaia
-- .nullius/.keep --
`,
		Since: "0.1.0", Origin: "reference", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		rulePackageMissing, ruleNoProjectRoot, ruleNoGaia, ruleVersion, ruleRefused, ruleStage,
		ruleOutsideRoot, rulePackageIsRoot,
	}
}

var _ = family.Declare(ruleList)
