package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/validators/prior"
)

// priorValidateCmds returns `validate survey|matrix|ledger|gate-result`.
func (a *app) priorValidateCmds() []*cobra.Command {
	type kind struct {
		use, short, schema string
		needsRoot          bool
		check              func(f *prior.File, root string) []diag.Diagnostic
		example            string // a file of the kind where the workflow keeps it
	}
	kinds := []kind{
		{"survey", "Validate a literature_survey_v1 file and the detailed ledger its receipts pin", prior.SchemaSurvey, true, prior.CheckSurvey,
			"artifacts/literature/survey.json"},
		{"matrix", "Validate a close-prior matrix (close_prior_matrix.json)", prior.SchemaMatrix, false,
			func(f *prior.File, _ string) []diag.Diagnostic { return prior.CheckMatrix(f) }, "artifacts/literature/close_prior_matrix.json"},
		{"ledger", "Validate a detailed literature-saturation ledger and its pinned side files", prior.SchemaLedger, true, prior.CheckLedger,
			"artifacts/literature/literature-ledger.json"},
		{"gate-result", "Validate a gate_result_v1 admission verdict", prior.SchemaGateResult, false,
			func(f *prior.File, _ string) []diag.Diagnostic { return prior.CheckGateResult(f) }, "artifacts/gate_result.json"},
	}
	var cmds []*cobra.Command
	for _, k := range kinds {
		var (
			f    reportFlags
			root string
		)
		cmd := &cobra.Command{
			Use:   k.use + " FILE...",
			Short: k.short,
			Long: k.short + `.

Each file is checked against its embedded JSON Schema (schemas/` + k.schema + `)
and then against the semantic PRIOR rules of the close-prior gate; every
finding carries its JSON pointer and line:column. 'nullius explain PRIOR0NN'
documents each rule.` + rootHelp(k.needsRoot) + `

Exit codes: 0 no error finding, 1 error findings, 2 usage or I/O error.` + limitsNote,
			Example: exampleFor(k.use, k.example, k.needsRoot),
			Args:    cobra.MinimumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := f.check(); err != nil {
					return err
				}
				var ds []diag.Diagnostic
				for _, path := range args {
					src, err := readInput(path)
					if err != nil {
						return err
					}
					file, pds := prior.ParseFile(path, src)
					ds = append(ds, pds...)
					if file.Doc == nil {
						continue
					}
					sds, err := prior.CheckSchema(file, k.schema)
					if err != nil {
						return &exitErr{code: exitError, msg: "internal schema error: " + err.Error()}
					}
					ds = append(ds, sds...)
					r := root
					if k.needsRoot && r == "" {
						r = prior.FindProjectRoot(filepath.Dir(path))
					}
					ds = append(ds, k.check(file, r)...)
				}
				return a.report(&f, "validate "+k.use, ds, len(args))
			},
		}
		f.register(cmd)
		if k.needsRoot {
			cmd.Flags().StringVar(&root, "project-root", "", "project root that pinned project:// references resolve under (default: nearest ancestor of the file holding .nullius/)")
		}
		cmds = append(cmds, cmd)
	}
	return cmds
}

// exampleFor is the worked example of `validate KIND`.
func exampleFor(kind, file string, needsRoot bool) string {
	ex := "  nullius validate " + kind + " " + file
	if needsRoot {
		ex += "\n  nullius validate " + kind + " --project-root . " + file + "   # pinned files resolve under ."
	}
	return ex + "\n  nullius validate " + kind + " --format sarif:" + kind + ".sarif " + file
}

func rootHelp(needsRoot bool) string {
	if !needsRoot {
		return ""
	}
	return `

Pinned references (project://<path>#sha256:<hex>) resolve under the project
root: --project-root, else the nearest ancestor of the file that holds a
.nullius/ directory. Without a root the pinned ledger cannot be recomputed,
which is itself a finding.`
}

// readInput reads a JSON file named on the command line ("-" is not
// accepted here); a missing, unreadable or oversized file is a one-line
// exit-2 error.
func readInput(path string) ([]byte, error) { return readInputKind(path, readlimit.JSON) }

// readInputKind is readInput with the size cap of kind.
func readInputKind(path string, kind readlimit.Kind) ([]byte, error) {
	b, err := readlimit.ReadFile(path, kind)
	switch {
	case err == nil:
		return b, nil
	case readlimit.Refused(err):
		return nil, &exitErr{code: exitError, msg: err.Error()}
	case errors.Is(err, fs.ErrNotExist):
		return nil, &exitErr{code: exitError, msg: fmt.Sprintf("%q does not exist", path)}
	case errors.Is(err, fs.ErrPermission):
		return nil, &exitErr{code: exitError, msg: fmt.Sprintf("cannot read %q: permission denied", path)}
	}
	return nil, &exitErr{code: exitError, msg: fmt.Sprintf("cannot read %q: %v", path, err)}
}
