//go:build unix

package procrun

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the child in a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills every process in the group pgid (ESRCH: none is left).
func killGroup(pgid int) error {
	return syscall.Kill(-pgid, syscall.SIGKILL)
}
