package sentinel

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// Rows from gaia-discipline.md §1.3 GAIA032 and the §6 appendix.
func TestAnchorTrailing(t *testing.T) {
	tests := []struct {
		note string
		want bool
		ref  string
	}{
		{"evidence_family: f; correlation_model: single; context. anchor: survey artifact", true, "survey artifact"},
		{"reader_reasoning: r. anchor: a\n\n  ", true, "a"},
		{"reader_reasoning: r. anchor: a and then more prose", true, "a and then more prose"},
		{"reader_reasoning: r. anchor:\n   ref here", true, "ref here"},
		{"reader_reasoning: r. anchor: a\rnext", true, "a\rnext"},
		{"x reanchor: a", true, "a"},
		{"x no anchor: none", true, "none"},
		{"reader_reasoning: see anchor: x. anchor: a", true, "a"},
		{"context with no note", false, ""},
		{"reader_reasoning: r. anchor:   ", false, ""},
		{"", false, ""},
		{"anchor: survey artifact\nplus a second line of prose", false, ""},
		{"reader_reasoning: r. Anchor: a", false, ""},
		{"reader_reasoning: r. anchor: a\r\nnext", false, ""},
		{"just a feeling", false, ""},
		{"anchor: a\u00a0", true, "a"},        // NBSP is Python whitespace
		{"anchor:\u2003ref", true, "ref"},     // EM SPACE too
		{"anchor: ref\x1c", true, "ref"},      // Python strips U+001C, Go's IsSpace does not
		{"anchor: a\nb anchor: c", true, "c"}, // a later anchor on the last line wins
		{"anchor: c\nanchor: \nx", true, "x"}, // the keyword may end the penultimate line
		{"anchor:\n\n   multi\nline", false, ""},
	}
	for _, tt := range tests {
		ref, ok := AnchorRef(tt.note)
		if ok != tt.want || ref != tt.ref {
			t.Errorf("AnchorRef(%q) = %q, %v; want %q, %v", tt.note, ref, ok, tt.ref, tt.want)
		}
		if (AnchorProblem(tt.note) == "") != tt.want {
			t.Errorf("AnchorProblem(%q) = %q, disagrees with AnchorRef", tt.note, AnchorProblem(tt.note))
		}
	}
}

func TestAnchorProblemNamesToken(t *testing.T) {
	tests := map[string]string{
		"reader_reasoning: r. Anchor: a":              "found 'Anchor:' (capitalised); the sentinel is 'anchor:'",
		"r. anchor : a":                               "space before the colon",
		"context with no note":                        "no 'anchor:' in the note",
		"r. anchor:   ":                               "empty",
		"anchor: survey artifact\nplus a second line": "followed by another line 'plus a second line'",
		"": "the note is empty",
	}
	for note, want := range tests {
		if got := AnchorProblem(note); !strings.Contains(got, want) {
			t.Errorf("AnchorProblem(%q) = %q, want it to contain %q", note, got, want)
		}
	}
}

func TestPlaceholderAnchor(t *testing.T) {
	for ref, want := range map[string]bool{
		"TODO": true, "tbd": true, "?": true, "x": true, "none": true, "n/a": true, "N/A.": true,
		"ab": true, "TODO: find the paper": true, "???": true,
		"survey artifact": false, "arXiv:2101.00001": false, "doi:10.1000/xyz": false, "idea card": false,
	} {
		if got := IsPlaceholderAnchor(ref); got != want {
			t.Errorf("IsPlaceholderAnchor(%q) = %v, want %v", ref, got, want)
		}
	}
}

// Rows 33, 34 and the §6 appendix (reader_reasoning).
func TestReaderReasoning(t *testing.T) {
	tests := []struct {
		rationale string
		want      bool
		problem   string
	}{
		{"reader_reasoning: the result favours the hypothesis. anchor: x", true, ""},
		{"\n  reader_reasoning: r.\n anchor: a", true, ""},
		{"reader_reasoning: x anchor: y", true, ""},
		{"anchor: survey artifact", false, "nothing precedes the anchor"},
		{"The sub-criterion holds. anchor: survey artifact", false, "no 'reader_reasoning:'"},
		{"reader_reasoning: anchor: a", false, "nothing follows"},
		{"Reader_Reasoning: r. anchor: a", false, "found 'Reader_Reasoning:' (capitalised)"},
		{"prefix. reader_reasoning: r. anchor: a", false, "opens with 'prefix.'"},
		{"intro line\nreader_reasoning: r. anchor: a", false, "opens with 'intro line'"},
		{"reader_reasoning : r. anchor: a", false, "colon right after it"},
	}
	for _, tt := range tests {
		_, ok := ReaderReasoning(tt.rationale)
		if ok != tt.want {
			t.Errorf("ReaderReasoning(%q) ok = %v, want %v", tt.rationale, ok, tt.want)
		}
		if got := ReaderProblem(tt.rationale); (tt.problem == "") != (got == "") || !strings.Contains(got, tt.problem) {
			t.Errorf("ReaderProblem(%q) = %q, want %q", tt.rationale, got, tt.problem)
		}
	}
}

