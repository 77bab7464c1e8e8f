//go:build !race

package jsonloc

// raceEnabled: see race_on_test.go.
const raceEnabled = false
