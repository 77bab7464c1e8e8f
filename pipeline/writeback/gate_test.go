package writeback

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pipeline/gate"
)

// gateTrigger makes exactly one check of the gate find code in a valid
// project (other checks may find more).
type gateTrigger struct {
	mutate func(t *testing.T, root string)
	code   string
}

// gateTriggers has one entry per check of gate.Checks(). A check added to
// the gate without an entry here fails TestWritebackRunsEveryGateCheck, so
// it cannot be forgotten by writeback.
var gateTriggers = map[string]gateTrigger{
	"syntax": {func(t *testing.T, root string) {
		must(t, os.WriteFile(filepath.Join(root, surveyRel), []byte(`{"coverage": `), 0o644))
	}, "PRIOR001"},
	"survey-schema": {func(t *testing.T, root string) {
		editJSON(t, filepath.Join(root, surveyRel), func(m map[string]any) { m["topic"] = 5 })
	}, "PRIOR002"},
	"matrix-schema": {func(t *testing.T, root string) {
		editJSON(t, filepath.Join(root, matrixRel), func(m map[string]any) { m["survey_ref"] = 5 })
	}, "PRIOR002"},
	"close-prior": {func(t *testing.T, root string) {
		editJSON(t, filepath.Join(root, matrixRel), func(m map[string]any) { m["coverage_status"] = "metadata_only" })
	}, "PRIOR057"},
	"report-posteriors": {func(t *testing.T, root string) {
		appendReport(t, root, "\nPosterior value: 0.8499370175790979\n")
	}, "REPORT001"},
	"report-links": {func(t *testing.T, root string) {
		appendReport(t, root, "\nSee [the missing note](notes/missing.md).\n")
	}, "REPORT011"},
	"tension-ir": {func(t *testing.T, root string) {
		editJSON(t, filepath.Join(root, matrixRel), func(m map[string]any) {
			m["tension_resolution"].(map[string]any)["grade"] = "strong"
		})
	}, "PRIOR070"},
	"ir-anchors": {func(t *testing.T, root string) {
		// A paper never read, whose link the compiled graph anchors on.
		editJSON(t, filepath.Join(root, matrixRel), func(m map[string]any) {
			e := map[string]any{}
			for k, v := range m["entries"].([]any)[0].(map[string]any) {
				e[k] = v
			}
			e["read_status"], e["source_link"], e["supports_subclaims"] = "metadata_only", "executed comparison report", []any{}
			delete(e, "sections_read")
			m["entries"] = append(m["entries"].([]any), e)
		})
	}, "PRIOR505"},
}

const (
	surveyRel = "artifacts/literature/survey.json"
	matrixRel = "artifacts/literature/close_prior_matrix.json"
	reportRel = "artifacts/posterior_report_v1.md"
)

func editJSON(t *testing.T, path string, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(b, &m))
	edit(m)
	b, err = json.MarshalIndent(m, "", "  ")
	must(t, err)
	must(t, os.WriteFile(path, b, 0o644))
}

func appendReport(t *testing.T, root, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, reportRel), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(text)
	must(t, err)
	must(t, f.Close())
}

// gateProject is a project that passes the gate and writeback: the
// literature fixture and a bound, pinned package.
func gateProject(t *testing.T) (string, *Posterior) {
	t.Helper()
	root, post := newPackage(t, nil)
	copyTree(t, "../../fixtures/prior/project", root)
	must(t, os.MkdirAll(filepath.Join(root, ".nullius"), 0o755))
	return root, post
}

func gateInput(root string) gate.Input {
	return gate.Input{Survey: filepath.Join(root, surveyRel), Matrix: filepath.Join(root, matrixRel),
		Report: filepath.Join(root, reportRel), ProjectRoot: root,
		IR: &gate.IR{Path: filepath.Join(root, "argument-graphs", "example-idea-gaia", ".gaia", "ir.json")}}
}

func writeOptions(t *testing.T, root string, post *Posterior) Options {
	payload, err := json.Marshal(map[string]any{"value": post.Value, "evidence_count": post.EvidenceCount, "gaia_package_ref": post.Ref})
	must(t, err)
	return Options{Posterior: payload, PosteriorSource: "stdin", CampaignID: bound.CampaignID, NodeID: bound.NodeID,
		StoreRoot: filepath.Join(root, "idea-store"), Survey: filepath.Join(root, surveyRel),
		Matrix: filepath.Join(root, matrixRel), Report: filepath.Join(root, reportRel)}
}