// Rows 44-47, 58-61 and the §6 appendix (has_domains_clause).
func TestDomainsRef(t *testing.T) {
	tests := []struct {
		rationale string
		want      bool
	}{
		{"reader_reasoning: domains: first domain; second domain; third domain. broad reach. anchor: idea card", true},
		{"domains: a | b | c", true},
		{"domains: a;;; b; ; c", true},
		{"reader_reasoning: broad reach. anchor: idea card", false},
		{"domains: first; second. anchor: x", false},
		{"domains: first domain; second domain; anchor: idea card", false},
		{"domains: first domain; second domain; third domain. anchor: idea card", true},
		{"broad reach. anchor: idea card; domains: first; second; third", false},
		{"domains: first; second; third. anchor: idea card", true},
		{"reach. anchor: idea card; domains: a; b; c", false},
		{"domains: a; b\nc; d", false},
		{"domains: a; b. Another sentence; with semicolon.", true},
		{"domains:\n a; b; c. anchor: x", true},
		{"domains: a; a; a.", true},
		{"subdomains: a; b; c.", true},
	}
	for _, tt := range tests {
		if got := DomainsRef(tt.rationale); got != tt.want {
			t.Errorf("DomainsRef(%q) = %v, want %v", tt.rationale, got, tt.want)
		}
	}
}

// The same rows under nullius's clause (W4, W16): the clause ends with its
// sentence, entries are distinct, "subdomains:" does not count, and a
// clause may continue across lines.
func TestDomains(t *testing.T) {
	tests := []struct {
		rationale string
		want      int
	}{
		{"reader_reasoning: domains: first domain; second domain; third domain. broad reach. anchor: idea card", 3},
		{"domains: a | b | c", 3},
		{"domains: a;;; b; ; c", 3},
		{"reader_reasoning: broad reach. anchor: idea card", 0},
		{"domains: first; second. anchor: x", 2},
		{"domains: first domain; second domain; anchor: idea card", 2},
		{"broad reach. anchor: idea card; domains: first; second; third", 0},
		{"domains: first; second; third. anchor: idea card", 3},
		{"domains: a; b\nc; d", 3},                              // W16: joined across the line break
		{"domains: a;\n b;\n c", 3},                             // W16
		{"domains: a; b. Another sentence; with semicolon.", 2}, // W4: the sentence ends the clause
		{"domains: a; b\n\nc; d", 2},                            // a blank line ends it
		{"domains:\n a; b; c. anchor: x", 3},
		{"domains: a; a; A.", 1}, // W4: distinct, case-folded
		{"domains: lattice QCD;  Lattice   qcd; b.", 2},
		{"subdomains: a; b; c.", 0}, // W4: must start a word
		{"x subdomains: a; b. domains: c; d; e.", 3},
		{"domains: arXiv:2101.00001; b; c", 3}, // a '.' inside a token does not end the sentence
	}
	for _, tt := range tests {
		if got := Domains(tt.rationale); len(got) != tt.want {
			t.Errorf("Domains(%q) = %q, want %d entries", tt.rationale, got, tt.want)
		}
		if (DomainsProblem(tt.rationale) == "") != (tt.want >= 3) {
			t.Errorf("DomainsProblem(%q) = %q disagrees", tt.rationale, DomainsProblem(tt.rationale))
		}
	}
}

