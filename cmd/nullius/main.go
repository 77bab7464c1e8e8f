// Command nullius is the linter and validator suite for Gaia research
// repositories. See `nullius --help`.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
