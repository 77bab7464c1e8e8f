// Command gencorpus writes the deterministic benchmark corpus of Gaia
// packages (see internal/benchcorpus) for `make bench`.
//
//	go run ./internal/benchcorpus/cmd/gencorpus -out .bench/corpus -mb 12
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nullius-dev/nullius/internal/benchcorpus"
)

func main() {
	out := flag.String("out", ".bench/corpus", "directory to write the packages into (must not hold them already)")
	mb := flag.Int("mb", 12, "approximate size of the Python modules in MB")
	flag.Parse()
	if *mb <= 0 || *mb > 1024 {
		fmt.Fprintf(os.Stderr, "gencorpus: -mb %d out of range; use 1 to 1024\n", *mb)
		os.Exit(2)
	}
	if err := benchcorpus.Generate(*out, *mb<<20); err != nil {
		fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
		os.Exit(2)
	}
}