// Rows 36-37 and the §6 appendix (resolution class).
func TestResolutionClass(t *testing.T) {
	tests := []struct {
		rationale string
		want      string
	}{
		{"reader_reasoning: x. resolution_evidence: mechanism. anchor: executed result", "mechanism"},
		{"reader_reasoning: x. resolution_evidence: discriminating_test. anchor: r", "discriminating_test"},
		{"reader_reasoning: x. resolution_evidence:demonstrated_partial_resolution anchor: r", "demonstrated_partial_resolution"},
		{"resolution_evidence:\n mechanism", "mechanism"},
		{"no resolution_evidence: mechanism exists yet. anchor: r", "mechanism"}, // reference behaviour (W4 not applied here)
		{"The survey proves the tension exists. anchor: survey artifact", ""},
		{"A future check is planned. anchor: compute plan", ""},
		{"Resolution_Evidence: mechanism. anchor: r", ""},
		{"resolution_evidence: mechanisms. anchor: r", ""},
		{"resolution_evidence : mechanism. anchor: r", ""},
		{"resolution_evidence: mechanism_x. anchor: r", ""},
		{"x. anchor: r. resolution_evidence: mechanism", ""},
		{"resolution_evidence: other; resolution_evidence: mechanism.", "mechanism"},
	}
	for _, tt := range tests {
		got, ok := ResolutionClass(tt.rationale)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ResolutionClass(%q) = %q, %v; want %q", tt.rationale, got, ok, tt.want)
		}
		if (ResolutionProblem(tt.rationale) == "") != ok {
			t.Errorf("ResolutionProblem(%q) = %q disagrees", tt.rationale, ResolutionProblem(tt.rationale))
		}
	}
	if p := ResolutionProblem("resolution_evidence: mechanisms"); !strings.Contains(p, "'resolution_evidence: mechanisms'") {
		t.Errorf("problem does not quote the token: %q", p)
	}
}

// Rows 10-15, 35 and the §6 appendix (parse_evidence_family_rationale).
func TestParseFamily(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		rationale string
		token     string // "" = invalid
		problem   string
	}{
		{"evidence_family: anchored-fact; correlation_model: single; context. anchor: survey artifact", "anchored-fact", ""},
		{"evidence_family : spaced-token; correlation_model : single; anchor: fixture", "spaced-token", ""},
		{"evidence_family: checked-result; correlation_model: single; The calculation resolves the scoped comparison. anchor: report.md", "checked-result", ""},
		{"correlation_model: single; evidence_family: x; anchor: a", "x", ""},
		{"evidence_family: " + long + "; correlation_model: single; anchor: a", long, ""},
		{"evidence_family: a.b_c-d; correlation_model: single; anchor: a", "a.b_c-d", ""},
		{"evidence_family:\ttab;correlation_model:single ; anchor: a", "tab", ""},
		{"evidence_family: good; evidence_family: BAD; correlation_model: single; anchor: fixture", "", "2 'evidence_family:' declarations"},
		{"evidence_family: good; correlation_model: single; correlation_model: bogus; anchor: fixture", "", "2 'correlation_model:'"},
		{"evidence_family: good; correlation_model: single-extra; anchor: fixture", "", "'single-extra'"},
		{"evidence_family: invalid-; correlation_model: single; anchor: fixture", "", "'invalid-'"},
		{"evidence_family: good; correlation_model: shared:missing; anchor: x", "", "'shared:missing'"},
		{"evidence_family: BadToken; correlation_model: single; anchor: a", "", "'BadToken'"},
		{"evidence_family: tok correlation_model: single; anchor: a", "", "'tok'"},
		{"evidence_family: tok; correlation_model: single anchor: a", "", "'single'"},
		{"anchor: a; evidence_family: tok; correlation_model: single;", "", "after 'anchor:'"},
		{"evidence_family: " + long + "a; correlation_model: single; anchor: a", "", "found family token"},
		{"evidence_family: tok; correlation_model: SINGLE; anchor: a", "", "'SINGLE'"},
		{"myevidence_family: tok; correlation_model: single; anchor: a", "", "found 'evidence_family:'; the sentinel is 'evidence_family:' in lower case, starting a word"},
		{"Evidence_Family: tok; correlation_model: single; anchor: a", "", "found 'Evidence_Family:'"},
		{"anchor: pre. evidence_family: f; correlation_model: single; anchor: a", "", "after 'anchor:'"},
		{"context with no note. anchor: x", "", "no 'evidence_family:'"},
		{"évidence_family: tok; correlation_model: single; anchor: a", "", "no 'evidence_family:'"}, // é is a word character: no boundary
	}
	for _, tt := range tests {
		fam, ok := ParseFamily(tt.rationale)
		if ok != (tt.token != "") || fam.Token != tt.token || (ok && fam.Model != "single") {
			t.Errorf("ParseFamily(%q) = %+v, %v; want token %q", tt.rationale, fam, ok, tt.token)
		}
		got := FamilyProblem(tt.rationale)
		if (tt.problem == "") != (got == "") || !strings.Contains(got, tt.problem) {
			t.Errorf("FamilyProblem(%q) = %q, want %q", tt.rationale, got, tt.problem)
		}
	}
}

