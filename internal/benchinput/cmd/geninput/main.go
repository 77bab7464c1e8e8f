// Command geninput writes one generated benchmark input (internal/benchinput)
// for scripts/bench-memory.sh: geninput -kind KIND -mb N -out FILE, KIND a
// realistic artifact (match, survey, nodes, matrix, ledger) or a crafted
// shape (zeros, tiny-objects, ...; -list-crafted lists them), optionally
// with -minify.
package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/benchinput"
)

func main() {
	kind := flag.String("kind", "match", "input kind: a realistic artifact or a crafted shape")
	mb := flag.Int("mb", 10, "approximate size in MiB")
	minify := flag.Bool("minify", false, "write it without insignificant whitespace")
	out := flag.String("out", "", "file to write (required)")
	listCrafted := flag.Bool("list-crafted", false, "print the crafted shapes, one a line, and exit")
	flag.Parse()
	if *listCrafted {
		for _, k := range slices.Sorted(maps.Keys(benchinput.Crafted)) {
			fmt.Println(k)
		}
		return
	}
	gen, ok := benchinput.Kinds[*kind]
	if !ok {
		gen, ok = benchinput.Crafted[*kind]
	}
	if !ok || *out == "" || *mb <= 0 {
		kinds := slices.Sorted(maps.Keys(benchinput.Kinds))
		kinds = append(kinds, slices.Sorted(maps.Keys(benchinput.Crafted))...)
		fmt.Fprintf(os.Stderr, "usage: geninput -kind %s [-minify] -mb N -out FILE\n", strings.Join(kinds, "|"))
		os.Exit(2)
	}
	data := gen(*mb << 20)
	if *minify {
		data = benchinput.Minify(data)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "geninput:", err)
		os.Exit(1)
	}
}
