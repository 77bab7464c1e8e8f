// Package testrace tells tests whether they run under the race detector
// (go test -race). Its runtime allocates differently: sync.Pool drops a
// quarter of what is put back, and maps grow otherwise, so allocation
// counts and bounds hold only in uninstrumented builds (make test), and
// a test checking one skips it when Enabled.
package testrace