func TestWhitespaceIsPython(t *testing.T) {
	if got := Strip("\x1c\u3000 a \u2028\x1f"); got != "a" {
		t.Errorf("Strip = %q", got)
	}
	if len(Words("one\u00a0two\u2003three")) != 3 {
		t.Error("Words must split on Unicode whitespace")
	}
	if !IsWord('é') || !IsWord('_') || IsWord('-') {
		t.Error("IsWord is not Python's \\w")
	}
}

func FuzzPredicates(f *testing.F) {
	for _, s := range []string{
		"reader_reasoning: r. anchor: a", "evidence_family: f; correlation_model: single; anchor: a",
		"domains: a; b; c. anchor: x", "resolution_evidence: mechanism", "anchor:\n", "\xff anchor: \xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if AnchorTrailing(s) != (AnchorProblem(s) == "") {
			t.Fatalf("anchor predicate and problem disagree on %q", s)
		}
		if _, ok := ReaderReasoning(s); ok != (ReaderProblem(s) == "") {
			t.Fatalf("reader predicate and problem disagree on %q", s)
		}
		if _, ok := ParseFamily(s); ok != (FamilyProblem(s) == "") {
			t.Fatalf("family predicate and problem disagree on %q", s)
		}
		if _, ok := ResolutionClass(s); ok != (ResolutionProblem(s) == "") {
			t.Fatalf("resolution predicate and problem disagree on %q", s)
		}
		if (len(Domains(s)) >= 3) != (DomainsProblem(s) == "") {
			t.Fatalf("domains predicate and problem disagree on %q", s)
		}
		_ = DomainsRef(s)
		checkFastPaths(t, s)
	})
}

// placeholderSlow is IsPlaceholderAnchor as first written, lowering the
// whole reference: the oracle of its ASCII fast path.
func placeholderSlow(ref string) bool {
	r := strings.ToLower(strings.TrimFunc(ref, IsSpace))
	r = strings.TrimRight(r, ".;,")
	if utf8.RuneCountInString(r) < 3 || slices.Contains(placeholderWords[:], r) {
		return true
	}
	for _, p := range placeholderPrefixes {
		if strings.HasPrefix(r, p) {
			return true
		}
	}
	return false
}

// TestPlaceholderWordsFit holds the fast path's bound to the list: a word
// longer than maxPlaceholderWord would be missed in upper case.
func TestPlaceholderWordsFit(t *testing.T) {
	for _, w := range placeholderWords {
		if len(w) > maxPlaceholderWord {
			t.Errorf("placeholder word %q is longer than maxPlaceholderWord (%d): raise it", w, maxPlaceholderWord)
		}
		if s := strings.ToUpper(w) + "."; !IsPlaceholderAnchor(s) || !placeholderSlow(s) {
			t.Errorf("%q is not a placeholder anchor", s)
		}
	}
}

// checkFastPaths holds Strip, RStrip and IsPlaceholderAnchor, which skip
// work on ASCII, to what they stand for.
func checkFastPaths(t *testing.T, s string) {
	t.Helper()
	if got, want := Strip(s), strings.TrimFunc(s, IsSpace); got != want {
		t.Fatalf("Strip(%q) = %q, want %q", s, got, want)
	}
	if got, want := RStrip(s), strings.TrimRightFunc(s, IsSpace); got != want {
		t.Fatalf("RStrip(%q) = %q, want %q", s, got, want)
	}
	if got, want := IsPlaceholderAnchor(s), placeholderSlow(s); got != want {
		t.Fatalf("IsPlaceholderAnchor(%q) = %v, want %v", s, got, want)
	}
}

