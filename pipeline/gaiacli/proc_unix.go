//go:build unix

package gaiacli

import (
	"os/exec"
	"syscall"
)

// killGroup runs the child in its own process group and kills the whole
// group on timeout, so a compile that spawned `uv sync` does not outlive us.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
