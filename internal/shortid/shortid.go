// Package shortid is the idea engine's short id (campaign, node and match
// ids): 8 lowercase Crockford base32 symbols. It imports nothing, so one
// alphabet serves the match protocol (internal/matchproto), the fake idea
// store and the generator of benchmark inputs (internal/benchinput), which
// the JSON parser's own tests import and which therefore cannot import
// matchproto (matchproto imports that parser).
package shortid

// Alphabet is the symbols of a short id, in value order.
const Alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// Pattern matches exactly one short id; messages quote it.
const Pattern = `^[` + Alphabet + `]{8}$`
