//go:build !unix

package procrun

import (
	"os"
	"os/exec"
)

// ownGroup does nothing where process groups do not exist.
func ownGroup(*exec.Cmd) {}

// killGroup kills the child itself where there are no process groups.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
