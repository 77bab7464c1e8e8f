package matchproto

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/shortid"
)

// DefaultCriteria returns the reference's default criteria library, in its
// input order (§1.5).
func DefaultCriteria() []string {
	return []string{
		"tension resolution",
		"downstream reach and breadth of applicability",
		"mechanism insight",
		"testability and timing",
		"verification cost",
	}
}

var (
	// ShortIDRE is the engine short id: 8 lowercase Crockford base32 symbols.
	ShortIDRE = lazyre.New(shortid.Pattern)
	// LabelRE is the form of a roster family label.
	LabelRE = lazyre.New(LabelPattern)
)

// LabelPattern is the pattern of a roster family label (LabelRE), as
// messages name it.
const LabelPattern = `^[a-z][a-z0-9_-]{0,31}$`

// CriteriaError is a criteria list that cannot be canonicalized.
type CriteriaError struct{ Msg string }

func (e *CriteriaError) Error() string { return e.Msg }

// Canonicalize applies §1.1 to a decoded JSON value: each item must be a
// string; NFC; Python-whitespace collapse; no empties; no duplicates after
// normalization (case-sensitive); sorted by code point. It stops at the
// first failure, as the reference does.
func Canonicalize(v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok {
		if ss, isStrings := v.([]string); isStrings {
			items = make([]any, len(ss))
			for i, s := range ss {
				items[i] = s
			}
		} else {
			return nil, &CriteriaError{"criteria must be a list of strings"}
		}
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, &CriteriaError{fmt.Sprintf("criterion is not a string: %s", pyfmt.Short(it))}
		}
		c := Collapse(norm.NFC.String(s))
		if c == "" {
			return nil, &CriteriaError{"criterion is empty after normalization"}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, &CriteriaError{"criteria list is empty"}
	}
	// Go strings compare bytewise; for valid UTF-8 that is code-point order.
	slices.Sort(out)
	var dups []string
	for i := 1; i < len(out); i++ {
		if out[i] == out[i-1] && (len(dups) == 0 || dups[len(dups)-1] != out[i]) {
			dups = append(dups, out[i])
		}
	}
	if len(dups) > 0 {
		return nil, &CriteriaError{"duplicate criteria after normalization: " + strings.Join(dups, ", ")}
	}
	return out, nil
}

// CanonicalBytes is the hashed serialization of canonical criteria (§1.2).
func CanonicalBytes(canonical []string) []byte { return MarshalCompact(canonical) }

// CommitmentHash canonicalizes criteria and returns "sha256:<hex>" of the
// compact JSON list (§1.2). The hash never covers committed_at.
func CommitmentHash(criteria any) (string, error) {
	c, err := Canonicalize(criteria)
	if err != nil {
		return "", err
	}
	return digest.Of(CanonicalBytes(c)), nil
}

// BuildCommitment returns the commitment object in the reference's key
// order: committed_at, criteria, commitment_hash (§1.3).
func BuildCommitment(criteria any, now time.Time) (Object, error) {
	c, err := Canonicalize(criteria)
	if err != nil {
		return nil, err
	}
	return Object{
		{Key: "committed_at", Value: FormatTime(now)},
		{Key: "criteria", Value: c},
		{Key: "commitment_hash", Value: digest.Of(CanonicalBytes(c))},
	}, nil
}

// FormatTime renders t as the reference's utc_now_iso: UTC, whole seconds,
// explicit +00:00 (never Z, never fractions).
func FormatTime(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format("2006-01-02T15:04:05-07:00")
}

// noOffsetRE is a timestamp that lacks the offset RFC 3339 requires.
var noOffsetRE = lazyre.New(`^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?$`)

var rfc3339RE = lazyre.New(`^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$`)

// ParseTime parses an RFC 3339 timestamp with a mandatory offset (Z or
// ±HH:MM), optional fraction, and T, t or space as separator. This
// deliberately narrows what Python 3.11's fromisoformat accepts (§1.6, W24):
// the same artifact must pass or fail whatever runs the check.
func ParseTime(v any) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("timestamp must be a string, got %s", pyfmt.Short(v))
	}
	m := rfc3339RE.FindStringSubmatch(s)
	if m == nil {
		if noOffsetRE.MatchString(s) {
			return time.Time{}, fmt.Errorf("timestamp lacks a timezone offset: %s", pyfmt.Str(s))
		}
		return time.Time{}, fmt.Errorf("%s is not an RFC 3339 timestamp with an offset (e.g. 2026-07-05T08:00:00+00:00)", pyfmt.Str(s))
	}
	if why := impossibleField(m[1], m[2], m[4]); why != "" {
		return time.Time{}, fmt.Errorf("%s is not a valid timestamp: %s", pyfmt.Str(s), why)
	}
	t, err := time.Parse(time.RFC3339Nano, m[1]+"T"+m[2]+m[3]+m[4])
	if err != nil { // not expected: impossibleField checks every field time.Parse does
		why := err.Error()
		if pe := (*time.ParseError)(nil); errors.As(err, &pe) && pe.Message != "" {
			why = strings.TrimPrefix(pe.Message, ": ")
		}
		return time.Time{}, fmt.Errorf("%s is not a valid timestamp: %s", pyfmt.Str(s), why)
	}
	return t, nil
}

// impossibleField names the field of a well-formed date (YYYY-MM-DD), time
// (hh:mm:ss) and offset (Z or ±hh:mm) that no calendar has, or "": the
// user reads "February 2026 has 28 days, not 30", not time.Parse's error
// (whose Unwrap is nil, which printed "<nil>").
func impossibleField(date, clock, offset string) string {
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	year, month, day := num(date[0:4]), num(date[5:7]), num(date[8:10])
	hour, minute, second := num(clock[0:2]), num(clock[3:5]), num(clock[6:8])
	switch {
	case month < 1 || month > 12:
		return fmt.Sprintf("month %02d does not exist (01 to 12)", month)
	case day < 1:
		return "day 00 does not exist"
	case day > daysIn(year, time.Month(month)):
		return fmt.Sprintf("%s %04d has %d days, not %d", time.Month(month), year, daysIn(year, time.Month(month)), day)
	case hour > 23:
		return fmt.Sprintf("hour %02d does not exist (00 to 23)", hour)
	case minute > 59:
		return fmt.Sprintf("minute %02d does not exist (00 to 59)", minute)
	case second > 59:
		return fmt.Sprintf("second %02d does not exist (00 to 59; leap seconds are not accepted)", second)
	}
	if offset != "Z" && offset != "z" {
		if oh, om := num(offset[1:3]), num(offset[4:6]); oh > 23 || om > 59 {
			return fmt.Sprintf("offset %s does not exist (hours 00 to 23, minutes 00 to 59)", offset)
		}
	}
	return ""
}

// daysIn is the number of days of month in year (proleptic Gregorian).
func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
