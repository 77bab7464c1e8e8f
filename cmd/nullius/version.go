package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nullius-dev/nullius/internal/lazy"
)

// Set at link time by release builds:
//
//	go build -ldflags "-X main.buildVersion=0.1.0 -X main.buildCommit=abc1234" ./cmd/nullius
var (
	buildVersion string
	buildCommit  string
)

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the nullius version",
		Long: `Version prints the nullius version, the commit it was built from and the Go
toolchain that built it. Release builds set the version with -ldflags; otherwise
it comes from the module version 'go install' records, then the VCS stamp of a
build in a checkout.`,
		Example: `  $ nullius version
  nullius 0.1.0 (commit 1a2b3c4d5e6f, go1.26.0 linux/amd64)
  $ nullius --version      # the same line`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(a.stdout, versionLine())
			return err
		},
	}
}

// buildInfo is debug.ReadBuildInfo (nil when there is none), parsed once:
// every invocation asks for the version (the root's --version, report
// metadata). lazy.New, not sync.OnceValues, which allocates at start.
var buildInfo = lazy.New(readBuildInfo)

func readBuildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}

// version is the nullius version string: -ldflags first, then the module
// version of a `go install ...@vX` build, then the development default.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi := buildInfo.Get(); bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return strings.TrimPrefix(bi.Main.Version, "v")
	}
	return "0.1.0-dev"
}

// versionLine is e.g. "nullius 0.1.0 (commit abc1234, go1.26.8 linux/amd64)".
func versionLine() string {
	commit := buildCommit
	modified := false
	if bi := buildInfo.Get(); bi != nil {
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && commit == "":
				commit = s.Value
			case s.Key == "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	// A release build's commit may end in "+dirty" (make release from a
	// modified tree): shorten the hash, keep the mark.
	if hash, mark, _ := strings.Cut(commit, "+"); len(hash) > 12 {
		commit = hash[:12]
		if mark != "" {
			commit += "+" + mark
		}
	}
	switch {
	case commit == "":
		commit = "unknown"
	case modified && buildCommit == "":
		commit += "+dirty"
	}
	return fmt.Sprintf("nullius %s (commit %s, %s %s/%s)", version(), commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
