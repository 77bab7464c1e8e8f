package gaiacli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// ErrNoGaia means no gaia executable was named and none is on PATH.
var ErrNoGaia = errors.New("no gaia executable found")

// Resolve picks the gaia executable as the reference does (§3.2 step 3):
// the flag, else $GAIA_BIN, else `gaia` on PATH. A named path is not checked
// here; a bad one fails when the version banner is requested.
func Resolve(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if env := os.Getenv("GAIA_BIN"); env != "" {
		return env, nil
	}
	p, err := exec.LookPath("gaia")
	if err != nil {
		return "", fmt.Errorf("%w (no --gaia, no GAIA_BIN, no gaia on PATH)", ErrNoGaia)
	}
	return p, nil
}

// BannerLine is the part of a version banner that is compared: the first
// line of the trimmed text.
func BannerLine(banner string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(banner), "\n")
	return strings.TrimSpace(first)
}

// CheckVersion accepts a banner whose first line, with commas read as
// spaces, has the exact token 0.5.0a4 (§3.2 step 4): "gaia-lang 0.5.0a4"
// and "0.5.0a4," pass; "0.5.0a41", "v0.5.0a4" and "0.5.0A4" do not.
func CheckVersion(banner string) error {
	line := BannerLine(banner)
	if slices.Contains(strings.Fields(strings.ReplaceAll(line, ",", " ")), PinnedVersion) {
		return nil
	}
	return &VersionError{Got: line}
}

// VersionError is a banner without the pinned version.
type VersionError struct {
	Got string // the banner's first line
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("gaia version mismatch: expected exactly %s, got %q", PinnedVersion, e.Got)
}