func TestFastPathsAgree(t *testing.T) {
	for _, s := range []string{"", " ", "\x1c", "a", " \u3000x\u00a0 ", "x \u2028", "\xff ", " \xff", "TODO", "todo: find the paper",
		"ToDo later please.", "FIXME-reference", "TBD;", "  n/a ;.", "Placeholder.", "PLACEHOLDERS", "placeholderx.", "ab.", "a\u0301b",
		"tbd\u00e9", "\u212a", "arXiv:1402.2301, section 4", "idea card", "todo\xff"} {
		checkFastPaths(t, s)
	}
}

func TestWordCount(t *testing.T) {
	for s, want := range map[string]int{
		"":                          0,
		"too short.":                2,
		"one\u00a0two\tthree  four": 4,
		"共振产生解释了谱线":                 9,
		"the 共振 model":              4,
	} {
		if got := WordCount(s); got != want {
			t.Errorf("WordCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// slowNormalize is NormalizeSentence without the ASCII fast path.
func slowNormalize(s string) string {
	s = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(s)
	s = strings.Join(strings.FieldsFunc(s, IsSpace), " ")
	s = strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || IsSpace(r) })
	return cases.Fold().String(s)
}

// TestASCIITables: the fast path's byte sets are exactly Python whitespace
// and Unicode punctuation restricted to ASCII, and A-Z is all that case
// folding changes there.
func TestASCIITables(t *testing.T) {
	for c := range 128 {
		r := rune(c)
		if asciiSpace.has(byte(c)) != IsSpace(r) {
			t.Errorf("space table wrong at %q", r)
		}
		if asciiPunct.has(byte(c)) != unicode.IsPunct(r) {
			t.Errorf("punct table wrong at %q", r)
		}
		if got := cases.Fold().String(string(r)); got != strings.ToLower(string(r)) {
			t.Errorf("fold(%q) = %q", r, got)
		}
	}
}

func TestNormalizeFastPathAgrees(t *testing.T) {
	cases := []string{"", " ", "...", "A.", "The idea merits sustained verification effort.",
		"  THE idea\tmerits\x1csustained verification effort ?! ", "a . b ,", "x_", "{[(a)]}", strings.Repeat("Ab ", 100)}
	for _, s := range cases {
		if got, want := NormalizeSentence(s), slowNormalize(s); got != want {
			t.Errorf("NormalizeSentence(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzNormalizeFastPath(f *testing.F) {
	f.Add("The idea merits sustained verification effort.")
	f.Add("a\x1f b ,.")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := NormalizeSentence(s), slowNormalize(s); got != want {
			t.Fatalf("NormalizeSentence(%q) = %q, want %q", s, got, want)
		}
		_, fast := StockSentence(s)
		slow := slices.Contains(normalizedStock.Get(), slowNormalize(s))
		if fast != slow {
			t.Fatalf("StockSentence(%q) = %v, want %v", s, fast, slow)
		}
	})
}

// TestStockSentenceAllocates nothing for ASCII content, matched or not:
// GAIA510 runs on every claim (issue 15: it once built a replacer and
// re-normalized all seven stock sentences per call).
func TestStockSentenceAllocatesNothing(t *testing.T) {
	StockSentence("warm up")
	for _, s := range []string{"The idea merits sustained verification effort.", "A specific claim about the world.", strings.Repeat("long ", 100)} {
		if n := testing.AllocsPerRun(100, func() { StockSentence(s) }); n != 0 {
			t.Errorf("StockSentence(%.20q...) allocates %v times", s, n)
		}
	}
}

func BenchmarkStockSentence(b *testing.B) {
	inputs := []string{
		"Stacked XMM-Newton spectra of 73 galaxy clusters show an unidentified line at 3.55 keV.",
		"The idea merits sustained verification effort.",
		"Die Idee verdient eine anhaltende Überprüfung.",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range inputs {
			StockSentence(s)
		}
	}
}

// wordCountSplit is WordCount as it was written first: split, then count.
func wordCountSplit(s string) int {
	n := 0
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }) {
		cjk := 0
		for _, r := range f {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				cjk++
			}
		}
		n += max(cjk, 1)
	}
	return n
}

