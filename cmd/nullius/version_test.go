package main

import (
	"regexp"
	"testing"
)

func TestVersionLdflags(t *testing.T) {
	defer func(v, c string) { buildVersion, buildCommit = v, c }(buildVersion, buildCommit)

	buildVersion, buildCommit = "", ""
	if got := version(); got != "0.1.0-dev" {
		// Test binaries carry no module version, so the default shows.
		t.Errorf("version() = %q, want the development default", got)
	}
	buildVersion, buildCommit = "1.2.3", "abcdef1234567890"
	if got := version(); got != "1.2.3" {
		t.Errorf("version() = %q, want the -ldflags value", got)
	}
	want := regexp.MustCompile(`^nullius 1\.2\.3 \(commit abcdef123456, go1\.\S+ \w+/\w+\)$`)
	if got := versionLine(); !want.MatchString(got) {
		t.Errorf("versionLine() = %q, want %s", got, want)
	}
	// make release from a modified tree stamps "<sha>+dirty": the mark survives the shortening.
	buildCommit = "abcdef1234567890abcdef1234567890abcdef12+dirty"
	if got := versionLine(); !regexp.MustCompile(`\(commit abcdef123456\+dirty, `).MatchString(got) {
		t.Errorf("versionLine() = %q, want the +dirty mark kept", got)
	}
}
