package writeback

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/validators/prior"
)

// newPackage lays out <root>/argument-graphs/example-idea-gaia with the
// reference's sample IR and beliefs and returns the root and a payload
// pinned to it.
func newPackage(t *testing.T, irBytes []byte) (string, *Posterior) {
	t.Helper()
	root := t.TempDir()
	pkg := filepath.Join(root, "argument-graphs", "example-idea-gaia", ".gaia")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if irBytes == nil {
		var err error
		if irBytes, err = os.ReadFile("../../fixtures/ir/ir_sample.json"); err != nil {
			t.Fatal(err)
		}
	}
	bel, err := os.ReadFile("../../fixtures/ir/beliefs_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(pkg, "..", "pyproject.toml"), []byte(boundPyproject), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "ir.json"), irBytes, 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "beliefs.json"), bel, 0o644))
	ref := "project://argument-graphs/example-idea-gaia#" + prior.PinBytes(irBytes)
	p, err := ValidatePosterior([]byte(`{"value": 0.8499370175790979, "evidence_count": 2, "gaia_package_ref": "` + ref + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	return root, p
}

// bound is the idea the test package is bound to.
var bound = binding.Binding{CampaignID: "c0ffee12", NodeID: "n0de0001"}

const boundPyproject = "[project]\nname = \"example-idea-gaia\"\n\n[tool.nullius]\ncampaign-id = \"c0ffee12\"\nnode-id = \"n0de0001\"\n"

// noDiscipline stands in for the discipline re-run where a test is about
// another step; it finds nothing.
func noDiscipline(string, *ir.Compiled) ([]diag.Diagnostic, error) { return nil, nil }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantRefusal(t *testing.T, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a refusal containing %q, got none", fragments)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("refusal %q lacks %q", err, f)
		}
	}
}

func TestVerifyPackageAcceptsPinnedSample(t *testing.T) {
	root, p := newPackage(t, nil)
	if _, err := VerifyPackage(root, p, bound, noDiscipline); err != nil {
		t.Fatal(err)
	}
}

// W17: a non-object ir.json is a clean refusal.
func TestVerifyPackageNonObjectIR(t *testing.T) {
	root, p := newPackage(t, []byte(`"not an object"`))
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "not a JSON object")
}

// W18: a ref with no package on disk.
func TestVerifyPackageMissing(t *testing.T) {
	root, p := newPackage(t, nil)
	p.RelPath = "argument-graphs/other-gaia"
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "does not resolve", "run_infer_and_extract.py")
}

// W19: a package directory that is a symlink out of the root.
func TestVerifyPackageSymlinkEscape(t *testing.T) {
	root, p := newPackage(t, nil)
	outside := t.TempDir()
	must(t, os.Rename(filepath.Join(root, "argument-graphs", "example-idea-gaia"), filepath.Join(outside, "pkg")))
	if err := os.Symlink(filepath.Join(outside, "pkg"), filepath.Join(root, "argument-graphs", "example-idea-gaia")); err != nil {
		t.Skip("symlinks unsupported")
	}
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "escapes")
}

// W21: the on-disk IR differs from the pinned bytes.
func TestVerifyPackageStalePin(t *testing.T) {
	root, p := newPackage(t, nil)
	p.Pin = "sha256:" + strings.Repeat("e", 64)
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "does not match the package's current compiled state")
}

// W22: worth not exported, correctly pinned.
func TestVerifyPackageUnexportedWorth(t *testing.T) {
	b, _ := os.ReadFile("../../fixtures/ir/ir_sample.json")
	b = []byte(strings.Replace(string(b), `"exported": true`, `"exported": false`, 1))
	root, p := newPackage(t, b)
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, `__all__ = ["worth"]`, "re-run run_infer_and_extract.py")
}

// W-1: value and evidence_count are recomputed from the pinned package.
func TestVerifyPackageRecomputesNumbers(t *testing.T) {
	root, p := newPackage(t, nil)
	p.Value = 0.99
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "value 0.99 does not match the worth belief 0.8499370175790979")
	p.Value, p.EvidenceCount = 0.8499370175790979, 50
	_, err = VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "evidence_count 50 does not match the 2 observations")
	must(t, os.Remove(filepath.Join(root, "argument-graphs/example-idea-gaia/.gaia/beliefs.json")))
	p.EvidenceCount = 2
	_, err = VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "beliefs.json is missing")
}

