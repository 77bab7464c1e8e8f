//go:build !race

package analyzers

// raceEnabled: see race_on_test.go.
const raceEnabled = false
