//go:build !linux

package procruntest

func becomeSubreaper() bool { return false }
