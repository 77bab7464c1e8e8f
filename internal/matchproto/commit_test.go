package matchproto

import (
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/digest"
)

// TestGoldenVectors pins §1.7: the commitment hash is a shared byte format.
func TestGoldenVectors(t *testing.T) {
	tests := []struct {
		name  string
		in    []string
		bytes string
		hash  string
	}{
		{"G1", DefaultCriteria(), `["downstream reach and breadth of applicability","mechanism insight","tension resolution","testability and timing","verification cost"]`, "a1e10a3bbabf4338396bbbc361aa9accc504f03221f2b12998b707772854fcd4"},
		{"G2", []string{"verification cost", "tension resolution"}, `["tension resolution","verification cost"]`, "73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa"},
		{"G3", []string{"mechanism insight"}, `["mechanism insight"]`, "2e1db9e8ef41c624b8c68450d42b839b50adb02555b4c932e2d97ea91fb790ce"},
		{"G4", []string{"  verification\t\u00a0cost  ", norm.NFD.String("critère d\u2019efficacité"), "Zeta \"quoted\" \\ back", "\u00e9tendue", "\U0001D518 math"}, "", "fbc447493938bfd6eb73ee6122eddd9d041494d91f3608be08c5482a21dc61fe"},
		{"US", []string{"a\x1fb"}, `["a b"]`, "541e27fe8b978a09c9f563ba3c0e193823e476a11ba911803b7312a51f9c4411"},
		{"ZWSP", []string{"a\u200bb"}, "[\"a\u200bb\"]", "1310f5abd82398b86de0c25ceb0c1f0c090928932080e4e5dcbb3e8bddc969c8"},
		{"BS", []string{"a\x08b"}, `["a\bb"]`, "5f6132aacc0ff17c9aa6339e441e9131eb2dc14c32aff673243f5dbc6da4a5bb"},
		{"NUL", []string{"a\x00b"}, `["a\u0000b"]`, "8fad204a6456de87190b81ac55a873debdacdc02a7109077067c680eb18abff9"},
		{"DEL", []string{"a\x7fb"}, "[\"a\x7fb\"]", "af00ee2d129c53d1f224f59ea75455ca4fe9a54623155aa5d10b7e87729f5c21"},
		{"case", []string{"Cost", "cost"}, `["Cost","cost"]`, "0b0c4931a91f797ccb01fb531eb8c2aff3b69a1925cee56ceb5b4614a3b7cfcc"},
		{"NFC", []string{"e\u0301"}, `["é"]`, "0b657be394b1d432f8d1942406ed09c213604cbcd87b299641cf994bcaf84b11"},
	}
	g4hex := "5b225a657461205c2271756f7465645c22205c5c206261636b222c2263726974c3a872652064e28099656666696361636974c3a9222c22766572696669636174696f6e20636f7374222c22c3a974656e647565222c22f09d9498206d617468225d"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Canonicalize(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got := string(CanonicalBytes(c))
			want := tt.bytes
			if tt.name == "G4" {
				b, _ := hex.DecodeString(g4hex)
				want = string(b)
			}
			if got != want {
				t.Errorf("bytes = %q, want %q", got, want)
			}
			h, _ := CommitmentHash(tt.in)
			if h != "sha256:"+tt.hash {
				t.Errorf("hash = %s, want sha256:%s", h, tt.hash)
			}
		})
	}
}

func TestCommitmentFileFormat(t *testing.T) {
	c, _ := BuildCommitment([]string{"verification cost", "tension resolution"}, time.Date(2026, 7, 5, 8, 0, 0, 0, time.UTC))
	got := string(Marshal(c))
	want := "{\n  \"committed_at\": \"2026-07-05T08:00:00+00:00\",\n  \"criteria\": [\n    \"tension resolution\",\n    \"verification cost\"\n  ],\n  \"commitment_hash\": \"sha256:73d6c8c5a59b6f25418ae3033357c43ffa829e39d598760e6d8f88b4f9a1bcaa\"\n}\n"
	if got != want {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}
	if digest.Of([]byte(got)) != "sha256:fa89dbd13b3d2db476045e49880e39c8bb9d0e8285466c050eeb9879a53d9b16" {
		t.Error("commitment file bytes differ from the §10 golden")
	}
}

