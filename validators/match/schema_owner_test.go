package match

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/nullius-dev/nullius/internal/matchproto"
)

// TestMatchSchemaHasSemanticOwners backs MATCH003's documentation: the
// schema runs only when the semantic rules found nothing, and for
// pairwise_match_v1 every constraint it holds is also a semantic rule
// (MATCH020-032). Each member and list element of a valid artifact is
// set to values of every JSON type, deleted, or joined by an unknown
// member: whatever the schema refuses, a semantic rule refuses too, so
// MATCH003 is never the only finding. The panel report's commitment_hash
// shows the other case: a constraint only the schema holds is MATCH003.
func TestMatchSchemaHasSemanticOwners(t *testing.T) {
	src, err := os.ReadFile("../../fixtures/match/validate/match/ok_single_family.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker("match")
	if err != nil {
		t.Fatal(err)
	}
	values := []any{delete, nil, true, json.Number("0"), json.Number("-1"), json.Number("1.5"), "", "x", "zzzzzzzz", []any{}, matchproto.Object{}}
	tried := 0
	check := func(path []any, v any) {
		tried++
		b := matchproto.Marshal(mutate(t, string(src), v, path...))
		ds := c.File("match.json", b)
		for _, d := range ds {
			if d.Code != CodeSchema.Code {
				return
			}
		}
		if len(ds) > 0 {
			t.Errorf("%v = %s: only the schema refuses it: %s", path, fmt.Sprint(v), ds[0].Message)
		}
	}
	d, err := matchproto.Decode(src)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		switch x := v.(type) {
		case matchproto.Object:
			for _, m := range x {
				p := append(append([]any{}, path...), m.Key)
				for _, nv := range values {
					check(p, nv)
				}
				walk(m.Value, p)
			}
			check(append(append([]any{}, path...), "unknown_member"), "x")
		case []any:
			for i, e := range x {
				p := append(append([]any{}, path...), i)
				for _, nv := range values[1:] {
					check(p, nv)
				}
				walk(e, p)
			}
		}
	}
	walk(d.Value, nil)
	if tried < 500 {
		t.Fatalf("only %d mutations tried", tried)
	}

	report, err := os.ReadFile("../../fixtures/match/validate/panel-report/ok_single_family.json")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := NewChecker("panel-report")
	if err != nil {
		t.Fatal(err)
	}
	ds := rc.File("panel_run_report.json", matchproto.Marshal(mutate(t, string(report), "73d6c8c5", "commitment_hash")))
	if len(ds) != 1 || ds[0].Code != CodeSchema.Code {
		t.Fatalf("a panel report's malformed commitment_hash: %v, want MATCH003 alone", ds)
	}
}
