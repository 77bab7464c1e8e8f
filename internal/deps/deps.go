//go:build tools

// Package deps pins the libraries named in the design (spec README) in go.mod
// before every package that uses them has landed, so parallel work never
// races on go.mod. Build tag "tools" keeps it out of every build.
package deps

import (
	_ "github.com/fatih/color"
	_ "github.com/pelletier/go-toml/v2"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "github.com/tree-sitter/go-tree-sitter"
	_ "github.com/tree-sitter/tree-sitter-python/bindings/go"
	_ "golang.org/x/text/unicode/norm"
	_ "golang.org/x/tools/go/analysis"
)
