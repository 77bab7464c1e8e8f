package fakes

import (
	"fmt"
	"os"
)

// GaiaMain is the fake's entry point (placeholder until its owner lands it).
func GaiaMain() {
	fmt.Fprintln(os.Stderr, "fake not implemented")
	os.Exit(2)
}
