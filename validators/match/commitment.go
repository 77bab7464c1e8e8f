package match

import (
	"fmt"

	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// ValidateCommitment applies §1.4 to a decoded commitment and returns its
// problems (none means valid). at is the pointer of the commitment inside
// its document ("" for a commitment file).
func ValidateCommitment(v any, at string) []Problem {
	obj, ok := v.(matchproto.Object)
	if !ok {
		return []Problem{{CodeCommitmentShape, at, "criteria_commitment is not a JSON object"}}
	}
	var ps []Problem
	allowed := []string{"commitment_hash", "committed_at", "criteria"}
	if unk := unknownKeys(obj, allowed); len(unk) > 0 {
		ps = append(ps, Problem{CodeCommitmentShape, at, "criteria_commitment has unknown keys: " + pyfmt.Value(unk) + "; allowed are committed_at, criteria, commitment_hash"})
	}
	for _, k := range allowed {
		if !obj.Has(k) {
			ps = append(ps, Problem{CodeCommitmentShape, at, fmt.Sprintf("criteria_commitment is missing key: %s", k)})
		}
	}
	if t, ok := obj.Get("committed_at"); ok {
		if _, err := matchproto.ParseTime(t); err != nil {
			ps = append(ps, Problem{CodeCommitmentTime, at + "/committed_at", "committed_at is invalid: " + err.Error()})
		}
	}
	crit, hasCrit := obj.Get("criteria")
	var canon []string
	if hasCrit {
		c, err := matchproto.Canonicalize(crit)
		if err != nil {
			ps = append(ps, Problem{CodeCommitmentCriteria, at + "/criteria", "criteria are invalid: " + err.Error()})
		} else {
			canon = c
			if !sameStrings(crit, c) {
				ps = append(ps, Problem{CodeCommitmentCriteria, at + "/criteria", "criteria are not stored in canonical sorted form (NFC, whitespace collapsed, sorted by code point); rewrite them with nullius match commit"})
			}
		}
	}
	if h, ok := obj.Get("commitment_hash"); ok {
		hs, isStr := h.(string)
		switch {
		case !isStr || !digest.IsSHA256(hs):
			ps = append(ps, Problem{CodeCommitmentHash, at + "/commitment_hash", fmt.Sprintf("commitment_hash %s does not match the form sha256:<64 hex>", pyfmt.Short(h))})
		case canon != nil:
			if want := digest.Of(matchproto.CanonicalBytes(canon)); hs != want {
				ps = append(ps, Problem{CodeCommitmentHash, at + "/commitment_hash", fmt.Sprintf("commitment_hash %s does not match the stored criteria (recomputed %s)", pyfmt.Str(hs), want)})
			}
		}
	}
	return ps
}

func sameStrings(v any, want []string) bool {
	items, ok := v.([]any)
	if !ok || len(items) != len(want) {
		return false
	}
	for i, it := range items {
		if s, _ := it.(string); s != want[i] {
			return false
		}
	}
	return true
}
