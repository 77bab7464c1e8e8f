package pyfmt

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReprGolden compares Repr with Python 3.11's repr() on 469 floats
// (testdata/pyfloat.golden, written by python3: fixed cases plus random
// values in [0, 1), tiny powers and large values).
func TestReprGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/pyfloat.golden")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bits, want, _ := strings.Cut(line, " ")
		u, err := strconv.ParseUint(bits, 16, 64)
		if err != nil {
			t.Fatalf("bad golden line %q", line)
		}
		if got := Repr(math.Float64frombits(u)); got != want {
			t.Errorf("Repr(%s) = %s, Python says %s", bits, got, want)
		}
		n++
	}
	if n < 400 {
		t.Fatalf("only %d golden floats", n)
	}
}

func TestRepr(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0.5, "0.5"}, {1, "1.0"}, {0, "0.0"}, {math.Copysign(0, -1), "-0.0"},
		{0.8499370175790979, "0.8499370175790979"}, {1.0 / 3, "0.3333333333333333"},
		{0.30000000000000004, "0.30000000000000004"}, {0.0001, "0.0001"}, {0.00001, "1e-05"},
		{1.5e-7, "1.5e-07"}, {123.0, "123.0"}, {12345678.9, "12345678.9"}, {1e15, "1000000000000000.0"},
		{1e16, "1e+16"}, {1.2345678901234568e+17, "1.2345678901234568e+17"}, {1e100, "1e+100"},
		{5e-324, "5e-324"}, {math.NaN(), "nan"}, {math.Inf(-1), "-inf"},
	}
	for _, tt := range tests {
		if got := Repr(tt.in); got != tt.want {
			t.Errorf("Repr(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if JSONFloat(math.NaN()) != "NaN" || JSONFloat(math.Inf(1)) != "Infinity" || JSONFloat(0.25) != "0.25" {
		t.Error("JSONFloat differs from json.dumps")
	}
}

func TestJSONString(t *testing.T) {
	tests := []struct {
		in          string
		ascii, utf8 string
	}{
		{"project://a%20b#sha256:00", `"project://a%20b#sha256:00"`, `"project://a%20b#sha256:00"`},
		{`q"\`, `"q\"\\"`, `"q\"\\"`},
		{"<&>", `"<&>"`, `"<&>"`},
		{"é\x7f\x01\n\b\f\t\r", `"\u00e9\u007f\u0001\n\b\f\t\r"`, "\"é\x7f\\u0001\\n\\b\\f\\t\\r\""},
		{"𝄞\u2028", `"\ud834\udd1e\u2028"`, "\"𝄞\u2028\""},
	}
	for _, tt := range tests {
		if got := JSONString(tt.in, true); got != tt.ascii {
			t.Errorf("JSONString(%q, true) = %s, want %s", tt.in, got, tt.ascii)
		}
		if got := JSONString(tt.in, false); got != tt.utf8 {
			t.Errorf("JSONString(%q, false) = %s, want %s", tt.in, got, tt.utf8)
		}
	}
}

// FuzzRepr: the repr parses back to the same float.
func FuzzRepr(f *testing.F) {
	for _, v := range []float64{0, 1, 0.5, 0.8499370175790979, 1e-5, 1e16, 5e-324} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		s := Repr(v)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != v {
			t.Fatalf("Repr(%v) = %q parses to %v, %v", v, s, back, err)
		}
	})
}
