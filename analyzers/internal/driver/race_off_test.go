//go:build !race

package driver_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
