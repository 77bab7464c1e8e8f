package writeback

import (
	"slices"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/validators/prior"
)

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func payload(value, count, ref string) []byte {
	return []byte(`{"value": ` + value + `, "evidence_count": ` + count + `, "gaia_package_ref": ` + ref + `}`)
}

// W14, W15, W16, W31, W33 and W-22 of the conformance list.
func TestValidatePosteriorRefusals(t *testing.T) {
	good := `"project://example-idea-gaia#sha256:` + hex64 + `"`
	for _, tc := range []struct {
		name, src, want string
	}{
		{"W33 missing", `{"value": 0.5}`, "missing fields"},
		{"W33 value 1.5", string(payload("1.5", "2", good)), "in [0, 1]"},
		{"W33 value true", string(payload("true", "2", good)), "in [0, 1]"},
		{"W33 count -1", string(payload("0.5", "-1", good)), "non-negative integer"},
		{"W33 count 2.0", string(payload("0.5", "2.0", good)), "non-negative integer"},
		{"W33 blank ref", string(payload("0.5", "2", `"  "`)), "non-empty string"},
		{"W31 exploration", string(payload("0.5", "2", `"exploration-only:project://x#sha256:`+hex64+`"`)), "not writable to the idea store"},
		{"W14 no pin", string(payload("0.5", "2", `"project://example-idea-gaia"`)), "pin the compiled graph"},
		{"W14 short", string(payload("0.5", "2", `"project://x#sha256:abc"`)), "pin the compiled graph"},
		{"W14 upper", string(payload("0.5", "2", `"project://x#sha256:`+strings.ToUpper(hex64)+`"`)), "pin the compiled graph"},
		{"W14 md5", string(payload("0.5", "2", `"project://x#md5:`+hex64[:32]+`"`)), "pin the compiled graph"},
		{"W14 triple slash", string(payload("0.5", "2", `"project:///#sha256:`+hex64+`"`)), "pin the compiled graph"},
		{"W14 file", string(payload("0.5", "2", `"file:///x/pkg#sha256:`+hex64+`"`)), "pin the compiled graph"},
		{"W14 bare", string(payload("0.5", "2", `"/x/pkg#sha256:`+hex64+`"`)), "pin the compiled graph"},
		{"W15 dotdot", string(payload("0.5", "2", `"project://../outside-gaia#sha256:`+hex64+`"`)), "segments"},
		{"W15 inner dotdot", string(payload("0.5", "2", `"project://a/../../outside-gaia#sha256:`+hex64+`"`)), "segments"},
		{"W15 dot", string(payload("0.5", "2", `"project://a/./outside-gaia#sha256:`+hex64+`"`)), "segments"},
		{"W15 empty", string(payload("0.5", "2", `"project://a//b#sha256:`+hex64+`"`)), "segments"},
		{"W16 colon", string(payload("0.5", "2", `"project://a:b/pkg#sha256:`+hex64+`"`)), "percent-encoded form"},
		{"W16 brackets", string(payload("0.5", "2", `"project://a[b]/pkg#sha256:`+hex64+`"`)), "percent-encoded form"},
		{"W16 pipe", string(payload("0.5", "2", `"project://a|b#sha256:`+hex64+`"`)), "percent-encoded form"},
		{"W-22 scalar", `5`, "must be a JSON object"},
		{"W-22 array", `[]`, "must be a JSON object"},
		{"syntax", `{"value":`, "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ValidatePosterior([]byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// W34: extra fields are dropped; integers are accepted as values.
func TestValidatePosteriorKeepsThreeFields(t *testing.T) {
	p, err := ValidatePosterior([]byte(`{"value": 1, "evidence_count": 2, "stray": true, "gaia_package_ref": "project://ideas/my%20idea-gaia#sha256:` + hex64 + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Value != 1 || p.EvidenceCount != 2 || p.RelPath != "ideas/my idea-gaia" || p.Pin != "sha256:"+hex64 {
		t.Fatalf("%+v", p)
	}
}

func FuzzValidatePosterior(f *testing.F) {
	f.Add(payload("0.5", "2", `"project://x#sha256:`+hex64+`"`))
	f.Add([]byte(`5`))
	f.Add([]byte(`{"value":-0.0,"evidence_count":0,"gaia_package_ref":"project://%zz#sha256:` + hex64 + `"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ValidatePosterior(b)
		if err == nil && (p.Value < 0 || p.Value > 1 || p.EvidenceCount < 0 || slices.Contains(strings.Split(p.RelPath, "/"), "..")) {
			t.Fatalf("accepted %q as %+v", b, p)
		}
	})
}

// The embedded posterior_payload schema agrees with ValidatePosterior on
// the shapes a schema can state (the ref's segment and charset rules, and
// the exploration-only refusal, are the validator's alone).
func TestPosteriorSchemaAgrees(t *testing.T) {
	good := `"project://example-idea-gaia#sha256:` + hex64 + `"`
	check := func(src string) int {
		f, ds := prior.ParseFile("p.json", []byte(src))
		if len(ds) > 0 {
			return len(ds)
		}
		sds, err := prior.CheckSchema(f, prior.SchemaPosterior)
		if err != nil {
			t.Fatal(err)
		}
		return len(sds)
	}
	if n := check(string(payload("0.5", "2", good))); n != 0 {
		t.Fatalf("schema refuses a valid payload (%d findings)", n)
	}
	for _, bad := range []string{`{"value": 0.5}`, string(payload("1.5", "2", good)), string(payload("true", "2", good)),
		string(payload("0.5", "-1", good)), string(payload("0.5", "2.5", good)), string(payload("0.5", "2", `"project://x"`)), `5`} {
		if _, err := ValidatePosterior([]byte(bad)); err == nil {
			t.Fatalf("validator accepts %s", bad)
		}
		if check(bad) == 0 {
			t.Errorf("schema accepts %s", bad)
		}
	}
}
