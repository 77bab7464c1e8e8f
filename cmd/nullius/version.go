package main

import "github.com/spf13/cobra"

func (a *app) versionCmd() *cobra.Command {
	return a.pending("version", "Print the nullius version")
}

// version is the nullius version string (set with -ldflags "-X main.buildVersion=...").
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	return "0.1.0-dev"
}

var buildVersion string
