package render

import (
	"math"
	"testing"
)

func TestGradeOf(t *testing.T) {
	for _, tc := range []struct {
		peh, penh float64
		dir       Direction
		chip      string
		canonical bool
		ratio     string
	}{
		{0.75, 0.25, Raises, "weak", true, "×3"},
		{0.25, 0.75, Lowers, "weak", true, "×3"},
		{0.90, 0.09, Raises, "substantial", true, "×10"},
		{0.09, 0.90, Lowers, "substantial", true, "×10"},
		{0.90, 0.03, Raises, "strong", true, "×30"},
		{0.03, 0.90, Lowers, "strong", true, "×30"},
		{0.6, 0.2, Raises, "weak", false, "×3"},           // on-ratio, not a literal grade pair
		{0.3, 0.03, Raises, "substantial", false, "×10"},  // 0.3/0.03 = 9.999999999999998
		{0.99, 0.033, Raises, "strong", false, "×30"},     // float noise around 30
		{0.8, 0.1, Raises, "off-grade", false, "×8.00"},   // the reference's off-grade example family
		{0.85, 0.09, Raises, "off-grade", false, "×9.44"}, // GAIA011's 0.85
		{0.1, 0.29, Lowers, "off-grade", false, "×2.90"},  // near weak, but not weak
		{0.5, 0.5, Flat, "off-grade", false, "×1.00"},     // no update at all
		{0.9, 0, Raises, "off-grade", false, "×∞"},        // certain evidence
		{0, 0.9, Lowers, "off-grade", false, "×∞"},
	} {
		g := GradeOf(tc.peh, tc.penh)
		if g.Direction != tc.dir || g.Chip != tc.chip || g.Canonical != tc.canonical || g.RatioText() != tc.ratio {
			t.Errorf("GradeOf(%v, %v) = %+v %q, want %s %s canonical=%v %q", tc.peh, tc.penh, g, g.RatioText(), tc.dir, tc.chip, tc.canonical, tc.ratio)
		}
	}
}

func TestStrokeWidthGrowsWithRatio(t *testing.T) {
	weak, sub, strong := GradeOf(0.75, 0.25), GradeOf(0.9, 0.09), GradeOf(0.9, 0.03)
	if !(weak.StrokeWidth() < sub.StrokeWidth() && sub.StrokeWidth() < strong.StrokeWidth()) {
		t.Fatalf("widths weak %v, substantial %v, strong %v must increase", weak.StrokeWidth(), sub.StrokeWidth(), strong.StrokeWidth())
	}
	if w := GradeOf(0.09, 0.9).StrokeWidth(); w != sub.StrokeWidth() {
		t.Errorf("a lowering pair must be as wide as its raising twin: %v vs %v", w, sub.StrokeWidth())
	}
	for _, g := range []Grade{GradeOf(0.5, 0.5), GradeOf(1, 0), {Ratio: math.Inf(1)}} {
		if w := g.StrokeWidth(); w < 1.2 || w > 7 {
			t.Errorf("width %v for ratio %v outside [1.2, 7]", w, g.Ratio)
		}
	}
}

func TestProbThreeDecimals(t *testing.T) {
	for in, want := range map[float64]string{
		0.8499370175790979:   "0.850", // worth in the reference's beliefs_sample.json
		0.9374212719738726:   "0.937", // tension_resolution there
		0.999:                "0.999",
		0.09:                 "0.090",
		1:                    "1.000",
		0:                    "0.000",
		0.0004:               "0.000",
		math.Copysign(0, -1): "0.000",
		-0.0001:              "-0.000", // never a probability: Load refuses it
	} {
		if got := Prob(in); got != want {
			t.Errorf("Prob(%v) = %q, want %q", in, got, want)
		}
	}
}
