package pycase

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// golden is testdata/cpython311_case.txt (scripts/pycase_golden.py).
type golden struct {
	lower, fold map[rune]string // code points CPython does not map to themselves
	class       map[rune]byte   // 'i' case-ignorable, 'c' cased, for the final-sigma rule
	unassigned  [][2]rune
	sigma       [][3]string // input, lower(), casefold()
}

func hexRunes(t *testing.T, f string) string {
	t.Helper()
	var b strings.Builder
	for _, h := range strings.Fields(f) {
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}

func loadGolden(t *testing.T) *golden {
	t.Helper()
	f, err := os.Open("testdata/cpython311_case.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := &golden{lower: map[rune]string{}, fold: map[rune]string{}, class: map[rune]byte{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "map":
			p := strings.Split(rest, ";")
			r := []rune(hexRunes(t, p[0]))[0]
			g.lower[r], g.fold[r] = hexRunes(t, p[1]), hexRunes(t, p[2])
		case "ignorable", "cased", "unassigned":
			a, b, _ := strings.Cut(rest, "-")
			lo, hi := []rune(hexRunes(t, a))[0], []rune(hexRunes(t, b))[0]
			if kind == "unassigned" {
				g.unassigned = append(g.unassigned, [2]rune{lo, hi})
				continue
			}
			for r := lo; r <= hi; r++ {
				g.class[r] = kind[0]
			}
		case "sigma":
			p := strings.Split(rest, ";")
			g.sigma = append(g.sigma, [3]string{hexRunes(t, p[0]), hexRunes(t, p[1]), hexRunes(t, p[2])})
		default:
			t.Fatalf("golden: unknown line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(g.lower) < 1400 || len(g.class) < 2000 || len(g.unassigned) < 500 || len(g.sigma) < 40 {
		t.Fatalf("golden looks truncated: %d maps, %d classes, %d unassigned ranges, %d sigma probes",
			len(g.lower), len(g.class), len(g.unassigned), len(g.sigma))
	}
	return g
}

func (g *golden) isUnassigned(r rune) bool {
	for _, u := range g.unassigned {
		if u[0] <= r && r <= u[1] {
			return true
		}
	}
	return false
}

// TestEveryCodePoint compares Lower and Casefold of every code point (the
// surrogates excepted: no Go string holds one) with CPython 3.11's.
func TestEveryCodePoint(t *testing.T) {
	g := loadGolden(t)
	bad := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		s := string(r)
		wantL, ok := g.lower[r]
		if !ok {
			wantL = s
		}
		wantF, ok := g.fold[r]
		if !ok {
			wantF = s
		}
		if got := Lower(s); got != wantL {
			t.Errorf("Lower(%U) = %+q, CPython %+q", r, got, wantL)
			bad++
		}
		if got := Casefold(s); got != wantF {
			t.Errorf("Casefold(%U) = %+q, CPython %+q", r, got, wantF)
			bad++
		}
		if bad > 20 {
			t.Fatal("too many differences")
		}
	}
}

// unicode15Sigma are the code points Go's Unicode 15.0 tables know but
// CPython 3.11's UCD 14.0 leaves unassigned, and which the final-sigma rule
// therefore reads differently (docs/deviations.md): Unicode 15 made them
// case-ignorable (i) or cased (c); CPython 3.11 sees neither. Their case
// mappings are the identity in both. CPython 3.12 (UCD 15.0) agrees with us.
var unicode15Sigma = map[byte]int{'i': 105, 'c': 6}

// TestFinalSigmaProperties compares, for every code point, how the
// final-sigma rule reads it with CPython's Case_Ignorable and Cased.
func TestFinalSigmaProperties(t *testing.T) {
	g := loadGolden(t)
	newer := map[byte]int{}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		var got byte
		switch {
		case caseIgnorable(r):
			got = 'i'
		case cased(r):
			got = 'c'
		}
		want := g.class[r]
		if got == want {
			continue
		}
		if want == 0 && g.isUnassigned(r) {
			newer[got]++ // a Unicode 15 character: see unicode15Sigma
			continue
		}
		t.Errorf("%U: final-sigma class %q, CPython %q", r, got, want)
	}
	for k, n := range unicode15Sigma {
		if newer[k] != n {
			t.Errorf("%d code points unassigned in UCD 14 are class %q in Go's tables, want %d (update unicode15Sigma and docs/deviations.md)", newer[k], k, n)
		}
	}
}