// gaia-discipline W7: the quarantine sidecar bound to these bytes refuses,
// and so does any error the discipline re-run finds, suppressed or not.
func TestVerifyPackageQuarantine(t *testing.T) {
	root, p := newPackage(t, nil)
	side := filepath.Join(root, "argument-graphs/example-idea-gaia/.gaia/discipline.json")
	must(t, os.WriteFile(side, []byte(`{"version":1,"tool":"nullius","ir_pin":"`+p.Pin+`","exploration_only":true,"findings":[]}`), 0o644))
	_, err := VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "quarantined", "exploration_only")
	// A sidecar for other bytes defers to the re-run.
	must(t, os.WriteFile(side, []byte(`{"version":1,"tool":"nullius","ir_pin":"sha256:`+strings.Repeat("0", 64)+`","exploration_only":true,"findings":[]}`), 0o644))
	if _, err := VerifyPackage(root, p, bound, noDiscipline); err != nil {
		t.Fatalf("stale sidecar should defer to the re-run: %v", err)
	}
	suppressed := func(string, *ir.Compiled) ([]diag.Diagnostic, error) {
		return []diag.Diagnostic{{Code: "GAIA011", Severity: diag.Error, Suppressed: true, Message: "off-grade pair"}}, nil
	}
	_, err = VerifyPackage(root, p, bound, suppressed)
	wantRefusal(t, err, "fails the discipline re-check", "GAIA011")
	warnOnly := func(string, *ir.Compiled) ([]diag.Diagnostic, error) {
		return []diag.Diagnostic{{Code: "GAIA901", Severity: diag.Warning, Message: "review flag"}}, nil
	}
	if _, err := VerifyPackage(root, p, bound, warnOnly); err != nil {
		t.Fatalf("warnings must not block: %v", err)
	}
}

