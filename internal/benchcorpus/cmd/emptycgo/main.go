// Command emptycgo does nothing, as a cgo binary: the process start every
// nullius command pays before its own work (runtime, cgo and dynamic
// linker initialisation). make bench measures `nullius version` and a
// one-package `nullius lint` against it.
package main

// #include <stdlib.h>
import "C"

func main() { _ = C.size_t(0) }
