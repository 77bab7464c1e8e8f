// Command gencorpus writes a deterministic benchmark corpus of Gaia
// packages (see internal/benchcorpus) for `make bench`: the large-file
// corpus (-mb) or the many-small-packages corpus (-small).
//
//	go run ./internal/benchcorpus/cmd/gencorpus -out .bench/corpus -mb 12
//	go run ./internal/benchcorpus/cmd/gencorpus -out .bench/small -small 1000
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nullius-dev/nullius/internal/benchcorpus"
)

func main() {
	out := flag.String("out", ".bench/corpus", "directory to write the packages into (must not hold them already)")
	mb := flag.Int("mb", 12, "approximate size of the Python modules in MB (large-file corpus)")
	small := flag.Int("small", 0, "write this many small packages (~2.8 KB modules) instead of the large-file corpus")
	flag.Parse()
	if *small < 0 || *small > 100_000 {
		fmt.Fprintf(os.Stderr, "gencorpus: -small %d out of range; use 1 to 100000\n", *small)
		os.Exit(2)
	}
	if *mb <= 0 || *mb > 1024 {
		fmt.Fprintf(os.Stderr, "gencorpus: -mb %d out of range; use 1 to 1024\n", *mb)
		os.Exit(2)
	}
	files := benchcorpus.Files(*mb << 20)
	if *small > 0 {
		files = benchcorpus.SmallPackages(*small)
	}
	if err := benchcorpus.Write(*out, files); err != nil {
		fmt.Fprintf(os.Stderr, "gencorpus: %v\n", err)
		os.Exit(2)
	}
}
