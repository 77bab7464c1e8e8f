//go:build ignore

// A standalone driver for working on the page without the whole CLI:
//
//	go run ./pipeline/render/main.go -package fixtures/render/normal -output /tmp/page.html
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nullius-dev/nullius/pipeline/render"
)

func main() {
	pkg := flag.String("package", "", "package directory")
	out := flag.String("output", "", "page to write")
	flag.Parse()
	res, err := render.Render(render.Options{Package: *pkg, Output: *out, Version: "dev"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(2)
	}
	fmt.Println("wrote", res.Path)
}
