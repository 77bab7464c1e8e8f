// Package digest holds the one form of a sha256 reference the Gaia and
// match tools write — "sha256:" and 64 lowercase hex digits, the whole
// string: Of makes it (content pins, commitments, journal digests) and
// IsSHA256 checks it (IR hashes, ledger entries, commitments, artifacts),
// so no two places can disagree on what a hash is.
package digest

import (
	"crypto/sha256"
	"encoding/hex"
)

// Prefix begins every sha256 reference.
const Prefix = "sha256:"

// Of returns the sha256 reference of b: Prefix and the lowercase hex
// SHA-256 of b.
func Of(b []byte) string {
	sum := sha256.Sum256(b)
	return Prefix + hex.EncodeToString(sum[:])
}

// IsSHA256 reports whether s is exactly a sha256 reference: Prefix and 64
// lowercase hex digits (what `^sha256:[0-9a-f]{64}$` matches).
func IsSHA256(s string) bool {
	if len(s) != len(Prefix)+64 || s[:len(Prefix)] != Prefix {
		return false
	}
	for i := len(Prefix); i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
