package writeback

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"

	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// KeyBasis is the reference's idempotency basis: the JSON array
// [campaign_id, node_id, gaia_package_ref, repr(value), evidence_count]
// serialized with ASCII escaping and no spaces.
func KeyBasis(campaign, node, ref string, value float64, count int64) string {
	return "[" + pyfmt.JSONString(campaign, true) + "," + pyfmt.JSONString(node, true) + "," + pyfmt.JSONString(ref, true) + "," +
		pyfmt.JSONString(pyfmt.Repr(value), true) + "," + strconv.FormatInt(count, 10) + "]"
}

// DeriveKey is the reference-compatible key: "idea-posterior-" and the
// first 32 hex digits of the basis' SHA-256.
func DeriveKey(campaign, node, ref string, value float64, count int64) string {
	sum := sha256.Sum256([]byte(KeyBasis(campaign, node, ref, value, count)))
	return "idea-posterior-" + hex.EncodeToString(sum[:])[:32]
}

// FreshKey salts a derived key for --new-write: "<derived>-fresh-<12 hex of
// a random UUID4>", keeping the derived key as an auditable prefix.
func FreshKey(derived string, rnd io.Reader) (string, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var u [16]byte
	if _, err := io.ReadFull(rnd, u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return derived + "-fresh-" + hex.EncodeToString(u[:])[:12], nil
}
