package analyzers

import "github.com/nullius-dev/nullius/internal/diag"

const family = diag.Family("discover")

// The examples are package layouts (txtar archives of the package's files).
const (
	project = "[project]\nname = \"my-idea-gaia\"\n"
	module  = "from gaia.engine.lang import claim\n\nworth = claim(\"Matching the two published widths is worth a month of work.\")\n"
)

// Package-level rules: discovery problems that no analyzer can see because
// they happen before any file is parsed.
var (
	ruleNoModule = &diag.Rule{
		Code: "GAIA002", Name: "package-module-not-found", Severity: diag.Error,
		Title: "the package has no module where Gaia looks for one",
		Text: `Gaia loads a package from <package>/<import_name>/ (flat layout) or, when that does not
exist, from <package>/src/<import_name>/, where import_name is [project].name with a trailing
"-gaia" removed and hyphens turned into underscores. When neither exists, or it holds no .py
file, nothing is compiled and nothing can be checked. The reference scan walked only src/ and
passed silently in that case (weakness W1); nullius reports it at pyproject.toml. Fix the
project name or move the module to the folder Gaia expects.`,
		Bad:    "-- pyproject.toml --\n" + project + "-- src/myidea/__init__.py --\n" + module,
		Good:   "-- pyproject.toml --\n" + project + "-- src/my_idea/__init__.py --\n" + module,
		Since:  "0.1.0",
		Origin: "nullius", Owner: string(family),
	}
	ruleBadPyproject = &diag.Rule{
		Code: "GAIA003", Name: "pyproject-invalid", Severity: diag.Error,
		Title: "pyproject.toml does not parse or has no project name",
		Text: `Gaia takes the import name of a package from [project].name in pyproject.toml. A file that
is not valid TOML, or that has no name, leaves the package unloadable, so nothing in it can be
checked. The diagnostic sits at the TOML error's position. Fix the TOML syntax or add
name = "<slug>-gaia" under [project].`,
		Bad:    "-- pyproject.toml --\n[project]\nname = \"my-idea-gaia\n-- src/my_idea/__init__.py --\n" + module,
		Good:   "-- pyproject.toml --\n" + project + "-- src/my_idea/__init__.py --\n" + module,
		Since:  "0.1.0",
		Origin: "nullius", Owner: string(family),
	}
	ruleNotLinted = &diag.Rule{
		Code: "NULLIUS004", Name: "package-not-linted", Severity: diag.Error,
		Title: "a package could not be linted",
		Text: `A package whose check failed part way (an I/O error reading its compiled IR, or an
internal error in nullius itself) is reported here, at its pyproject.toml, instead of ending
the whole run: every other package is still linted and every report still written. Nothing
in this package was verified, so the error blocks the gate. The message names the cause; an
internal error is a bug in nullius, please report it with the package that triggers it.`,
		Bad:    "-- pyproject.toml --\n" + project + "-- src/my_idea/__init__.py --\n" + module + "-- .gaia/ir.json/README --\n.gaia/ir.json is a directory here, so the compiled IR cannot be read.\n",
		Good:   "-- pyproject.toml --\n" + project + "-- src/my_idea/__init__.py --\n" + module + "-- .gaia/README --\nNot compiled yet: no ir.json, so only the source is checked.\n",
		Since:  "0.2.0",
		Origin: "nullius", Owner: string(family),
	}
	ruleShadowedSrc = &diag.Rule{
		Code: "GAIA903", Name: "shadowed-src-layout", Severity: diag.Warning,
		Title: "both a flat and a src/ copy of the module exist",
		Text: `Gaia loads <package>/<import_name>/ when it exists and never looks at
<package>/src/<import_name>/. With both present, the src/ copy is dead: edits there are
neither compiled nor checked. The reference scanned only the src/ copy, so it checked the
code Gaia ignores and missed the code it compiles (weakness W1). nullius checks the flat copy
and flags the layout at pyproject.toml. Delete the copy you do not mean.`,
		Bad:    "-- pyproject.toml --\n" + project + "-- my_idea/__init__.py --\n" + module + "-- src/my_idea/__init__.py --\n" + module,
		Good:   "-- pyproject.toml --\n" + project + "-- src/my_idea/__init__.py --\n" + module,
		Since:  "0.1.0",
		Origin: "nullius", Owner: string(family),
	}
)

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		ruleNoModule, ruleBadPyproject, ruleNotLinted, ruleShadowedSrc,
	}
}

var _ = family.Declare(ruleList)
