package schemas

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"
)

// compiled holds one sync.OnceValues per schema name: a schema is compiled
// at most once per process, however many files are validated against it
// (a compiled Schema is safe for concurrent use).
var compiled sync.Map // name -> func() (*jsonschema.Schema, error)

// Compile returns the embedded schema name compiled (draft 2020-12, its
// $id base https://nullius.dev/schemas/), compiling it on first use.
func Compile(name string) (*jsonschema.Schema, error) {
	f, ok := compiled.Load(name)
	if !ok {
		f, _ = compiled.LoadOrStore(name, sync.OnceValues(func() (*jsonschema.Schema, error) { return compile(name) }))
	}
	return f.(func() (*jsonschema.Schema, error))()
}

func compile(name string) (*jsonschema.Schema, error) {
	raw, err := FS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("schema %s is not embedded: %w", name, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	url := "https://nullius.dev/schemas/" + name
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return sch, nil
}