func TestParseTime(t *testing.T) {
	for _, ok := range []string{"2026-07-05T08:00:00+00:00", "2026-07-05T08:00:00Z", "2026-07-05 08:00:00.123456+05:30", "2026-07-05t08:00:00-01:00"} {
		if _, err := ParseTime(ok); err != nil {
			t.Errorf("ParseTime(%q): %v", ok, err)
		}
	}
	// Accepted by Python 3.11 but not RFC 3339: deliberately narrowed (W24).
	for _, bad := range []string{"2026-07-05T08:00:00", "2026-07-05T08:00:00z", "Z", "20260705T080000+0000", "2026-W27-7T08:00:00+00:00", "2026-07-05T08:00:00+05", "2026-07-05T08:00+00:00", "2026-13-05T08:00:00+00:00"} {
		if _, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
	// An impossible date or time says which field is wrong (issue 16: it
	// said "is not a valid timestamp: <nil>").
	for ts, why := range map[string]string{
		"2026-02-30T00:00:00+00:00": "February 2026 has 28 days, not 30",
		"2028-02-30T00:00:00+00:00": "February 2028 has 29 days, not 30",
		"2026-04-31T00:00:00Z":      "April 2026 has 30 days, not 31",
		"2026-01-00T00:00:00+00:00": "day 00 does not exist",
		"2026-13-01T00:00:00+00:00": "month 13 does not exist (01 to 12)",
		"2026-00-01T00:00:00+00:00": "month 00 does not exist (01 to 12)",
		"2026-01-01T24:00:00+00:00": "hour 24 does not exist (00 to 23)",
		"2026-01-01T00:60:00+00:00": "minute 60 does not exist (00 to 59)",
		"2026-01-01T00:00:60+00:00": "second 60 does not exist (00 to 59; leap seconds are not accepted)",
		"2026-01-01T00:00:00+24:00": "offset +24:00 does not exist (hours 00 to 23, minutes 00 to 59)",
		"2026-01-01T00:00:00-05:60": "offset -05:60 does not exist (hours 00 to 23, minutes 00 to 59)",
	} {
		_, err := ParseTime(ts)
		want := "'" + ts + "' is not a valid timestamp: " + why
		if err == nil || err.Error() != want {
			t.Errorf("ParseTime(%q) = %v, want %q", ts, err, want)
		}
	}
	if _, err := ParseTime("2028-02-29T23:59:59+23:59"); err != nil {
		t.Errorf("a leap day with the largest offset: %v", err)
	}
	if FormatTime(time.Date(2026, 7, 5, 8, 0, 0, 999, time.FixedZone("x", 3600))) != "2026-07-05T07:00:00+00:00" {
		t.Error("FormatTime is not UTC seconds with +00:00")
	}
}

func TestLoneSurrogateRefused(t *testing.T) {
	for _, src := range []string{`["a\ud800"]`, `["\udc00b"]`, `["\ud800\u0041"]`} {
		if _, err := Decode([]byte(src)); err == nil || !strings.Contains(err.Error(), "lone surrogate") {
			t.Errorf("%s: %v", src, err)
		}
	}
	for _, src := range []string{`["\ud835\udd18 math"]`, `["a\\ud800"]`, `["\\\\"]`, `["\u00e9"]`} {
		if _, err := Decode([]byte(src)); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	// An escaped surrogate pair decodes to the same criterion as raw UTF-8.
	d, _ := Decode([]byte(`["\ud835\udd18 math"]`))
	h1, _ := CommitmentHash(d.Value)
	h2, _ := CommitmentHash([]string{"\U0001D518 math"})
	if h1 != h2 {
		t.Errorf("escaped pair hashes %s, raw %s", h1, h2)
	}
}
