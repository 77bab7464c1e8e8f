package extract

import (
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/nullius-dev/nullius/analyzers/ir"
)

// TestPercentEncode holds the golden encodings of §3.6 and §6.
func TestPercentEncode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"argument graphs/my-idea-gaia", "argument%20graphs/my-idea-gaia"},
		{"ü:&=+$,;@~x", "%C3%BC%3A%26%3D%2B%24%2C%3B%40~x"},
		{"a b/ü:&=+$,;@~x/pkg", "a%20b/%C3%BC%3A%26%3D%2B%24%2C%3B%40~x/pkg"},
		{"argument-graphs/my-idea-gaia", "argument-graphs/my-idea-gaia"},
		{"A_z.0-9~/x", "A_z.0-9~/x"},
		{"#?%[]|\t", "%23%3F%25%5B%5D%7C%09"},
		{"日本", "%E6%97%A5%E6%9C%AC"},
	}
	for _, tt := range tests {
		if got := PercentEncode(tt.in); got != tt.want {
			t.Errorf("PercentEncode(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPackageRef(t *testing.T) {
	pin := "sha256:" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	got := PackageRef("argument graphs/my-idea-gaia", pin)
	want := "project://argument%20graphs/my-idea-gaia#sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	if got != want {
		t.Errorf("PackageRef = %q, want %q", got, want)
	}
}

// TestPin is the golden vector of the pin: sha256 of the exact bytes.
func TestPin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		if got := ir.CompiledIRPin([]byte(tt.in)); got != tt.want {
			t.Errorf("ir.CompiledIRPin(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	data, err := os.ReadFile("../../fixtures/extract/ir_sample.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ir.CompiledIRPin(data), "sha256:"+irSampleSHA; got != want {
		t.Errorf("ir.CompiledIRPin(ir_sample.json) = %s, want %s (fixture regenerated? update the goldens)", got, want)
	}
}

func TestRelPath(t *testing.T) {
	tests := []struct {
		pkg, root, want string
		err             error
	}{
		{"/r/argument graphs/p", "/r", "argument graphs/p", nil},
		{"/r", "/r", "", ErrIsRoot},
		{"/elsewhere/p", "/r", "", ErrOutsideRoot},
		{"/r2/p", "/r", "", ErrOutsideRoot},
		{"/r/..p", "/r", "..p", nil},
	}
	for _, tt := range tests {
		got, err := RelPath(tt.pkg, tt.root)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("RelPath(%q, %q) = %q, %v; want %q, %v", tt.pkg, tt.root, got, err, tt.want, tt.err)
		}
	}
}

// TestPosteriorJSON is the byte-exact output of §3.2 step 13 plus the W9
// field, as Python's json.dumps(indent=2, sort_keys=True) prints it.
func TestPosteriorJSON(t *testing.T) {
	p := Posterior{Value: 1, EvidenceCount: 2, ConnectedEvidenceCount: 1,
		GaiaPackageRef: "exploration-only:project://argument%20graphs/p#sha256:" + irSampleSHA}
	want := `{
  "connected_evidence_count": 1,
  "evidence_count": 2,
  "gaia_package_ref": "exploration-only:project://argument%20graphs/p#sha256:` + irSampleSHA + `",
  "value": 1.0
}`
	if got := string(p.JSON()); got != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}

var refRE = regexp.MustCompile(`^[A-Za-z0-9._~%/-]*$`)

// FuzzPercentEncode: the encoding uses only the writeback's allowed
// alphabet and decodes back to the input.
func FuzzPercentEncode(f *testing.F) {
	for _, s := range []string{"argument graphs/my-idea-gaia", "a b/ü:&=+$,;@~x/pkg", "", "%", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc := PercentEncode(s)
		if !refRE.MatchString(enc) {
			t.Fatalf("PercentEncode(%q) = %q uses a character outside [A-Za-z0-9._~%%/-]", s, enc)
		}
		dec, err := url.PathUnescape(enc)
		if err != nil || dec != s {
			t.Fatalf("PercentEncode(%q) = %q decodes to %q, %v", s, enc, dec, err)
		}
	})
}

// TestPercentEncodeGolden compares PercentEncode with the reference's
// encoding, Python's urllib.parse.quote(path, safe="/"), on 203 paths
// (testdata/percent.golden, written by python3).
func TestPercentEncodeGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/percent.golden")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndex(line, " ")
		var in string
		if err := json.Unmarshal([]byte(line[:i]), &in); err != nil {
			t.Fatalf("bad golden line %q: %v", line, err)
		}
		if got, want := PercentEncode(in), line[i+1:]; got != want {
			t.Errorf("PercentEncode(%q) = %q, Python says %q", in, got, want)
		}
		n++
	}
	if n < 200 {
		t.Fatalf("only %d golden paths", n)
	}
}
