package fakes

import (
	"fmt"
	"os"
)

// IdeaStoreMain is the fake's entry point (placeholder until its owner lands it).
func IdeaStoreMain() {
	fmt.Fprintln(os.Stderr, "fake not implemented")
	os.Exit(2)
}