// TestWritebackRunsEveryGateCheck (issue 12, one gate): for every check the
// gate runs, an input that the check refuses is refused by `gate
// close-prior`'s function and by writeback's preflight with the same
// finding, and writeback sends nothing. A clean project passes both, and
// writeback reports having run every check.
func TestWritebackRunsEveryGateCheck(t *testing.T) {
	var names []string
	for _, c := range gate.Checks() {
		names = append(names, c.Name)
		if _, ok := gateTriggers[c.Name]; !ok {
			t.Errorf("gate check %q has no trigger in gateTriggers: add one, so writeback is proved to run it", c.Name)
		}
	}
	for name := range gateTriggers {
		if !slices.Contains(names, name) {
			t.Errorf("gateTriggers names %q, which the gate does not run", name)
		}
	}

	t.Run("clean", func(t *testing.T) {
		root, post := gateProject(t)
		g, err := gate.Run(gateInput(root))
		if err != nil || g.Refused() {
			t.Fatalf("gate on the clean project: %v %v", err, g.Diagnostics)
		}
		rec := &recorder{resp: `{"jsonrpc":"2.0","id":"x","result":{"idempotency":{"is_replay":false}}}`}
		w, err := New(rec, noDiscipline, &bytes.Buffer{})
		must(t, err)
		res, err := w.Run(context.Background(), writeOptions(t, root, post))
		if err != nil {
			t.Fatalf("writeback on the clean project: %v", err)
		}
		if !slices.Equal(res.Gate.Ran, names) {
			t.Errorf("writeback ran %v, the gate has %v", res.Gate.Ran, names)
		}
		if rec.got == nil {
			t.Error("nothing was sent for a clean project")
		}
	})

	for _, name := range names {
		tr, ok := gateTriggers[name]
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			root, post := gateProject(t)
			tr.mutate(t, root)
			g, err := gate.Run(gateInput(root))
			must(t, err)
			found := findings(g.Diagnostics, tr.code)
			if !g.Refused() || len(found) == 0 {
				t.Fatalf("the gate did not refuse with %s: %v", tr.code, g.Diagnostics)
			}
			rec := &recorder{}
			w, err := New(rec, noDiscipline, &bytes.Buffer{})
			must(t, err)
			_, err = w.Run(context.Background(), writeOptions(t, root, post))
			var ge *GateError
			if !errors.As(err, &ge) {
				t.Fatalf("writeback did not refuse at the gate: %v", err)
			}
			if got := findings(ge.Diags, tr.code); !slices.EqualFunc(got, found, func(a, b diag.Diagnostic) bool {
				return a.Path == b.Path && a.Line == b.Line && a.Column == b.Column && a.Message == b.Message
			}) {
				t.Errorf("writeback's %s findings %v differ from the gate's %v", tr.code, got, found)
			}
			if rec.got != nil {
				t.Errorf("writeback sent %s after the gate refused", rec.got)
			}
		})
	}
}

func findings(ds []diag.Diagnostic, code string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Code == code && d.Blocking() {
			out = append(out, d)
		}
	}
	return out
}

// TestNewRequiresCollaborators: no Writer can be built without the
// discipline re-check, the caller or the key log.
func TestNewRequiresCollaborators(t *testing.T) {
	rec, log := &recorder{}, &bytes.Buffer{}
	for i, c := range []struct {
		caller     Caller
		discipline DisciplineFunc
		log        io.Writer
	}{{nil, noDiscipline, log}, {rec, nil, log}, {rec, noDiscipline, nil}} {
		if _, err := New(c.caller, c.discipline, c.log); err == nil || !strings.Contains(err.Error(), "needs") {
			t.Errorf("case %d: New with a missing collaborator = %v", i, err)
		}
	}
}

// TestWritebackParsesIROnce: the package's ir.json is read and parsed once,
// by VerifyPackage; the discipline re-run, the recount and the gate judge
// that parse, so they judge exactly the bytes whose pin was verified. The
// discipline below deletes ir.json before checking: a re-read would find
// it missing (GAIA206) and refuse, and the gate would fail to read it.
func TestWritebackParsesIROnce(t *testing.T) {
	root, post := gateProject(t)
	irFile := filepath.Join(root, "argument-graphs", "example-idea-gaia", ".gaia", "ir.json")
	var seen *ir.Compiled
	discipline := func(dir string, c *ir.Compiled) ([]diag.Diagnostic, error) {
		seen = c
		if err := os.Remove(irFile); err != nil {
			return nil, err
		}
		ds, _, err := ir.CheckCompiled(dir, c, ir.CheckOptions{RequireIR: true, RequireBeliefs: true})
		return ds, err
	}
	rec := &recorder{resp: `{"jsonrpc":"2.0","id":"x","result":{"idempotency":{"is_replay":false}}}`}
	w, err := New(rec, discipline, &bytes.Buffer{})
	must(t, err)
	res, err := w.Run(context.Background(), writeOptions(t, root, post))
	if err != nil {
		t.Fatalf("writeback re-read ir.json after verifying its pin: %v", err)
	}
	if seen == nil || seen.Doc == nil || res.Package.Compiled != seen || res.Outcome.Exit != 0 || !slices.Contains(res.Gate.Ran, "tension-ir") {
		t.Fatalf("discipline saw %+v, package holds %+v, gate ran %v, outcome %+v", seen, res.Package.Compiled, res.Gate.Ran, res.Outcome)
	}

	// The gate judges the document it is given, reading nothing: a
	// tension/IR mismatch is found in it, with the file gone.
	gateTriggers["tension-ir"].mutate(t, root)
	loaded, err := gate.Load(gateInput(root))
	must(t, err)
	g, err := loaded.Run(root, &gate.IR{Path: irFile, Doc: seen.Doc})
	if err != nil {
		t.Fatalf("the gate read ir.json although given its document: %v", err)
	}
	if len(findings(g.Diagnostics, "PRIOR070")) == 0 {
		t.Fatalf("the gate did not check the document it was given: %v", g.Diagnostics)
	}
}
