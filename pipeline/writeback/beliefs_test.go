package writeback

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/diag"
)

// irDiscipline is the compiled-IR half of DefaultDiscipline (the half that
// judges beliefs.json), without the source scan the sample has no sources for.
func irDiscipline(dir string, c *ir.Compiled) ([]diag.Diagnostic, error) {
	ds, _, err := ir.CheckCompiled(dir, c, ir.CheckOptions{RequireIR: true, RequireBeliefs: true})
	return ds, err
}

// TestVerifyPackageReadsBeliefsOnce: .gaia/beliefs.json is read once per
// writeback, and the discipline re-run and the recount of value judge those
// same bytes. The discipline below rewrites beliefs.json in place (the same
// file) with another worth before it checks: a second read by either
// check would see 0.25 and refuse the payload's 0.8499…; one read judges
// the bytes as they were and accepts. A file replaced by another one
// between the read and the recount is refused, not judged.
func TestVerifyPackageReadsBeliefsOnce(t *testing.T) {
	root, p := newPackage(t, nil)
	bel := filepath.Join(root, "argument-graphs/example-idea-gaia/.gaia/beliefs.json")
	orig, err := os.ReadFile(bel)
	must(t, err)
	edited := strings.Replace(string(orig), "0.8499370175790979", "0.25", 1)
	if edited == string(orig) {
		t.Fatal("fixture changed: no worth belief 0.8499370175790979")
	}
	var seen *ir.Compiled
	rewrite := func(dir string, c *ir.Compiled) ([]diag.Diagnostic, error) {
		seen = c
		if err := os.WriteFile(bel, []byte(edited), 0o644); err != nil {
			return nil, err
		}
		return irDiscipline(dir, c)
	}
	pkg, err := VerifyPackage(root, p, bound, rewrite)
	if err != nil {
		t.Fatalf("writeback judged beliefs.json bytes other than the ones it read first: %v", err)
	}
	if seen == nil || seen.Beliefs == nil || string(seen.Beliefs.Src) != string(orig) || pkg.Compiled != seen {
		t.Fatalf("the discipline was not given the one read of beliefs.json: %+v", seen)
	}

	// The edited bytes, read once, are refused by the recount.
	must(t, os.WriteFile(bel, orig, 0o644))
	restore := func(dir string, c *ir.Compiled) ([]diag.Diagnostic, error) {
		must(t, os.WriteFile(bel, orig, 0o644))
		return irDiscipline(dir, c)
	}
	must(t, os.WriteFile(bel, []byte(edited), 0o644))
	_, err = VerifyPackage(root, p, bound, restore)
	wantRefusal(t, err, "value 0.8499370175790979 does not match the worth belief 0.25")

	// Replaced (renamed over) after the read: refused, whatever it holds.
	replace := func(dir string, c *ir.Compiled) ([]diag.Diagnostic, error) {
		tmp := bel + ".new"
		must(t, os.WriteFile(tmp, orig, 0o644))
		must(t, os.Rename(tmp, bel))
		return irDiscipline(dir, c)
	}
	_, err = VerifyPackage(root, p, bound, replace)
	wantRefusal(t, err, "beliefs.json was replaced while writeback read it; run again")
}

