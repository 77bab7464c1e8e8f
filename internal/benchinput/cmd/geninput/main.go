// Command geninput writes one generated benchmark input (internal/benchinput)
// for scripts/bench.sh: geninput -kind match|survey|nodes -mb N -out FILE.
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/benchinput"
)

func main() {
	kind := flag.String("kind", "match", "input kind: match, survey or nodes")
	mb := flag.Int("mb", 10, "approximate size in MiB")
	out := flag.String("out", "", "file to write (required)")
	flag.Parse()
	gen, ok := benchinput.Kinds[*kind]
	if !ok || *out == "" || *mb <= 0 {
		var kinds []string
		for k := range benchinput.Kinds {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		fmt.Fprintf(os.Stderr, "usage: geninput -kind %s -mb N -out FILE\n", strings.Join(kinds, "|"))
		os.Exit(2)
	}
	if err := os.WriteFile(*out, gen(*mb<<20), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "geninput:", err)
		os.Exit(1)
	}
}
