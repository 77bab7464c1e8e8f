// Package writeback is the gated road from an extracted posterior to the
// idea store (close-prior-and-writeback.md §3): the preflight in the
// reference's order, then one node.set_posterior request through the idea
// store's RPC program. Every step fails closed before anything is sent.
//
// Beyond the reference (§7) it re-runs the discipline on the package it is
// about to write and refuses quarantined or exploration-only packages even
// without the `exploration-only:` prefix (gaia-discipline.md W7), recomputes
// value and evidence_count from the pinned package (W-1), and sends
// survey_ref and close_prior_matrix_ref pinned to the files the gate
// validated (W-2).
package writeback

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/pipeline/extract"
)

var (
	packageRefRE = lazyre.New(`^project://[^\s#/][^\s#]*#sha256:[0-9a-f]{64}$`)
	refCharsetRE = lazyre.New(`^[A-Za-z0-9._~%/-]+$`)
	intRE        = lazyre.New(`^-?[0-9]+$`)
)

// Posterior is a validated extraction payload.
type Posterior struct {
	Value         float64
	EvidenceCount int64
	Ref           string // gaia_package_ref
	RelPath       string // decoded project-relative package path
	Pin           string // "sha256:<hex>"
}

// ValidatePosterior checks the payload in the reference's order (§3.2 step
// 3) and keeps exactly the three fields. Unlike the reference (W-22) a JSON
// scalar is a clean refusal, not a crash.
func ValidatePosterior(src []byte) (*Posterior, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("not valid JSON: trailing data after the object")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a JSON object {value, evidence_count, gaia_package_ref}, got %s", pyfmt.Describe(v))
	}
	var missing []string
	for _, k := range []string{"value", "evidence_count", "gaia_package_ref"} {
		if _, ok := m[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing fields: %s", strings.Join(missing, ", "))
	}
	n, ok := m["value"].(json.Number)
	val, err := strconv.ParseFloat(string(n), 64)
	if !ok || err != nil || math.IsNaN(val) || val < 0 || val > 1 {
		return nil, fmt.Errorf("value must be a number in [0, 1], got %s", pyfmt.Describe(m["value"]))
	}
	cn, ok := m["evidence_count"].(json.Number)
	count, err := strconv.ParseInt(string(cn), 10, 64)
	if !ok || !intRE.MatchString(string(cn)) || err != nil || count < 0 {
		return nil, fmt.Errorf("evidence_count must be a non-negative integer, got %s", pyfmt.Describe(m["evidence_count"]))
	}
	ref, ok := m["gaia_package_ref"].(string)
	if !ok || strings.TrimSpace(ref) == "" {
		return nil, fmt.Errorf("gaia_package_ref must be a non-empty string, got %s", pyfmt.Describe(m["gaia_package_ref"]))
	}
	if strings.HasPrefix(ref, extract.ExplorationPrefix) {
		return nil, errors.New("gaia_package_ref is exploration-only: exploration-only posteriors (extracted over allowed discipline violations) are not writable to the idea store")
	}
	if !packageRefRE.MatchString(ref) {
		return nil, fmt.Errorf("gaia_package_ref %s must pin the compiled graph as project://<package path>#sha256:<64 lowercase hex>", pyfmt.Str(ref))
	}
	raw, pin, _ := strings.Cut(strings.TrimPrefix(ref, "project://"), "#")
	if !refCharsetRE.MatchString(raw) {
		return nil, fmt.Errorf("gaia_package_ref path %s must use the percent-encoded form (only A-Z a-z 0-9 . _ ~ %% / -)", pyfmt.Str(raw))
	}
	dec2, err := url.PathUnescape(raw)
	if err != nil {
		return nil, fmt.Errorf("gaia_package_ref path %s must use the percent-encoded form: %v", pyfmt.Str(raw), err)
	}
	for _, seg := range strings.Split(dec2, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.Contains(seg, `\`) {
			return nil, fmt.Errorf("gaia_package_ref path %s has empty, '.' or '..' segments", pyfmt.Str(dec2))
		}
	}
	return &Posterior{Value: val, EvidenceCount: count, Ref: ref, RelPath: dec2, Pin: pin}, nil
}
