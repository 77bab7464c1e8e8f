package fakes

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/lazy"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/internal/shortid"
)

// The fake idea store stands in for `node packages/idea-engine/bin/idea-rpc.mjs`
// (close-prior-and-writeback.md §3.5–3.7): one JSON request on stdin, one
// JSON-RPC response line on stdout, exit 1 iff the response is an error.
// It enforces the engine's params schema, idempotency (replay and conflict)
// and the lifecycle machine, so tests exercise refusals as well as writes.
//
// Environment:
//
//	FAKE_IDEA_STORE_STATE  a state file: {"campaigns": {cid: {"status", "nodes":
//	                       {nid: node}}}, "idempotency": {...}}, with a fixed
//	                       clock; unset, the fake keeps the engine's own files
//	                       under the request's store_root (engineLayout), the
//	                       mode of `nullius demo`
//	FAKE_IDEA_STORE_LOG    if set, every request received is appended to it as
//	                       one line, so a script can prove nothing was sent
//	FAKE_IDEA_STORE_CRASH  "1": print garbage and exit 3 (an infrastructure crash)
//	FAKE_IDEA_STORE_NOW    the timestamp written as updated_at (default fixed)

// IdeaStoreMain is the fake's entry point.
func IdeaStoreMain() {
	os.Exit(ideaStore(os.Stdin, os.Stdout, os.Getenv))
}

type storeState struct {
	Campaigns   map[string]*storeCampaign  `json:"campaigns"`
	Idempotency map[string]idempotencyItem `json:"idempotency"`
}

type storeCampaign struct {
	Status string                    `json:"status"`
	Nodes  map[string]map[string]any `json:"nodes"`
}

type idempotencyItem struct {
	PayloadHash string         `json:"payload_hash"`
	State       string         `json:"state"`
	Result      map[string]any `json:"result"`
}

// rpcError is an engine error: code, name and data.reason.
type rpcError struct {
	code int
	name string
	data map[string]any
}

func errData(code int, name, reason string, extra ...any) *rpcError {
	d := map[string]any{"reason": reason}
	for i := 0; i+1 < len(extra); i += 2 {
		d[extra[i].(string)] = extra[i+1]
	}
	return &rpcError{code: code, name: name, data: d}
}

func ideaStore(stdin io.Reader, stdout io.Writer, getenv func(string) string) int {
	raw, _ := io.ReadAll(stdin)
	if p := getenv("FAKE_IDEA_STORE_LOG"); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.TrimSpace(string(raw)))
			f.Close()
		}
	}
	if getenv("FAKE_IDEA_STORE_CRASH") == "1" {
		fmt.Fprintln(stdout, "not json at all")
		return 3
	}
	respond := func(id any, result map[string]any, e *rpcError) int {
		out := map[string]any{"jsonrpc": "2.0", "id": id}
		if e != nil {
			out["error"] = map[string]any{"code": e.code, "message": e.name, "data": e.data}
		} else {
			out["result"] = result
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(stdout, string(b))
		if e != nil {
			return 1
		}
		return 0
	}
	var req map[string]any
	if err := json.Unmarshal(raw, &req); err != nil {
		if len(strings.TrimSpace(string(raw))) == 0 {
			return respond(nil, nil, errData(-32600, "invalid_request", "empty request"))
		}
		return respond(nil, nil, errData(-32700, "parse_error", err.Error()))
	}
	method, _ := req["method"].(string)
	if method == "" || req["store_root"] == nil {
		return respond(nil, nil, errData(-32600, "invalid_request", "method and store_root are required"))
	}
	id := "00000000-0000-4000-8000-000000000001"
	params, _ := req["params"].(map[string]any)
	var store storeFiles
	if statePath := getenv("FAKE_IDEA_STORE_STATE"); statePath != "" {
		store = &stateFile{path: statePath}
	} else {
		root, _ := req["store_root"].(string)
		cid := str(params["campaign_id"])
		if !matchproto.ShortIDRE.MatchString(cid) {
			return respond(id, nil, errData(-32002, "schema_validation_failed", "schema_validation_failed",
				"details", "campaign_id and node_id must match "+shortid.Pattern))
		}
		l := &engineLayout{root: root, cid: cid}
		if err := l.lock(); err != nil {
			return respond(id, nil, errData(-32603, "internal_error", err.Error()))
		}
		defer l.unlock()
		store = l
	}
	st, err := store.load()
	if err != nil {
		return respond(id, nil, errData(-32603, "internal_error", "cannot load store state: "+err.Error()))
	}
	if st.Idempotency == nil {
		st.Idempotency = map[string]idempotencyItem{}
	}
	now := getenv("FAKE_IDEA_STORE_NOW")
	if now == "" {
		now = store.now()
	}
	var (
		result map[string]any
		rerr   *rpcError
	)
	switch method {
	case "node.set_posterior":
		result, rerr = setPosterior(st, params, now)
	case "node.set_lifecycle":
		result, rerr = setLifecycle(st, params, now)
	default:
		rerr = errData(-32601, "method_not_found", "unknown method "+method)
	}
	if rerr == nil {
		if err := store.save(st, method, params, result); err != nil {
			return respond(id, nil, errData(-32603, "internal_error", err.Error()))
		}
	}
	return respond(id, result, rerr)
}

