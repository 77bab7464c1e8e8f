package main

import "github.com/spf13/cobra"

// priorValidateCmds returns `validate survey|matrix|ledger|gate-result`.
func (a *app) priorValidateCmds() []*cobra.Command { return nil }
