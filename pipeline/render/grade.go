package render

import (
	"math"
	"strconv"
)

// Direction says which way an infer moves belief in its hypothesis.
type Direction string

// The three directions an update can take.
const (
	Raises Direction = "raises" // P(e|h) > P(e|not h)
	Lowers Direction = "lowers" // P(e|h) < P(e|not h)
	Flat   Direction = "flat"   // equal likelihoods: no update
)

// Grade is what a likelihood pair means to a reader: its direction, its
// likelihood ratio (inverted for lowering pairs, so always >= 1) and the
// Jeffreys chip that ratio earns.
type Grade struct {
	Direction Direction
	Ratio     float64 // +Inf when one likelihood is 0
	Chip      string  // weak, substantial, strong or off-grade
	// Canonical is true when the pair is exactly one of the three allowed
	// literal pairs of gaia-discipline.md M7 (raising or swapped).
	Canonical bool
}

// gradeRatios are the Jeffreys ratios of M7: 3 weak, 10 substantial, 30 strong.
var gradeRatios = [...]struct {
	ratio float64
	chip  string
	peh   float64 // P(e|h) of the raising pair
	penh  float64 // P(e|not h) of the raising pair
}{
	{3, "weak", 0.75, 0.25},
	{10, "substantial", 0.90, 0.09},
	{30, "strong", 0.90, 0.03},
}

// ratioTolerance absorbs float noise such as 0.9/0.09 = 10.000000000000002;
// an honest off-grade ratio (2.9, 11) is far outside it.
const ratioTolerance = 1e-9

// GradeOf grades the pair (P(e|h), P(e|not h)). The chip comes from the
// ratio alone (the rule); Canonical tells whether the pair is also
// one of the literal grade pairs.
func GradeOf(peh, penh float64) Grade {
	g := Grade{Chip: "off-grade"}
	hi, lo := peh, penh
	switch {
	case peh > penh:
		g.Direction = Raises
	case peh < penh:
		g.Direction = Lowers
		hi, lo = penh, peh
	default:
		g.Direction = Flat
		g.Ratio = 1
		return g
	}
	if lo == 0 {
		g.Ratio = math.Inf(1)
		return g
	}
	g.Ratio = hi / lo
	for _, r := range gradeRatios {
		if math.Abs(g.Ratio-r.ratio) <= ratioTolerance*r.ratio {
			g.Chip = r.chip
			g.Canonical = hi == r.peh && lo == r.penh
		}
	}
	return g
}

// RatioText formats the ratio for the chip: whole grades as "×10", others
// with two decimals, an infinite ratio as "×∞".
func (g Grade) RatioText() string {
	switch {
	case math.IsInf(g.Ratio, 1):
		return "×∞"
	case g.Chip != "off-grade":
		return "×" + strconv.FormatFloat(math.Round(g.Ratio), 'f', 0, 64)
	}
	return "×" + strconv.FormatFloat(g.Ratio, 'f', 2, 64)
}

// StrokeWidth is the arrow width: it grows with log(ratio) so strong reads
// heavier than substantial heavier than weak, clamped to stay legible.
func (g Grade) StrokeWidth() float64 {
	if math.IsInf(g.Ratio, 1) {
		return 7
	}
	w := 1.2 + 1.3*math.Log(g.Ratio)
	return math.Round(math.Max(1.2, math.Min(7, w))*10) / 10
}

// Prob formats a probability with exactly three decimals, the one format the
// page uses everywhere (cards, details, chips).
func Prob(p float64) string {
	if p == 0 {
		p = 0 // JSON allows -0; a reader should never see "-0.000"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}