func FuzzWordCount(f *testing.F) {
	for _, s := range []string{"", "a b  c", "日本語 です", "x\x1fy", "\u3000a\u00a0b", "\xff\xfe a", "한국어 문장", "ᄀᄁ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := WordCount(s), wordCountSplit(s); got != want {
			t.Fatalf("WordCount(%q) = %d, want %d", s, got, want)
		}
		if w, u := WordCount(s), WordCountUpTo(s, 5); (u < 5) != (w < 5) || (w < 5 && u != w) {
			t.Fatalf("WordCountUpTo(%q, 5) = %d, WordCount %d", s, u, w)
		}
		for _, r := range s {
			if IsSpace(r) != (unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)) {
				t.Fatalf("IsSpace(%q)", r)
			}
		}
	})
}

func TestWordCountAllocatesNothing(t *testing.T) {
	s := "the measured energy matches the predicted decay line of a sterile neutrino"
	if n := testing.AllocsPerRun(100, func() { WordCount(s) }); n != 0 {
		t.Errorf("WordCount allocates %v times", n)
	}
	if WordCount(s) != 12 {
		t.Errorf("WordCount = %d", WordCount(s))
	}
}

// TestMayBeStockHolds: the quick reject's premise, that every stock
// sentence normalizes to text starting with t or a.
func TestMayBeStockHolds(t *testing.T) {
	for _, s := range normalizedStock.Get() {
		if s[0] != 't' && s[0] != 'a' {
			t.Errorf("stock sentence %q starts with %q: update mayBeStock", s, s[0])
		}
	}
}

// sentinelKeys are the keys index and lastIndex search for.
var sentinelKeys = []string{AnchorKey, ReaderKey, DomainsKey, ResolutionKey, "evidence_family", "correlation_model", "anchor"}

// index and lastIndex agree with strings.Index and strings.LastIndex on
// every substring of notes built to trip them: keys at either end,
// overlapping, cut short, their rare byte before the key could start.
func TestIndexAgreesWithStrings(t *testing.T) {
	texts := []string{
		"reader_reasoning: r. anchor: a",
		"anchor:anchor: x_anchor:_: anchor :",
		"_evidence_family: a; correlation_model: single; anchor: b",
		"domains: a; b | c. resolution_evidence: mechanism anchor:",
		"::__evidence_famil_evidence_family_:correlation_mode_",
	}
	for _, text := range texts {
		for i := 0; i <= len(text); i++ {
			for j := i; j <= len(text); j++ {
				checkIndex(t, text[i:j])
			}
		}
	}
}

func FuzzIndex(f *testing.F) {
	f.Add("evidence_family: a; correlation_model: single; anchor: b")
	f.Add("anchor:anchor:_:")
	f.Fuzz(checkIndex)
}

// checkIndex compares index and lastIndex with the strings package on s
// for every sentinel key.
func checkIndex(t *testing.T, s string) {
	for _, key := range sentinelKeys {
		if got, want := index(s, key), strings.Index(s, key); got != want {
			t.Fatalf("index(%q, %q) = %d, want %d", s, key, got, want)
		}
		if got, want := lastIndex(s, key), strings.LastIndex(s, key); got != want {
			t.Fatalf("lastIndex(%q, %q) = %d, want %d", s, key, got, want)
		}
	}
}

// BenchmarkObserveNote runs the checks a passing observe rationale gets
// (trailing anchor, family declaration) on one of a few hundred bytes, as
// the benchmark corpora write them: each is a scan or two of the note.
func BenchmarkObserveNote(b *testing.B) {
	note := "evidence_family: prediction-3; correlation_model: single; " +
		strings.Repeat("Regime likelihood sample transformer excess resonance systematic baseline detector. ", 5) +
		"anchor: https://example.org/spectrum\n"
	for b.Loop() {
		if _, ok := AnchorRef(note); !ok {
			b.Fatal("no anchor")
		}
		if why := FamilyProblem(note); why != "" {
			b.Fatal(why)
		}
	}
}

// TestObserveNoteAllocatesNothing: the checks every observe rationale
// gets allocate nothing on a passing note (the family declarations are
// collected in a buffer on the stack).
func TestObserveNoteAllocatesNothing(t *testing.T) {
	note := "evidence_family: prediction-3; correlation_model: single; the detector saw it. anchor: https://example.org/spectrum\n"
	n := testing.AllocsPerRun(100, func() {
		ref, _ := AnchorRef(note)
		if IsPlaceholderAnchor(ref) || FamilyProblem(note) != "" {
			t.Fatal("the note should pass")
		}
	})
	if n != 0 {
		t.Errorf("checking an observe note allocates %v times", n)
	}
}
