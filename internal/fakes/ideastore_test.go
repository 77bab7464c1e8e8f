package fakes

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const storeSeed = `{"campaigns": {"c0ffee12": {"status": "active", "nodes": {
  "n0de0001": {"node_id": "n0de0001", "revision": 1, "lifecycle_state": "candidate", "lifecycle_reason": null,
               "activation_condition": null, "posterior": null, "literature_coverage": null}}}}}`

// storeCall sends one request to the fake and returns its exit status and
// decoded response.
func storeCall(t *testing.T, state, method string, params map[string]any) (int, map[string]any) {
	t.Helper()
	req, _ := json.Marshal(map[string]any{"method": method, "store_root": "/s", "params": params})
	var out bytes.Buffer
	env := map[string]string{"FAKE_IDEA_STORE_STATE": state}
	code := ideaStore(bytes.NewReader(req), &out, func(k string) string { return env[k] })
	var resp map[string]any
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		t.Fatalf("response %q: %v", out.String(), err)
	}
	return code, resp
}

func reason(resp map[string]any) string {
	e, _ := resp["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	s, _ := d["reason"].(string)
	return s
}

func node(resp map[string]any) map[string]any {
	r, _ := resp["result"].(map[string]any)
	n, _ := r["node"].(map[string]any)
	return n
}

func posterior(key string, value float64, cov string) map[string]any {
	return map[string]any{"campaign_id": "c0ffee12", "node_id": "n0de0001", "idempotency_key": key,
		"posterior":           map[string]any{"value": value, "evidence_count": 2, "gaia_package_ref": "project://p#sha256:" + strings.Repeat("a", 64)},
		"literature_coverage": map[string]any{"status": cov, "survey_ref": "project://s", "close_prior_matrix_ref": "project://m"}}
}

func lifecycle(key, state string, extra ...any) map[string]any {
	m := map[string]any{"campaign_id": "c0ffee12", "node_id": "n0de0001", "idempotency_key": key, "lifecycle_state": state}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

func TestFakeIdeaStoreLifecycleAndIdempotency(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(state, []byte(storeSeed), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name, method string
		params       map[string]any
		exit         int
		reason       string
		lifecycle    string
		postStatus   string
	}{
		{"candidate cannot take a posterior", "node.set_posterior", posterior("k1", 0.8, "saturated"), 1, "posterior_write_lifecycle_invalid", "", ""},
		{"bad ids", "node.set_posterior", map[string]any{"campaign_id": "campaign-1", "node_id": "node-7", "idempotency_key": "k"}, 1, "schema_validation_failed", "", ""},
		{"candidate cannot be admitted", "node.set_lifecycle", lifecycle("l0", "admitted"), 1, "illegal_transition", "", ""},
		{"to admission_review", "node.set_lifecycle", lifecycle("l1", "admission_review"), 0, "", "admission_review", ""},
		{"metadata_only coverage refused", "node.set_posterior", posterior("k0", 0.8, "metadata_only"), 1, "schema_validation_failed", "", ""},
		{"saturated write admits", "node.set_posterior", posterior("k1", 0.8, "saturated"), 0, "", "admitted", "current"},
		{"same key same payload replays", "node.set_posterior", posterior("k1", 0.8, "saturated"), 0, "", "admitted", "current"},
		{"same key other payload conflicts", "node.set_posterior", posterior("k1", 0.7, "saturated"), 1, "idempotency_key_conflict", "", ""},
		{"blocked needs a condition", "node.set_lifecycle", lifecycle("l2", "admission_blocked"), 1, "activation_condition_required", "", ""},
		{"needs_refresh marks current stale", "node.set_lifecycle", lifecycle("l3", "needs_refresh"), 0, "", "needs_refresh", "stale"},
		{"no needs_refresh -> admitted edge", "node.set_lifecycle", lifecycle("l4", "admitted"), 1, "illegal_transition", "", ""},
		{"coverage_incomplete write is provisional", "node.set_posterior", posterior("k2", 0.6, "coverage_incomplete"), 0, "", "needs_refresh", "provisional"},
		{"archived needs a reason", "node.set_lifecycle", lifecycle("l5", "archived"), 1, "archived_reason_required", "", ""},
	}
	for _, s := range steps {
		code, resp := storeCall(t, state, s.method, s.params)
		if code != s.exit || reason(resp) != s.reason {
			t.Fatalf("%s: exit %d reason %q, want %d %q (%v)", s.name, code, reason(resp), s.exit, s.reason, resp)
		}
		if s.lifecycle != "" {
			n := node(resp)
			if n["lifecycle_state"] != s.lifecycle {
				t.Fatalf("%s: lifecycle %v, want %s", s.name, n["lifecycle_state"], s.lifecycle)
			}
			if s.postStatus != "" {
				if p, _ := n["posterior"].(map[string]any); p["status"] != s.postStatus {
					t.Fatalf("%s: posterior %v, want status %s", s.name, p, s.postStatus)
				}
			}
		}
		if s.name == "same key same payload replays" {
			idem := resp["result"].(map[string]any)["idempotency"].(map[string]any)
			if idem["is_replay"] != true {
				t.Fatalf("not a replay: %v", idem)
			}
		}
	}
}

func TestFakeIdeaStoreMalformedRequests(t *testing.T) {
	for in, want := range map[string]string{"": "invalid_request", "{": "parse_error", `{"method":"x"}`: "invalid_request"} {
		var out bytes.Buffer
		code := ideaStore(strings.NewReader(in), &out, func(string) string { return "" })
		if code != 1 || !strings.Contains(out.String(), want) {
			t.Errorf("%q: exit %d %s", in, code, out.String())
		}
	}
	var out bytes.Buffer
	if code := ideaStore(strings.NewReader("{}"), &out, func(k string) string { return map[string]string{"FAKE_IDEA_STORE_CRASH": "1"}[k] }); code != 3 || !strings.Contains(out.String(), "not json") {
		t.Errorf("crash mode: %d %q", code, out.String())
	}
}

// Without FAKE_IDEA_STORE_STATE the fake keeps the engine's files under the
// request's store_root, as `nullius demo` uses it.
func TestFakeIdeaStoreEngineLayout(t *testing.T) {
	root := t.TempDir()
	camp := filepath.Join(root, "campaigns", "c0ffee12")
	if err := os.MkdirAll(camp, 0o755); err != nil {
		t.Fatal(err)
	}
	seed := `{"n0de0001": {"node_id": "n0de0001", "revision": 1, "lifecycle_state": "candidate", "lifecycle_reason": null,
	  "activation_condition": null, "posterior": null, "literature_coverage": null}}`
	if err := os.WriteFile(filepath.Join(camp, "nodes_latest.json"), []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(method string, params map[string]any) (int, map[string]any) {
		t.Helper()
		req, _ := json.Marshal(map[string]any{"method": method, "store_root": root, "params": params})
		var out bytes.Buffer
		code := ideaStore(bytes.NewReader(req), &out, func(string) string { return "" })
		var resp map[string]any
		if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
			t.Fatalf("response %q: %v", out.String(), err)
		}
		return code, resp
	}
	if code, resp := call("node.set_lifecycle", lifecycle("l1", "admission_review")); code != 0 {
		t.Fatalf("set_lifecycle: %v", resp)
	}
	code, resp := call("node.set_posterior", posterior("k1", 0.8, "saturated"))
	if code != 0 || node(resp)["lifecycle_state"] != "admitted" {
		t.Fatalf("set_posterior: %d %v", code, resp)
	}
	if at, _ := node(resp)["updated_at"].(string); len(at) != len("2026-11-30T06:00:00.000Z") || !strings.HasSuffix(at, "Z") {
		t.Errorf("updated_at %q is not the engine's toISOString form", at)
	}
	var nodes map[string]map[string]any
	b, _ := os.ReadFile(filepath.Join(camp, "nodes_latest.json"))
	if err := json.Unmarshal(b, &nodes); err != nil || nodes["n0de0001"]["lifecycle_state"] != "admitted" {
		t.Fatalf("nodes_latest.json not updated (%v):\n%s", err, b)
	}
	var idem map[string]any
	b, _ = os.ReadFile(filepath.Join(camp, "idempotency_store.json"))
	if err := json.Unmarshal(b, &idem); err != nil || idem["node.set_posterior:k1"] == nil || idem["node.set_lifecycle:l1"] == nil {
		t.Fatalf("idempotency_store.json (%v):\n%s", err, b)
	}
	// A replay answers from the record and logs nothing.
	if code, resp := call("node.set_posterior", posterior("k1", 0.8, "saturated")); code != 0 ||
		resp["result"].(map[string]any)["idempotency"].(map[string]any)["is_replay"] != true {
		t.Fatalf("replay: %v", resp)
	}
	b, _ = os.ReadFile(filepath.Join(camp, "nodes_log.jsonl"))
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 2 ||
		!strings.Contains(lines[0], `"mutation":"set_lifecycle"`) || !strings.Contains(lines[1], `"mutation":"set_posterior"`) {
		t.Errorf("nodes_log.jsonl:\n%s", b)
	}
	// A completed campaign refuses; an unknown one is not found.
	os.WriteFile(filepath.Join(camp, "campaign.json"), []byte(`{"status": "completed"}`), 0o644)
	if _, resp := call("node.set_posterior", posterior("k2", 0.7, "saturated")); reason(resp) != "campaign_completed" {
		t.Errorf("completed campaign: %v", resp)
	}
	other := posterior("k3", 0.7, "saturated")
	other["campaign_id"] = "c0ffee13"
	if _, resp := call("node.set_posterior", other); reason(resp) != "campaign_not_found" {
		t.Errorf("unknown campaign: %v", resp)
	}
}