func TestSigmaContext(t *testing.T) {
	g := loadGolden(t)
	for _, p := range g.sigma {
		if got := Lower(p[0]); got != p[1] {
			t.Errorf("Lower(%+q) = %+q, CPython %+q", p[0], got, p[1])
		}
		if got := Casefold(p[0]); got != p[2] {
			t.Errorf("Casefold(%+q) = %+q, CPython %+q", p[0], got, p[2])
		}
	}
}

// TestConformance is the spec in examples (each checked in CPython 3.11).
func TestConformance(t *testing.T) {
	for _, c := range []struct{ in, lower, fold string }{
		{"", "", ""},
		{"already lower", "already lower", "already lower"},
		{"MiXeD ASCII 123", "mixed ascii 123", "mixed ascii 123"},
		{"Straße", "straße", "strasse"},
		{"STRASSE", "strasse", "strasse"},
		{"ẞ", "ß", "ss"},
		{"İstanbul", "i̇stanbul", "i̇stanbul"},
		{"ΟΔΟΣ", "οδος", "οδοσ"},
		{"ΣΑΣ ΣΑΣ.", "σας σας.", "σασ σασ."},
		{"Σ", "σ", "σ"},
		{"ﬁ", "ﬁ", "fi"},
		{"µ", "µ", "μ"},
		{"ᏸ", "ᏸ", "Ᏸ"},
		{"ꭰ", "ꭰ", "Ꭰ"},
		{"Ꭰ", "ꭰ", "Ꭰ"},
		{"ᾈ", "ᾀ", "ἀι"},
		{"\xffA\xfe", "\xffa\xfe", "\xffa\xfe"},
		{"A\xffΣ", "a\xffσ", "a\xffσ"},
		{"AΣ\xff", "aς\xff", "aσ\xff"},
		{"𐐀", "𐐨", "𐐨"},
	} {
		if got := Lower(c.in); got != c.lower {
			t.Errorf("Lower(%+q) = %+q, want %+q", c.in, got, c.lower)
		}
		if got := Casefold(c.in); got != c.fold {
			t.Errorf("Casefold(%+q) = %+q, want %+q", c.in, got, c.fold)
		}
	}
}

// TestUnchangedDoesNotAllocate: callers fold keys on hot paths and rely on
// an unchanged string coming back as is.
func TestUnchangedDoesNotAllocate(t *testing.T) {
	for _, s := range []string{"plain ascii text", "straße ünïcödé", "\xff\xfe bytes", "οδοσ"} {
		if n := testing.AllocsPerRun(100, func() { _ = Lower(s) }); n != 0 {
			t.Errorf("Lower(%+q): %v allocations", s, n)
		}
		if s == "straße ünïcödé" {
			continue // ß folds
		}
		if n := testing.AllocsPerRun(100, func() { _ = Casefold(s) }); n != 0 {
			t.Errorf("Casefold(%+q): %v allocations", s, n)
		}
	}
}

// FuzzInvariants: the result is valid where the input is, invalid bytes
// survive, and folding is idempotent (casefold(casefold(s)) ==
// casefold(s) holds in CPython for every string).
func FuzzInvariants(f *testing.F) {
	for _, s := range []string{"Straße", "ΟΔΟΣ ΟΔΟΣ", "İ", "\xffΣ", "AΣ'", "ᾈΣ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, c := Lower(s), Casefold(s)
		if utf8.ValidString(s) && (!utf8.ValidString(l) || !utf8.ValidString(c)) {
			t.Fatalf("invalid UTF-8 out of valid %+q", s)
		}
		if Casefold(c) != c {
			t.Fatalf("Casefold not idempotent on %+q: %+q then %+q", s, c, Casefold(c))
		}
		if Casefold(l) != c && !strings.ContainsRune(s, 'Σ') {
			t.Fatalf("Casefold(Lower(%+q)) = %+q, Casefold = %+q", s, Casefold(l), c)
		}
	})
}

func BenchmarkCasefoldASCII(b *testing.B) {
	s := "The Idea Merits Sustained Verification Effort."
	b.ReportAllocs()
	for b.Loop() {
		_ = Casefold(s)
	}
}

func BenchmarkLowerUnicode(b *testing.B) {
	s := "ΟΔΟΣ Straße İstanbul ΣΑΣ"
	b.ReportAllocs()
	for b.Loop() {
		_ = Lower(s)
	}
}