// storeFiles is where the fake keeps its state: one state file for tests
// (FAKE_IDEA_STORE_STATE), or the engine's own files under store_root.
type storeFiles interface {
	load() (*storeState, error)
	save(st *storeState, method string, params, result map[string]any) error
	now() string
}

// stateFile is the tests' single state file, with a fixed clock.
type stateFile struct{ path string }

func (f *stateFile) load() (*storeState, error) {
	var st storeState
	b, err := readlimit.ReadFile(f.path, readlimit.JSON)
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	return &st, err
}

func (f *stateFile) save(st *storeState, _ string, _, _ map[string]any) error {
	nb, _ := json.MarshalIndent(st, "", "  ")
	return atomicfile.WriteFile(f.path, append(nb, '\n'), 0o644)
}

func (f *stateFile) now() string { return "2026-11-30T06:00:00Z" }

// engineLayout keeps the engine's files (close-prior-and-writeback.md
// §1.9): <store_root>/campaigns/<cid>/nodes_latest.json (node_id -> node),
// nodes_log.jsonl (one line per mutation), idempotency_store.json, and an
// optional campaign.json whose "status" says whether the campaign is
// active. A campaign exists when its nodes_latest.json does. The clock is
// the real one, in the engine's toISOString form.
type engineLayout struct {
	root, cid string
	held      *lockfile.Lock
}

func (l *engineLayout) dir() string { return filepath.Join(l.root, "campaigns", l.cid) }

// lock holds the campaign directory while the request runs (the engine's
// campaign mutation lock).
func (l *engineLayout) lock() error {
	if _, err := os.Stat(l.dir()); err != nil {
		return nil // no campaign: nothing to lock; load reports campaign_not_found
	}
	lk, err := lockfile.Acquire(l.dir(), lockfile.Wait())
	l.held = lk
	return err
}

func (l *engineLayout) unlock() {
	if l.held != nil {
		l.held.Release()
	}
}

