package main

import "github.com/spf13/cobra"

// matchValidateCmds returns `validate match|commitment|roster|vote|panel-report`.
func (a *app) matchValidateCmds() []*cobra.Command { return nil }
