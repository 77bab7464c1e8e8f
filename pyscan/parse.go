package pyscan

import "errors"

// Parser parses Python modules. A Parser is not safe for concurrent use: use
// one per goroutine, and Close it when done.
type Parser struct{}

// NewParser returns a ready parser.
func NewParser() *Parser { return &Parser{} }

// Close frees the parser's C resources. It is safe to call more than once.
func (p *Parser) Close() {}

// Parse builds the model of one module. Syntax problems (including invalid
// UTF-8) are reported in Module.Syntax, not as an error; the error is for
// internal failures only.
func (p *Parser) Parse(path string, src []byte) (*Module, error) {
	return nil, errors.New("pyscan: not implemented yet")
}
