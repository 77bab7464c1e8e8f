package hover_test

import (
	"strings"
	"testing"

	_ "github.com/nullius-dev/nullius/analyzers" // registers every rule
	"github.com/nullius-dev/nullius/analyzers/hover"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

const module = `from gaia.engine.lang import associate, claim, infer, observe
from mylib import infer as local_infer

h = claim("H.")
e = claim("E.")
infer(e, hypothesis=h, p_e_given_h=0.90, p_e_given_not_h=0.09, rationale="r")
infer(e, hypothesis=h, p_e_given_h=0.25, p_e_given_not_h=0.75, rationale="r")
infer(e, hypothesis=h, p_e_given_h=0.8, p_e_given_not_h=0.1, rationale="r")
infer(e, hypothesis=h, p_e_given_h=grade, p_e_given_not_h=0.1, rationale="r")
associate(h, e, p_a_given_b=0.99, p_b_given_a=0.90)
local_infer(e, p_e_given_h=0.9)
observe(e, rationale="r")
`

func url(r diag.Rule) string { return "https://docs/" + r.Code }

func TestAt(t *testing.T) {
	m, err := pyscan.ParseSource("m.py", []byte(module))
	if err != nil {
		t.Fatal(err)
	}
	// at finds the n-th occurrence of s and hovers at its start + delta.
	at := func(s string, n, delta int) int {
		off := -1
		for range n {
			off += 1 + strings.Index(module[off+1:], s)
		}
		return off + delta
	}
	for _, tc := range []struct {
		name   string
		offset int
		want   string // substring; "" for no hover
		span   string // the text the hover covers
	}{
		{"substantial raise", at("0.90", 1, 1), "**substantial ×10**: 0.90/0.09", "0.90"},
		{"the other half of the pair", at("0.09", 1, 4), "**substantial ×10**: 0.90/0.09", "0.09"},
		{"weak reversal", at("0.25", 1, 0), "**weak ÷3** (reversal): 0.25/0.75", "0.25"},
		{"off-grade", at("0.8", 1, 0), "**off-grade pair** (0.8, 0.1) (GAIA011): allowed grades are 3 (0.75/0.25)", "0.8"},
		{"not literal", at("grade", 1, 2), "**not a literal grade** (GAIA010)", "grade"},
		{"associate value", at("0.99", 1, 0), "**off-grade value 0.99** (GAIA503)", "0.99"},
		{"associate grade", at("0.90", 2, 0), "**grade value 0.90**", "0.90"},
		{"infer verb", at("infer(e", 1, 2), "**infer** (Gaia) — a graded likelihood update", "infer"},
		{"observe verb", at("observe(e", 1, 0), "- [GAIA034](https://docs/GAIA034) an observe rationale lacks", "observe"},
		{"not a gaia verb", at("local_infer", 1, 3), "", ""},
		{"a rationale is not a grade", at(`"r"`, 1, 1), "", ""},
		{"outside any call", at("h = ", 1, 0), "", ""},
	} {
		info, ok := hover.At(m, tc.offset, url)
		if tc.want == "" {
			if ok {
				t.Errorf("%s: unexpected hover %q", tc.name, info.Markdown)
			}
			continue
		}
		if !ok || !strings.Contains(info.Markdown, tc.want) {
			t.Errorf("%s: hover %q (ok %v), want %q", tc.name, info.Markdown, ok, tc.want)
			continue
		}
		if got := module[info.Span.Start.Offset:info.Span.End.Offset]; got != tc.span {
			t.Errorf("%s: span %q, want %q", tc.name, got, tc.span)
		}
	}
	if bad, _ := pyscan.ParseSource("b.py", []byte("infer(\n")); bad != nil {
		if _, ok := hover.At(bad, 2, url); ok {
			t.Error("a module that does not parse got a hover")
		}
	}
}

// Every rule a verb's hover lists is registered.
func TestRequirementsNameRegisteredRules(t *testing.T) {
	src := "from gaia.engine.lang import *\n"
	for _, v := range []string{"infer", "observe", "register_prior", "associate", "derive", "compute", "equal", "contradict", "exclusive", "claim", "parameter"} {
		src += v + "(x)\n"
	}
	m, err := pyscan.ParseSource("m.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Calls {
		info, ok := hover.At(m, int(c.Func.Span.Start.Offset), url)
		if !ok || !strings.Contains(info.Markdown, "Checked by:\n- [") || strings.Contains(info.Markdown, "unknown rule") {
			t.Errorf("%s: %q", c.Func.Text, info.Markdown)
		}
	}
}
