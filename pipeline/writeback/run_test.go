package writeback

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is an in-process Caller that records the request and answers
// with a canned response.
type recorder struct {
	got  []byte
	resp string
	code int
}

func (r *recorder) Check() error { return nil }
func (r *recorder) Call(_ context.Context, req []byte) ([]byte, []byte, int, error) {
	r.got = req
	return []byte(r.resp), nil, r.code, nil
}

// copyTree copies the fixture project into dir.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// W1: the request shape, with refs derived from the validated files (W-2)
// and the declared posterior status sent (W-4).
func TestRunRequestShape(t *testing.T) {
	root, post := newPackage(t, nil)
	copyTree(t, "../../fixtures/prior/project", root)
	lit := filepath.Join(root, "artifacts", "literature")
	payloadBytes, _ := json.Marshal(map[string]any{"value": post.Value, "evidence_count": post.EvidenceCount, "gaia_package_ref": post.Ref, "connected_evidence_count": 2})
	rec := &recorder{resp: `{"jsonrpc":"2.0","id":"x","result":{"idempotency":{"is_replay":false}}}`}
	var stderr bytes.Buffer
	w, err := New(rec, noDiscipline, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Run(context.Background(), Options{
		Posterior: payloadBytes, PosteriorSource: "stdin", CampaignID: "c0ffee12", NodeID: "n0de0001",
		StoreRoot: filepath.Join(root, "idea-store"), Survey: filepath.Join(lit, "survey.json"),
		Matrix: filepath.Join(lit, "close_prior_matrix.json"), Report: filepath.Join(root, "artifacts", "posterior_report_v1.md"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome.Exit != 0 || !strings.HasPrefix(res.Key, "idea-posterior-") || !strings.Contains(stderr.String(), "using idempotency key "+res.Key) {
		t.Fatalf("%+v %s", res.Outcome, stderr.String())
	}
	var req map[string]any
	if err := json.Unmarshal(rec.got, &req); err != nil {
		t.Fatal(err)
	}
	params := req["params"].(map[string]any)
	p := params["posterior"].(map[string]any)
	cov := params["literature_coverage"].(map[string]any)
	if req["method"] != "node.set_posterior" || !filepath.IsAbs(req["store_root"].(string)) ||
		params["campaign_id"] != "c0ffee12" || params["node_id"] != "n0de0001" || params["idempotency_key"] != res.Key ||
		p["value"] != post.Value || p["evidence_count"] != float64(2) || p["gaia_package_ref"] != post.Ref || p["status"] != "current" ||
		len(p) != 4 || cov["status"] != "saturated" ||
		!strings.HasPrefix(cov["survey_ref"].(string), "project://artifacts/literature/survey.json#sha256:") ||
		!strings.HasPrefix(cov["close_prior_matrix_ref"].(string), "project://artifacts/literature/close_prior_matrix.json#sha256:") {
		t.Fatalf("request %s", rec.got)
	}
	if _, leaked := req["project_root"]; leaked {
		t.Fatal("project_root must never be sent")
	}
	// The derived key is the reference recipe over the payload.
	if want := DeriveKey("c0ffee12", "n0de0001", post.Ref, post.Value, 2); res.Key != want {
		t.Fatalf("key %s, want %s", res.Key, want)
	}
}
