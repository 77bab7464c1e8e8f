//go:build !unix

package gaiacli

import "os/exec"

// killGroup is a no-op where process groups do not exist; the default
// cancellation kills the direct child.
func killGroup(cmd *exec.Cmd) {}
