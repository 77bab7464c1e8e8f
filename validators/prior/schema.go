package prior

import (
	"slices"
	"strings"

	"github.com/nullius-dev/nullius/internal/third_party/jsonschema"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/schemas"
)

// Schema file names of the artifacts this package validates.
const (
	SchemaSurvey     = "literature_survey_v1.schema.json"
	SchemaMatrix     = "close_prior_matrix.schema.json"
	SchemaLedger     = "saturation_ledger.schema.json"
	SchemaGateResult = "gate_result_v1.schema.json"
	SchemaPosterior  = "posterior_payload.schema.json"
)

// CheckSchema validates f against the embedded schema name and reports each
// leaf error as a located PRIOR002 finding, sorted (the library's order is
// not stable).
func CheckSchema(f *File, name string) ([]diag.Diagnostic, error) {
	if f == nil || f.Doc == nil {
		return nil, nil
	}
	sch, err := schemas.Compile(name)
	if err != nil {
		return nil, err
	}
	verr := sch.Validate(f.Doc.Value)
	if verr == nil {
		return nil, nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return nil, verr
	}
	c := &checker{}
	var leaves []jsonschema.OutputUnit
	collectLeaves(ve.BasicOutput(), &leaves)
	slices.SortFunc(leaves, func(a, b jsonschema.OutputUnit) int {
		return strings.Compare(a.InstanceLocation+"\x00"+a.Error.String(), b.InstanceLocation+"\x00"+b.Error.String())
	})
	for _, u := range leaves {
		msg := u.Error.String()
		if msg == "false schema" {
			msg = "member is not allowed here"
		}
		where := u.InstanceLocation
		if where == "" {
			where = "top level"
		}
		c.add(f, CodeSchema, u.InstanceLocation, "%s: %s (schema %s)", where, msg, name)
	}
	return diag.SortDedup(c.result()), nil
}

// collectLeaves keeps the units that carry an error and have no causes; the
// parents only say "validation failed".
func collectLeaves(u *jsonschema.OutputUnit, out *[]jsonschema.OutputUnit) {
	if u == nil {
		return
	}
	if u.Error != nil && len(u.Errors) == 0 {
		*out = append(*out, *u)
	}
	for i := range u.Errors {
		collectLeaves(&u.Errors[i], out)
	}
}