// TestVerifyPackageBeliefsRefusalOrder pins which refusal a bad
// beliefs.json gets when both the discipline re-run and the recount of
// value would refuse it: the discipline's, as before beliefs.json was read
// once; the recount's only where the discipline has nothing to say.
func TestVerifyPackageBeliefsRefusalOrder(t *testing.T) {
	sample, err := os.ReadFile("../../fixtures/ir/beliefs_sample.json")
	must(t, err)
	for _, tc := range []struct {
		name string
		make func(t *testing.T, bel string) // lays out beliefs.json at bel
		want string                         // the whole message, as before the one read
		code string                         // the refusal's rule
	}{
		{"missing", func(t *testing.T, bel string) { must(t, os.Remove(bel)) },
			"package argument-graphs/example-idea-gaia fails the discipline re-check with 1 error findings (suppressed ones count: a quarantined package is not writable); first: GAIA206 missing argument-graphs/example-idea-gaia/.gaia/beliefs.json; run the inference stages first (gaia build compile, gaia run infer)", "PRIOR111"},
		{"dangling link", func(t *testing.T, bel string) {
			must(t, os.Remove(bel))
			symlink(t, filepath.Join(filepath.Dir(bel), "gone.json"), bel)
		}, "package argument-graphs/example-idea-gaia fails the discipline re-check with 1 error findings (suppressed ones count: a quarantined package is not writable); first: GAIA206 missing argument-graphs/example-idea-gaia/.gaia/beliefs.json; run the inference stages first (gaia build compile, gaia run infer)", "PRIOR111"},
		{"not JSON", func(t *testing.T, bel string) { must(t, os.WriteFile(bel, []byte("{"), 0o644)) },
			"package argument-graphs/example-idea-gaia fails the discipline re-check with 1 error findings (suppressed ones count: a quarantined package is not writable); first: GAIA207 beliefs.json is not valid UTF-8 JSON: unexpected end of input inside an object (truncated file?)", "PRIOR111"},
		{"a directory", func(t *testing.T, bel string) {
			must(t, os.Remove(bel))
			must(t, os.Mkdir(bel, 0o755))
		}, "discipline re-check of argument-graphs/example-idea-gaia failed: argument-graphs/example-idea-gaia/.gaia/beliefs.json is a directory, not a regular file; nullius reads only regular files", "PRIOR111"},
		{"stale ir_hash and another worth", func(t *testing.T, bel string) {
			s := strings.Replace(string(sample), "0.8499370175790979", "0.25", 1)
			s = strings.Replace(s, "sha256:3f1c3f1c", "sha256:00000000", 1)
			must(t, os.WriteFile(bel, []byte(s), 0o644))
		}, "package argument-graphs/example-idea-gaia fails the discipline re-check with 1 error findings (suppressed ones count: a quarantined package is not writable); first: GAIA212 beliefs.json was computed for ir_hash 'sha256:000000003f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c' but argument-graphs/example-idea-gaia/.gaia/ir.json has ir_hash 'sha256:3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c3f1c'; re-run gaia run infer so the posterior value and the pin come from one compile", "PRIOR111"},
		{"linked from outside, invalid", func(t *testing.T, bel string) {
			out := filepath.Join(t.TempDir(), "beliefs.json")
			must(t, os.WriteFile(out, []byte("[1]"), 0o644))
			must(t, os.Remove(bel))
			symlink(t, out, bel)
		}, "package argument-graphs/example-idea-gaia fails the discipline re-check with 1 error findings (suppressed ones count: a quarantined package is not writable); first: GAIA207 beliefs.json is not a JSON object (found an array); re-run gaia run infer", "PRIOR111"},
		{"linked from outside, valid", func(t *testing.T, bel string) {
			out := filepath.Join(t.TempDir(), "beliefs.json")
			must(t, os.Rename(bel, out))
			symlink(t, out, bel)
		}, "cannot verify value: argument-graphs/example-idea-gaia/.gaia/beliefs.json is missing or escapes the package; re-run nullius extract", "PRIOR112"},
		{"no worth", func(t *testing.T, bel string) {
			must(t, os.WriteFile(bel, []byte(strings.Replace(string(sample), `"label": "worth"`, `"label": "wealth"`, 1)), 0o644))
		}, "cannot verify value: expected exactly one belief labelled 'worth', found 0. Labels present: ['downstream_reach', 'ev_cost', 'ev_tension', 'mechanism_insight', 'tension_resolution', 'testability_timing', 'verification_cost', 'wealth']. The top-level claim must be bound to a module variable named 'worth'.", "PRIOR112"},
		{"another worth", func(t *testing.T, bel string) {
			must(t, os.WriteFile(bel, []byte(strings.Replace(string(sample), "0.8499370175790979", "0.25", 1)), 0o644))
		}, "value 0.8499370175790979 does not match the worth belief 0.25 in .gaia/beliefs.json of the pinned package: the payload was edited by hand or comes from another extraction; re-extract instead of editing", "PRIOR112"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, p := newPackage(t, nil)
			t.Chdir(root)
			tc.make(t, filepath.Join(root, "argument-graphs/example-idea-gaia/.gaia/beliefs.json"))
			_, err := VerifyPackage(".", p, bound, irDiscipline)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("refusal\n%v\nwant\n%s", err, tc.want)
			}
			var rf *Refusal
			if !errors.As(err, &rf) || rf.Rule.Code != tc.code {
				t.Fatalf("refusal %v is not %s", err, tc.code)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks unsupported")
	}
}
