package ir

import "testing"

func TestReports(t *testing.T) {
	for code, want := range map[string]bool{
		"GAIA130": true, "GAIA213": true, "GAIA207": true, // this family
		"GAIA501": true, "GAIA502": true, "GAIA506": true, "GAIA508": true, // IR sides of source rules
		"GAIA011": false, "GAIA032": false, "NULLIUS002": false, "NOPE": false,
	} {
		if got := Reports(code); got != want {
			t.Errorf("Reports(%s) = %v, want %v", code, got, want)
		}
	}
}