func (l *engineLayout) load() (*storeState, error) {
	st := &storeState{Campaigns: map[string]*storeCampaign{}, Idempotency: map[string]idempotencyItem{}}
	b, err := readlimit.ReadFile(filepath.Join(l.dir(), "nodes_latest.json"), readlimit.JSON)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil // campaign_not_found, from lookupNode
	}
	if err != nil {
		return nil, err
	}
	c := &storeCampaign{Status: "active"}
	if err := json.Unmarshal(b, &c.Nodes); err != nil {
		return nil, fmt.Errorf("nodes_latest.json: %v", err)
	}
	if b, err := readlimit.ReadFile(filepath.Join(l.dir(), "campaign.json"), readlimit.JSON); err == nil {
		var meta struct {
			Status string `json:"status"`
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			return nil, fmt.Errorf("campaign.json: %v", err)
		}
		if meta.Status != "" {
			c.Status = meta.Status
		}
	}
	st.Campaigns[l.cid] = c
	b, err = readlimit.ReadFile(filepath.Join(l.dir(), "idempotency_store.json"), readlimit.JSON)
	if err == nil {
		recs := map[string]idempotencyItem{}
		if err := json.Unmarshal(b, &recs); err != nil {
			return nil, fmt.Errorf("idempotency_store.json: %v", err)
		}
		for k, v := range recs { // "<method>:<key>" on disk
			method, key, _ := strings.Cut(k, ":")
			st.Idempotency[method+":"+l.cid+":"+key] = v
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return st, nil
}

// save writes the engine's files in its order: idempotency record, nodes,
// log line.
func (l *engineLayout) save(st *storeState, method string, params, result map[string]any) error {
	recs := map[string]idempotencyItem{}
	for k, v := range st.Idempotency { // "<method>:<campaign>:<key>" in memory
		if parts := strings.SplitN(k, ":", 3); len(parts) == 3 && parts[1] == l.cid {
			recs[parts[0]+":"+parts[2]] = v
		}
	}
	b, _ := json.MarshalIndent(recs, "", "  ")
	if err := atomicfile.WriteFile(filepath.Join(l.dir(), "idempotency_store.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	b, _ = json.MarshalIndent(st.Campaigns[l.cid].Nodes, "", "  ")
	if err := atomicfile.WriteFile(filepath.Join(l.dir(), "nodes_latest.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	idem, _ := result["idempotency"].(map[string]any)
	if idem["is_replay"] == true {
		return nil
	}
	node, _ := result["node"].(map[string]any)
	line, _ := json.Marshal(map[string]any{"mutation": strings.TrimPrefix(method, "node."), "node_id": params["node_id"],
		"revision": node["revision"], "node": node})
	f, err := os.OpenFile(filepath.Join(l.dir(), "nodes_log.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (l *engineLayout) now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// payloadHash is sha256 of the canonical params without the key (Go's
// sorted-key JSON stands in for the engine's JCS).
func payloadHash(params map[string]any) string {
	c := map[string]any{}
	for k, v := range params {
		if k != "idempotency_key" {
			c[k] = v
		}
	}
	b, _ := json.Marshal(c)
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// idempotent runs the lookup of §3.6 step 3; a non-nil result is a replay.
func idempotent(st *storeState, method, cid, key, hash string) (map[string]any, *rpcError) {
	item, ok := st.Idempotency[method+":"+cid+":"+key]
	if !ok {
		return nil, nil
	}
	if item.PayloadHash != hash {
		return nil, errData(-32002, "schema_validation_failed", "idempotency_key_conflict",
			"idempotency_key", key, "payload_hash", hash, "details", map[string]any{"stored_payload_hash": item.PayloadHash})
	}
	res := cloneMap(item.Result)
	res["idempotency"] = map[string]any{"idempotency_key": key, "is_replay": true, "payload_hash": hash}
	return res, nil
}

func cloneMap(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// lookupNode runs the campaign and node checks of §3.6 step 4.
func lookupNode(st *storeState, cid, nid string) (map[string]any, *rpcError) {
	c, ok := st.Campaigns[cid]
	if !ok {
		return nil, errData(-32003, "campaign_not_found", "campaign_not_found", "campaign_id", cid)
	}
	if c.Status == "completed" {
		return nil, errData(-32015, "campaign_not_active", "campaign_completed", "campaign_id", cid)
	}
	n, ok := c.Nodes[nid]
	if !ok {
		return nil, errData(-32004, "node_not_found", "node_not_found", "campaign_id", cid, "node_id", nid)
	}
	if _, known := lifecycleNext.Get()[str(n["lifecycle_state"])]; !known {
		return nil, errData(-32018, "lifecycle_transition_invalid", "unknown_lifecycle_state", "node_id", nid)
	}
	return n, nil
}

func str(v any) string { s, _ := v.(string); return s }

func commonIDs(params map[string]any) (cid, nid, key string, e *rpcError) {
	cid, nid, key = str(params["campaign_id"]), str(params["node_id"]), str(params["idempotency_key"])
	if !matchproto.ShortIDRE.MatchString(cid) || !matchproto.ShortIDRE.MatchString(nid) {
		return "", "", "", errData(-32002, "schema_validation_failed", "schema_validation_failed",
			"details", "campaign_id and node_id must match "+shortid.Pattern)
	}
	if key == "" {
		return "", "", "", errData(-32002, "schema_validation_failed", "schema_validation_failed", "details", "idempotency_key is required")
	}
	return cid, nid, key, nil
}

var postStatuses = []string{"current", "provisional", "stale"}

func setPosterior(st *storeState, params map[string]any, now string) (map[string]any, *rpcError) {
	cid, nid, key, e := commonIDs(params)
	if e != nil {
		return nil, e
	}
	post, ok1 := params["posterior"].(map[string]any)
	cov, ok2 := params["literature_coverage"].(map[string]any)
	schema := func(detail string) *rpcError {
		return errData(-32002, "schema_validation_failed", "schema_validation_failed", "details", detail)
	}
	if !ok1 || !ok2 {
		return nil, schema("posterior and literature_coverage objects are required")
	}
	for k := range post {
		if !slices.Contains([]string{"value", "evidence_count", "gaia_package_ref", "status"}, k) {
			return nil, schema("posterior has unexpected property " + k)
		}
	}
	v, ok := post["value"].(float64)
	if !ok || v < 0 || v > 1 {
		return nil, schema("posterior.value must be a number in [0, 1]")
	}
	if n, ok := post["evidence_count"].(float64); !ok || n < 0 || n != float64(int64(n)) {
		return nil, schema("posterior.evidence_count must be a non-negative integer")
	}
	if r, ok := post["gaia_package_ref"]; ok && !strings.Contains(str(r), "://") {
		return nil, schema("posterior.gaia_package_ref must be a uri")
	}
	if s, ok := post["status"]; ok && !slices.Contains(postStatuses, str(s)) {
		return nil, schema("posterior.status must be current, provisional or stale")
	}
	for k := range cov {
		if !slices.Contains([]string{"status", "survey_ref", "close_prior_matrix_ref", "exploratory_allocation"}, k) {
			return nil, schema("literature_coverage has unexpected property " + k)
		}
	}
	cs := str(cov["status"])
	if cs != "saturated" && cs != "coverage_incomplete" {
		return nil, schema("literature_coverage.status must be saturated or coverage_incomplete")
	}
	if str(cov["survey_ref"]) == "" || str(cov["close_prior_matrix_ref"]) == "" {
		return nil, schema("literature_coverage requires survey_ref and close_prior_matrix_ref")
	}
	if x, ok := cov["exploratory_allocation"]; ok {
		if _, isBool := x.(bool); !isBool {
			return nil, schema("literature_coverage.exploratory_allocation must be boolean")
		}
	}
	hash := payloadHash(params)
	if res, e := idempotent(st, "node.set_posterior", cid, key, hash); res != nil || e != nil {
		return res, e
	}
	node, e := lookupNode(st, cid, nid)
	if e != nil {
		return nil, e
	}
	allowed := []any{"admission_review", "admitted", "needs_refresh"}
	cur := str(node["lifecycle_state"])
	if !slices.Contains(allowed, any(cur)) {
		hint := ""
		if cur == "candidate" {
			hint = "move the node to admission_review with node.set_lifecycle before writing a posterior"
		}
		return nil, errData(-32018, "lifecycle_transition_invalid", "posterior_write_lifecycle_invalid",
			"node_id", nid, "details", map[string]any{"current_state": cur, "allowed_states": allowed, "hint": hint})
	}
	exploratory := cov["exploratory_allocation"] == true
	status := str(post["status"])
	supported := cs == "saturated" || exploratory
	switch {
	case status == "":
		status = "provisional"
		if supported {
			status = "current"
		}
	case status == "current" && !supported:
		return nil, errData(-32002, "schema_validation_failed", "posterior_status_not_supported_by_coverage", "node_id", nid)
	}
	stored := map[string]any{"value": post["value"], "evidence_count": post["evidence_count"], "updated_at": now, "status": status}
	if r, ok := post["gaia_package_ref"]; ok {
		stored["gaia_package_ref"] = r
	}
	node["posterior"] = stored
	node["literature_coverage"] = cov
	next := "needs_refresh"
	if status == "current" {
		next = "admitted"
	}
	if next != cur {
		node["lifecycle_state"] = next
		node["lifecycle_reason"] = "posterior_status=" + status
	}
	node["revision"] = revision(node) + 1
	node["updated_at"] = now
	res := map[string]any{"campaign_id": cid, "node": node,
		"idempotency": map[string]any{"idempotency_key": key, "is_replay": false, "payload_hash": hash}}
	st.Idempotency["node.set_posterior:"+cid+":"+key] = idempotencyItem{PayloadHash: hash, State: "committed", Result: cloneMap(res)}
	return res, nil
}

func revision(n map[string]any) int {
	f, _ := n["revision"].(float64)
	return int(f)
}

// lifecycleNext is LIFECYCLE_TRANSITIONS of node-shared.ts (§3.7).
// It is built on first use, not at every process start (issue 15).
var lifecycleNext = lazy.New(buildLifecycleNext)

// buildLifecycleNext builds lifecycleNext on first use.
func buildLifecycleNext() map[string][]string {
	return map[string][]string{
		"candidate":          {"admission_review", "admission_blocked", "waiting_activation", "archived"},
		"admission_review":   {"candidate", "admitted", "needs_refresh", "admission_blocked", "waiting_activation", "archived"},
		"admitted":           {"needs_refresh", "admission_blocked", "waiting_activation", "archived"},
		"needs_refresh":      {"admission_blocked", "waiting_activation", "archived"},
		"admission_blocked":  {"admission_review", "admission_blocked", "waiting_activation", "archived"},
		"waiting_activation": {"candidate", "admission_review", "admitted", "needs_refresh", "admission_blocked", "waiting_activation", "archived"},
		"archived":           {"candidate", "needs_refresh"},
	}
}

func setLifecycle(st *storeState, params map[string]any, now string) (map[string]any, *rpcError) {
	cid, nid, key, e := commonIDs(params)
	if e != nil {
		return nil, e
	}
	hash := payloadHash(params)
	if res, e := idempotent(st, "node.set_lifecycle", cid, key, hash); res != nil || e != nil {
		return res, e
	}
	target := str(params["lifecycle_state"])
	cond, hasCond := params["activation_condition"]
	hasCond = hasCond && cond != nil
	bad := func(reason string) *rpcError {
		return errData(-32002, "schema_validation_failed", reason, "node_id", nid)
	}
	switch {
	case (target == "waiting_activation" || target == "admission_blocked") && !hasCond:
		return nil, bad("activation_condition_required")
	case target != "waiting_activation" && target != "admission_blocked" && hasCond:
		return nil, bad("activation_condition_unexpected")
	case target == "archived" && strings.TrimSpace(str(params["reason"])) == "":
		return nil, bad("archived_reason_required")
	}
	node, e := lookupNode(st, cid, nid)
	if e != nil {
		return nil, e
	}
	cur := str(node["lifecycle_state"])
	if !slices.Contains(lifecycleNext.Get()[cur], target) {
		return nil, errData(-32018, "lifecycle_transition_invalid", "illegal_transition", "node_id", nid,
			"details", map[string]any{"current_state": cur, "requested_state": target, "allowed_next": lifecycleNext.Get()[cur]})
	}
	post, _ := node["posterior"].(map[string]any)
	pre := func(req string) *rpcError {
		return errData(-32018, "lifecycle_transition_invalid", "entry_precondition_failed", "node_id", nid, "details", map[string]any{"requirement": req})
	}
	switch target {
	case "candidate":
		if post != nil {
			return nil, pre("posterior_must_be_null")
		}
	case "needs_refresh":
		if post == nil {
			return nil, pre("posterior_required")
		}
	case "admitted":
		cov, _ := node["literature_coverage"].(map[string]any)
		switch {
		case post == nil:
			return nil, pre("posterior_required")
		case str(post["status"]) != "current":
			return nil, pre("posterior_status_current_required")
		case cov == nil || str(cov["survey_ref"]) == "" || str(cov["close_prior_matrix_ref"]) == "" ||
			!(str(cov["status"]) == "saturated" || (str(cov["status"]) == "coverage_incomplete" && cov["exploratory_allocation"] == true)):
			return nil, pre("coverage_not_scoring_eligible")
		}
	}
	node["lifecycle_state"] = target
	if r := str(params["reason"]); r != "" {
		node["lifecycle_reason"] = r
	} else {
		node["lifecycle_reason"] = nil
	}
	if hasCond {
		node["activation_condition"] = cond
	} else {
		node["activation_condition"] = nil
	}
	if (target == "needs_refresh" || target == "admission_blocked" || target == "archived") && post != nil && str(post["status"]) == "current" {
		post["status"] = "stale"
	}
	node["revision"] = revision(node) + 1
	node["updated_at"] = now
	res := map[string]any{"campaign_id": cid, "node": node,
		"idempotency": map[string]any{"idempotency_key": key, "is_replay": false, "payload_hash": hash}}
	st.Idempotency["node.set_lifecycle:"+cid+":"+key] = idempotencyItem{PayloadHash: hash, State: "committed", Result: cloneMap(res)}
	return res, nil
}