// §3.8 response table: W5, W6, W11 and the rest, in the reference's order.
func TestInterpret(t *testing.T) {
	for _, tc := range []struct {
		name   string
		out    string
		code   int
		err    error
		exit   int
		replay bool
		want   string
	}{
		{"W5 store error", `{"jsonrpc":"2.0","error":{"code":-32000,"message":"store rejected write"}}`, 1, nil, 1, false, "store rejected the write"},
		{"error wins over exit 0", `{"error":{"code":-32002}}`, 0, nil, 1, false, "store rejected"},
		{"W6 crash", "not json at all", 3, nil, 2, false, "RPC caller exited 3"},
		{"not JSON", "[1]", 0, nil, 2, false, "did not return JSON"},
		{"could not run", "", -1, os.ErrNotExist, 2, false, "could not run the RPC caller"},
		{"W11 replay", `{"result":{"idempotency":{"is_replay":true}}}`, 0, nil, 0, true, "REPLAYED"},
		{"written", `{"result":{"idempotency":{"is_replay":false}}}`, 0, nil, 0, false, "posterior written (idempotency key k)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Interpret([]byte(tc.out), nil, tc.code, tc.err, "k")
			if o.Exit != tc.exit || o.Replay != tc.replay || !strings.Contains(o.Message, tc.want) {
				t.Fatalf("%+v", o)
			}
			if tc.replay && (!strings.Contains(o.Message, "--new-write") || strings.Contains(o.Message, "posterior written")) {
				t.Fatalf("replay message %q", o.Message)
			}
		})
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string]string{
		`node /repo/packages/idea-engine/bin/idea-rpc.mjs`: "node|/repo/packages/idea-engine/bin/idea-rpc.mjs",
		`node "/my repo/idea-rpc.mjs" --x`:                 "node|/my repo/idea-rpc.mjs|--x",
		`a\ b 'c d'`:                                       "a b|c d",
	} {
		got, err := SplitCommand(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("SplitCommand(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "   ", `node "unterminated`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) accepted", bad)
		}
	}
}

// W20: two observations of one evidence family reaching worth on separate
// paths are refused by the discipline re-run (the IR checks of analyzers/ir).
func TestVerifyPackageRefusesReusedEvidenceFamily(t *testing.T) {
	b, _ := os.ReadFile("../../fixtures/ir/ir_sample.json")
	b = []byte(strings.Replace(string(b), "evidence_family: scope-limitation;", "evidence_family: executed-check;", 1))
	if !strings.Contains(string(b), "evidence_family: executed-check;") || strings.Contains(string(b), "scope-limitation;") {
		t.Fatal("fixture changed: no scope-limitation family to reuse")
	}
	root, p := newPackage(t, b)
	irOnly := func(dir string, c *ir.Compiled) ([]diag.Diagnostic, error) {
		ds, _, err := ir.CheckCompiled(dir, c, ir.CheckOptions{RequireIR: true, RequireBeliefs: true})
		return ds, err
	}
	_, err := VerifyPackage(root, p, bound, irOnly)
	wantRefusal(t, err, "fails the discipline re-check")
	var rf *Refusal
	if !errors.As(err, &rf) || !strings.Contains(messagesOf(rf.Diags), "executed-check") {
		t.Fatalf("refusal does not name the reused family: %v", err)
	}
}

func messagesOf(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Code + " " + d.Message + "\n")
	}
	return b.String()
}

func TestLifecycleGuidance(t *testing.T) {
	res := map[string]any{"node": map[string]any{"node_id": "n0de0001", "lifecycle_state": "needs_refresh",
		"posterior": map[string]any{"status": "provisional"}}}
	if g := LifecycleGuidance(res); !strings.Contains(g, "node n0de0001 is now needs_refresh (posterior provisional): not allocation-eligible") {
		t.Fatalf("%q", g)
	}
	o := Interpret([]byte(`{"result":{"idempotency":{"is_replay":false},"node":{"node_id":"n0de0001","lifecycle_state":"admitted","posterior":{"status":"current"}}}}`), nil, 0, nil, "k")
	if !strings.Contains(o.Message, "posterior written") || !strings.Contains(o.Message, "is now admitted") {
		t.Fatalf("%q", o.Message)
	}
}

// Issue 12: the package must be bound to the idea the write names, and its
// extraction record must name the same idea.
func TestVerifyPackageBinding(t *testing.T) {
	root, p := newPackage(t, nil)
	pkg := filepath.Join(root, "argument-graphs", "example-idea-gaia")
	py := filepath.Join(pkg, "pyproject.toml")
	other := binding.Binding{CampaignID: "c0ffee12", NodeID: "n0de0002"}
	_, err := VerifyPackage(root, p, other, noDiscipline)
	wantRefusal(t, err, "--campaign-id c0ffee12 --node-id n0de0002 do not match the package", "bound to campaign-id c0ffee12, node-id n0de0001",
		"pass --campaign-id c0ffee12 --node-id n0de0001", "nullius bind --package", "--force")

	must(t, os.WriteFile(py, []byte("[project]\nname = \"x\"\n"), 0o644))
	_, err = VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "is not bound to an idea", "node n0de0001 of campaign c0ffee12",
		"nullius bind --package", "--campaign-id c0ffee12 --node-id n0de0001")

	must(t, os.WriteFile(py, []byte("[tool.nullius]\nnode-id = \"n0de0001\"\n"), 0o644))
	_, err = VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "is not bound to an idea")

	must(t, os.WriteFile(py, []byte("[tool.nullius]\nnode-id = 1\ncampaign-id = \"c0ffee12\"\n"), 0o644))
	_, err = VerifyPackage(root, p, bound, noDiscipline)
	wantRefusal(t, err, "binding to its idea is unusable", "node-id must be a string")

	// The extraction record for these bytes names the idea it was
	// extracted for; a rebind after extraction is refused.
	must(t, os.WriteFile(py, []byte(boundPyproject), 0o644))
	side := filepath.Join(pkg, ".gaia", "discipline.json")
	for _, tc := range []struct{ binding, want string }{
		{`null`, "was extracted while it was unbound"},
		{`{"campaign_id": "c0ffee12", "node_id": "n0de0002"}`, "was extracted for campaign-id c0ffee12, node-id n0de0002"},
	} {
		must(t, os.WriteFile(side, []byte(`{"version":1,"tool":"nullius","ir_pin":"`+p.Pin+`","exploration_only":false,"findings":[],"binding":`+tc.binding+`}`), 0o644))
		_, err = VerifyPackage(root, p, bound, noDiscipline)
		wantRefusal(t, err, tc.want, "re-run nullius extract")
	}
	must(t, os.WriteFile(side, []byte(`{"version":1,"tool":"nullius","ir_pin":"`+p.Pin+`","exploration_only":false,"findings":[],"binding":{"campaign_id":"c0ffee12","node_id":"n0de0001"}}`), 0o644))
	if _, err := VerifyPackage(root, p, bound, noDiscipline); err != nil {
		t.Fatalf("a record naming the bound idea: %v", err)
	}
	if _, err := VerifyPackage(root, p, bound, nil); err == nil {
		t.Fatal("a nil discipline check must refuse, not skip")
	}
}
