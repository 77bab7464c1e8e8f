// Package schemas embeds the JSON Schemas (draft 2020-12) of every artifact
// nullius reads or writes, so validators compile them from the binary and
// never from the working directory.
package schemas

import "embed"

// FS holds every *.json schema of this directory.
//
//go:embed *.json
var FS embed.FS
