//go:build race

package driver_test

// raceEnabled: under the race detector sync.Pool drops a quarter of what
// is put back, so runner reuse is not counted in allocations there.
const raceEnabled = true
