//go:build !race

package testrace

// Enabled reports whether the race detector is built in.
const Enabled = false
