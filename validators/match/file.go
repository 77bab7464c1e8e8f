package match

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/schemas"
)

// Kinds lists the artifact kinds File validates, as `nullius validate KIND`
// names them.
func Kinds() []string { return []string{"match", "commitment", "roster", "vote", "panel-report"} }

// kindSpec returns the schema file and the semantic validator of a kind.
func kindSpec(kind string) (schema string, check func(any) []Problem, ok bool) {
	switch kind {
	case "match":
		return "pairwise_match_v1.schema.json", ValidateMatch, true
	case "commitment":
		return "match_commitment_v1.schema.json", func(v any) []Problem { return ValidateCommitment(v, "") }, true
	case "roster":
		return "agents_v1.schema.json", func(v any) []Problem { _, ps := ParseRoster(v); return ps }, true
	case "vote":
		return "vote_record_v1.schema.json", ValidateVoteRecord, true
	case "panel-report":
		return "panel_run_report_v1.schema.json", ValidateReport, true
	}
	return "", nil, false
}

// Checker validates artifacts of one kind; it compiles the kind's schema
// once, so validating many files costs one compilation.
type Checker struct {
	kind   string
	check  func(any) []Problem
	schema *jsonschema.Schema
}

// NewChecker returns a Checker for kind (one of Kinds).
func NewChecker(kind string) (*Checker, error) {
	schemaName, check, ok := kindSpec(kind)
	if !ok {
		return nil, fmt.Errorf("unknown artifact kind %q (want one of %s)", kind, strings.Join(Kinds(), ", "))
	}
	sch, err := schemas.Compile(schemaName)
	if err != nil {
		return nil, err
	}
	return &Checker{kind: kind, check: check, schema: sch}, nil
}

// File validates one artifact of the given kind (see Checker.File).
func File(path string, src []byte, kind string) ([]diag.Diagnostic, error) {
	c, err := NewChecker(kind)
	if err != nil {
		return nil, err
	}
	return c.File(path, src), nil
}

// File returns located diagnostics for one artifact: syntax and encoding
// errors, repeated keys, every semantic rule, and (when the semantic rules
// found nothing) the JSON Schema, whose findings would otherwise repeat
// theirs.
//
// The artifact is parsed once, into the protocol's ordered model with
// every value's position (issue 14: one JSON model per parse); the schema
// sees a plain view of the same values, built only when it runs.
func (c *Checker) File(path string, src []byte) []diag.Diagnostic {
	_, ds := c.file(path, src, false)
	return ds
}

// Doc validates one artifact as File does and also returns it parsed, in
// the protocol's ordered model (nil when it is not JSON), so a step that
// acts on a valid artifact reads the very parse that was validated
// (absorb) instead of parsing it again.
func (c *Checker) Doc(path string, src []byte) (*jsonloc.Doc, []diag.Diagnostic) {
	return c.file(path, src, true)
}

// file validates src; keep says whether the caller wants the ordered model
// afterwards (otherwise it is let go while the schema runs).
func (c *Checker) file(path string, src []byte, keep bool) (*jsonloc.Doc, []diag.Diagnostic) {
	doc, err := jsonloc.Parse(src, matchproto.DecodeOptions)
	if err != nil {
		var se *jsonloc.SyntaxError
		line, col := 1, 1
		if errors.As(err, &se) {
			line, col = se.Line, se.Col
		}
		return nil, []diag.Diagnostic{CodeJSON.New(path, line, col, line, col, "%s is not valid JSON: %v", c.kind, err)}
	}
	var dups problems
	for _, p := range doc.Duplicates {
		dups.add(CodeDuplicateKey, p, "key %s repeats an earlier key of the same object; readers disagree on which value counts, remove one", pyfmt.Str(jsonloc.LastToken(p)))
	}
	ps := append(dups.all(), c.check(doc.Value)...)
	if len(ps) == 0 {
		// Unless the caller keeps it, the ordered model is done with:
		// let the collector have it while the schema walks the plain
		// view (they share the strings).
		plain := jsonloc.Plain(doc.Value)
		if !keep {
			doc.Value = nil
		}
		ps = validateSchema(c.schema, c.kind, plain)
	}
	out := make([]diag.Diagnostic, 0, len(ps))
	for _, p := range ps {
		line, col := doc.Locate(p.Pointer)
		d := p.Rule.New(path, line, col, line, col, "%s", p.Msg)
		d.Pointer = p.Pointer
		out = append(out, d)
	}
	return doc, out
}

// SchemaProblems validates src against the embedded schema name and returns
// one sorted problem per failing leaf keyword.
func SchemaProblems(name string, src []byte) ([]Problem, error) {
	sch, err := schemas.Compile(name)
	if err != nil {
		return nil, err
	}
	return schemaProblems(sch, strings.TrimSuffix(name, ".schema.json"), src), nil
}

func schemaProblems(sch *jsonschema.Schema, label string, src []byte) []Problem {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		return []Problem{{CodeJSON, "", "not valid JSON: " + err.Error()}}
	}
	return validateSchema(sch, label, inst)
}

// validateSchema validates a decoded value in the plain model (maps,
// []any, json.Number, ...) against sch.
func validateSchema(sch *jsonschema.Schema, label string, inst any) []Problem {
	verr := sch.Validate(inst)
	var ve *jsonschema.ValidationError
	if verr == nil || !errors.As(verr, &ve) {
		return nil
	}
	var all []Problem
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if len(u.Errors) == 0 && u.Error != nil {
			all = append(all, Problem{CodeSchema, u.InstanceLocation, fmt.Sprintf("schema %s: at %s: %s", label, pyfmt.Str(u.InstanceLocation), u.Error.String())})
		}
		for _, e := range u.Errors {
			walk(e)
		}
	}
	walk(*ve.BasicOutput())
	slices.SortFunc(all, func(a, b Problem) int { return strings.Compare(a.Pointer+a.Msg, b.Pointer+b.Msg) })
	// The schema's own output is already whole; the limit keeps the
	// findings (and every output made of them) to the first in order.
	var ps problems
	for _, p := range slices.Compact(all) {
		ps.put(p)
	}
	return ps.all()
}
