package matchproto

import (
	"fmt"
	"github.com/nullius-dev/nullius/internal/pycase"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// ws is Python's Unicode whitespace class (§9: RE2's \s is ASCII only)
// and nonWS its complement.
const (
	ws    = `[` + PySpaceClass + `]`
	nonWS = `[^` + PySpaceClass + `]`
)

var (
	hashLineRE  = lazyre.New(`^criteria_commitment:` + ws + `*(sha256:[0-9a-f]{64})` + ws + `*$`)
	nodeLineRE  = lazyre.New(`^idea_node_id:` + ws + `*(` + nonWS + `+)` + ws + `*$`)
	headingRE   = lazyre.New(`^#{1,6}` + ws + `+(.*?)` + ws + `*#*` + ws + `*$`)
	tagRE       = lazyre.New(`^\[anchor:` + ws + `*(literature|computation)` + ws + `*->` + ws + `*([^\]` + PySpaceClass + `][^\]]*?)` + ws + `*\]` + ws + `*$`)
	schemeRefRE = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:` + nonWS + `+$`)
	pathRefRE   = lazyre.New(`^` + nonWS + `*/` + nonWS + `*$`)
	innerTagRE  = lazyre.New(`(?i)\[` + ws + `*anchor` + ws + `*:`)
)

// MaxWeaknesses bounds the "Honest weaknesses" section: the request asks
// for one or two limitations.
const MaxWeaknesses = 5

// NoArgumentLine is the line that marks a criterion without argument.
const NoArgumentLine = "No anchored argument under this criterion."

// StatementHashLine returns the hash declared on the first non-empty line
// of a statement ("" when that line is not a criteria_commitment line).
func StatementHashLine(text string) string {
	for _, l := range PySplitLines(text) {
		if s := PyStrip(l); s != "" {
			if m := hashLineRE.FindStringSubmatch(s); m != nil {
				return m[1]
			}
			return ""
		}
	}
	return ""
}

// StatementNodeLine returns the token of the first idea_node_id line
// anywhere in the statement ("" when there is none).
func StatementNodeLine(text string) string {
	for _, l := range PySplitLines(text) {
		if m := nodeLineRE.FindStringSubmatch(PyStrip(l)); m != nil {
			return m[1]
		}
	}
	return ""
}

// Argument is one anchored argument kept from a statement.
type Argument struct {
	Text, AnchorType, AnchorRef string
	Line                        int // 1-based line of the statement it came from
}

// Drop is a statement line the rebuild left out, with the exact rule that
// dropped it (issue 16: the reason was generic and the cause cut off).
type Drop struct {
	Line    int    // 1-based, as the parser splits the statement into lines
	Text    string // the line, stripped
	Section string // the committed criterion (or "Honest weaknesses") it sat under; "" outside any
	Why     string // the rule that dropped it
}

// String is "line 12: <why>: '<text>'", a text over 100 runes cut in the
// middle: the end of a line (a full stop after the tag) is often the cause.
func (d Drop) String() string {
	t := d.Text
	if r := []rune(t); len(r) > 100 {
		t = string(r[:60]) + "..." + string(r[len(r)-37:])
	}
	return fmt.Sprintf("line %d: %s: %s", d.Line, d.Why, pyfmt.Str(t))
}

// WeaknessSection is the title of the weakness section.
const WeaknessSection = "Honest weaknesses"

// Analysis is a parsed statement (§3.4).
type Analysis struct {
	Criteria   []string     // committed order
	Sections   [][]Argument // one per criterion
	Weaknesses []string
	Dropped    []Drop
	// Headed and Declared record, per criterion, that the statement has a
	// heading for it and that the author wrote NoArgumentLine under it:
	// a section that rebuilds empty without either is refused.
	Headed, Declared []bool
}

// Anchored returns the number of kept arguments.
func (a *Analysis) Anchored() int {
	n := 0
	for _, s := range a.Sections {
		n += len(s)
	}
	return n
}

// key is the heading-versus-criterion lookup key of the reference: NFKC,
// strip, lower, whitespace collapse.
func key(s string) string { return Collapse(pycase.Lower(PyStrip(norm.NFKC.String(s)))) }

// AnalyzeStatement parses a statement against the committed criteria and
// the side's allowed evidence (§3.4, §3.5), recording every line it drops
// with its line number and the rule that dropped it.
//
// Differences from the reference, each closing a weakness:
//   - NFKC is used to recognise structure (headings, tags, scaffold lines)
//     but argument text is kept as written (NFC), so E=mc², 10⁻³ eV, H₂O and
//     µs reach the judges unchanged (W10).
//   - A heading that names a criterion by its exact committed text wins over
//     the case-folded key, and a key shared by two criteria ("Cost"/"cost")
//     matches neither, instead of the later one silently (W11).
//   - A line carrying a second anchor tag is dropped as unanchored: the
//     reference verifies only the last tag and shows the first, unverified,
//     to the judges (W6).
//   - An anchor ref is matched against the card evidence exactly, or by NFKC
//     on both sides, and the rebuilt line carries the card's own spelling.
func AnalyzeStatement(text string, criteria []string, allowed map[string]bool) *Analysis {
	a := &Analysis{Criteria: criteria, Sections: make([][]Argument, len(criteria)),
		Headed: make([]bool, len(criteria)), Declared: make([]bool, len(criteria))}
	exact := map[string]int{}
	byKey := map[string]int{}
	for i, c := range criteria {
		exact[Collapse(norm.NFC.String(c))] = i
		k := key(c)
		if _, dup := byKey[k]; dup {
			byKey[k] = -1
		} else {
			byKey[k] = i
		}
	}
	const none, weakness = -1, -2
	current := none
	heading := ""    // the last heading that named nothing committed
	inFence := false // inside a fenced block of the weakness section
	section := func() string {
		switch current {
		case none:
			return ""
		case weakness:
			return WeaknessSection
		}
		return criteria[current]
	}
	for n, line := range PySplitLines(norm.NFC.String(text)) {
		stripped := PyStrip(line)
		if stripped == "" {
			continue
		}
		drop := func(why string, args ...any) {
			a.Dropped = append(a.Dropped, Drop{Line: n + 1, Text: stripped, Section: section(), Why: fmt.Sprintf(why, args...)})
		}
		folded := PyStrip(norm.NFKC.String(stripped))
		if m := headingRE.FindStringSubmatch(folded); m != nil {
			title := Collapse(norm.NFC.String(headingTitle(stripped, m[1])))
			if i, ok := exact[title]; ok {
				current = i
			} else if i, ok := byKey[key(m[1])]; ok && i >= 0 {
				current = i
			} else if key(m[1]) == "honest weaknesses" {
				current = weakness
			} else {
				current, heading = none, title
			}
			if current >= 0 {
				a.Headed[current] = true
			}
			inFence = false
			continue
		}
		if hashLineRE.MatchString(folded) || nodeLineRE.MatchString(folded) {
			continue
		}
		if current == weakness {
			// W17: the reference keeps any number of weakness lines of any
			// content. A weakness is a prose line: fence markers and lines
			// past MaxWeaknesses are dropped and counted.
			marker := strings.HasPrefix(folded, "```") || strings.HasPrefix(folded, "~~~")
			switch {
			case marker && !inFence:
				inFence = true
				drop("a code fence in the weakness section (weaknesses are prose lines)")
			case marker:
				inFence = false
				drop("a code fence in the weakness section (weaknesses are prose lines)")
			case inFence:
				drop("inside a code fence in the weakness section (weaknesses are prose lines)")
			case len(a.Weaknesses) >= MaxWeaknesses:
				drop("past the %d-weakness limit of the weakness section", MaxWeaknesses)
			default:
				a.Weaknesses = append(a.Weaknesses, stripped)
			}
			continue
		}
		if folded == NoArgumentLine {
			if current >= 0 {
				a.Declared[current] = true
			}
			continue
		}
		if current == none {
			drop("%s", outsideSection(folded, heading, byKey, criteria))
			continue
		}
		arg, why := parseAnchored(stripped, allowed)
		if why != "" {
			if i, ok := headingLabel(folded, byKey); ok && !anchorStartRE.MatchString(folded) {
				why = fmt.Sprintf("reads like the heading of criterion %s but is not one; write it as '## %s'", pyfmt.Str(criteria[i]), criteria[i])
			}
			drop("%s", why)
			continue
		}
		arg.Line = n + 1
		a.Sections[current] = append(a.Sections[current], arg)
	}
	return a
}

// outsideSection says why a line outside any committed section is dropped,
// naming the heading it was meant to be when it reads like one (W13:
// "**Tension resolution**", "Tension resolution:", "## 1. Tension
// resolution").
func outsideSection(folded, heading string, byKey map[string]int, criteria []string) string {
	if i, ok := headingLabel(folded, byKey); ok {
		return fmt.Sprintf("reads like the heading of criterion %s but is not one; write it as '## %s'", pyfmt.Str(criteria[i]), criteria[i])
	}
	if heading != "" {
		if i, ok := byKey[key(headingLike(heading))]; ok && i >= 0 {
			return fmt.Sprintf("under the heading %s, which is not criterion %s as committed; write the heading as '## %s'", pyfmt.Str(heading), pyfmt.Str(criteria[i]), criteria[i])
		}
		return fmt.Sprintf("under the heading %s, which names no committed criterion", pyfmt.Str(heading))
	}
	return "before the first criterion heading (every argument sits under a '## <criterion>' heading)"
}

// headingLabel finds a criterion named as a heading would be, at the start
// of a line that is not one: "**Tension resolution**", "Tension
// resolution:", "**Tension resolution**: some text".
func headingLabel(folded string, byKey map[string]int) (int, bool) {
	label := strings.TrimLeft(folded, "*_ ")
	if j := strings.IndexAny(label, "*:："); j > 0 {
		label = label[:j]
	}
	for _, s := range []string{folded, label} {
		if i, ok := byKey[key(headingLike(s))]; ok && i >= 0 {
			return i, true
		}
	}
	return 0, false
}

// headingLike strips what authors put around a heading's text: numbering
// ("1.", "2)"), bold or italic markers and a trailing colon.
func headingLike(s string) string {
	s = strings.Trim(PyStrip(s), "*_ ")
	s = strings.TrimRight(s, ":：")
	s = strings.TrimLeft(s, "0123456789")
	s = strings.TrimLeft(s, ".) ")
	return strings.Trim(s, "*_ ")
}

// headingTitle returns the heading title as written when the NFKC form of
// the line equals the line (the common case); otherwise the NFKC title.
func headingTitle(stripped, foldedTitle string) string {
	if m := headingRE.FindStringSubmatch(stripped); m != nil {
		return m[1]
	}
	return foldedTitle
}

// parseAnchored recognises "<body> [anchor: literature|computation ->
// <ref>]" at the end of a stripped line (§3.5) whose ref is one of the
// allowed evidence entries, or says why the line is not such an anchored
// argument ("" when it is). The tag may use compatibility forms (fullwidth
// brackets) as in the reference; the body is kept as written.
func parseAnchored(stripped string, allowed map[string]bool) (Argument, string) {
	for i := 0; i < len(stripped); i++ {
		// '[' or the first byte of U+FF3B FULLWIDTH LEFT SQUARE BRACKET.
		if stripped[i] != '[' && !strings.HasPrefix(stripped[i:], "［") {
			continue
		}
		// Cheap pre-check on a short window keeps a line full of brackets
		// from costing one full normalization per bracket.
		if !strings.HasPrefix(norm.NFKC.String(window(stripped[i:], 48)), "[anchor:") {
			continue
		}
		m := tagRE.FindStringSubmatch(norm.NFKC.String(stripped[i:]))
		if m == nil {
			continue
		}
		body := PyRStrip(stripped[:i])
		if body == "" {
			return Argument{}, "an anchor tag with no argument before it"
		}
		if innerTagRE.MatchString(norm.NFKC.String(body)) {
			return Argument{}, "two anchor tags on one line (one argument, one tag per line)"
		}
		ref := PyStrip(m[2])
		if !schemeRefRE.MatchString(ref) && !pathRefRE.MatchString(ref) {
			return Argument{}, fmt.Sprintf("anchor ref %s is neither scheme:value nor a path with '/' (no spaces)", pyfmt.Str(ref))
		}
		ev, ok := matchEvidence(ref, allowed)
		if !ok {
			return Argument{}, fmt.Sprintf("anchor ref %s is not one of the card's evidence entries (copy one verbatim from the card summary)", pyfmt.Str(ref))
		}
		return Argument{Text: body, AnchorType: m[1], AnchorRef: ev}, ""
	}
	return Argument{}, tagProblem(norm.NFKC.String(stripped))
}

// Malformed anchor tags: anchorStartRE finds "[anchor" in any case and
// spacing; badTagRE takes the last one apart (type word, arrow, ref,
// closing bracket, what follows).
var (
	anchorStartRE = lazyre.New(`(?i)\[` + ws + `*anchor`)
	badTagRE      = lazyre.New(`(?is)^\[` + ws + `*anchor` + ws + `*:?` + ws + `*([^\]\-→=>\t\n\v\f\r\x1c-\x20]*)` + ws + `*(->|→|=>|>|-)?` + ws + `*([^\]]*)(\]?)(.*)$`)
)

// tagProblem says what is wrong with a line that carries no valid anchor
// tag, naming the W13 traps the statement request warns about.
func tagProblem(folded string) string {
	const want = "end the line with [anchor: literature -> REF] or [anchor: computation -> REF]"
	starts := anchorStartRE.FindAllStringIndex(folded, -1)
	if starts == nil {
		return "no anchor tag; " + want
	}
	tail := folded[starts[len(starts)-1][0]:]
	m := badTagRE.FindStringSubmatch(tail)
	if m == nil {
		return "the anchor tag does not read [anchor: literature|computation -> REF]"
	}
	typ, arrow, ref, closed, after := m[1], m[2], PyStrip(m[3]), m[4], PyStrip(m[5])
	switch {
	case closed == "":
		return "the anchor tag is not closed with ']'"
	case after != "":
		return fmt.Sprintf("text after the anchor tag's closing bracket (%s); nothing may follow ']', not even a full stop", pyfmt.Str(after))
	case !strings.HasPrefix(tail, "[anchor:"):
		return "the tag must open exactly '[anchor:' (lowercase, with the colon)"
	case typ == "":
		return "the anchor tag has no type; " + want
	case typ != "literature" && typ != "computation" && (pycase.Lower(typ) == "literature" || pycase.Lower(typ) == "computation"):
		return fmt.Sprintf("anchor type %s must be lowercase (%s)", pyfmt.Str(typ), pycase.Lower(typ))
	case typ != "literature" && typ != "computation":
		return fmt.Sprintf("anchor type %s is neither literature nor computation", pyfmt.Str(typ))
	case arrow == "":
		return "the anchor tag has no '->' between its type and its ref"
	case arrow != "->":
		return fmt.Sprintf("the anchor tag uses %s where it needs '->'", pyfmt.Str(arrow))
	case ref == "":
		return "the anchor tag has no ref after '->'"
	}
	return "the anchor tag does not read [anchor: literature|computation -> REF]"
}

func matchEvidence(ref string, allowed map[string]bool) (string, bool) {
	if allowed[ref] {
		return ref, true
	}
	for ev := range allowed {
		if norm.NFKC.String(ev) == ref {
			return ev, true
		}
	}
	return "", false
}

// Rebuild renders the statement from its validated elements (§3.6).
func Rebuild(label, nodeID, hash string, a *Analysis) string {
	var b strings.Builder
	fmt.Fprintf(&b, "criteria_commitment: %s\nidea_node_id: %s\n\n# Advocacy statement: Idea %s\n\n", hash, nodeID, strings.ToUpper(label))
	for i, c := range a.Criteria {
		fmt.Fprintf(&b, "## %s\n\n", c)
		if len(a.Sections[i]) == 0 {
			b.WriteString(NoArgumentLine + "\n")
		}
		for _, arg := range a.Sections[i] {
			fmt.Fprintf(&b, "%s [anchor: %s -> %s]\n", arg.Text, arg.AnchorType, arg.AnchorRef)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Honest weaknesses\n\n")
	if len(a.Weaknesses) == 0 {
		b.WriteString("- None stated.\n")
	}
	for _, w := range a.Weaknesses {
		fmt.Fprintf(&b, "- %s\n", w)
	}
	return PyRStrip(b.String()) + "\n"
}

// WordCount counts Python whitespace tokens.
func WordCount(s string) int { return len(PyFields(s)) }

// Verified is a statement that passed §3.2.
type Verified struct {
	Rebuilt   string
	NodeID    string
	Discarded int
	Analysis  *Analysis
}

// VerifyStatement applies §3.2 to statement_<label>.md: node line, parse,
// at least one anchored argument, rebuild, word cap. The two hard stops
// (zero anchors, over the cap) and a missing node line are errors; every
// other defect only drops elements and is counted.
func VerifyStatement(label, text, hash string, criteria []string, allowed map[string]bool, wordCap int) (*Verified, error) {
	return verify(label, text, hash, criteria, allowed, nil, wordCap)
}

// VerifyAgainstSummary is VerifyStatement with the side's card summary as
// the source of evidence, and with the anchor type checked against the
// support type of the claim that carries the evidence (W2): a literature
// tag must cite evidence of a literature (or expert_consensus) claim, a
// computation tag evidence of a computation, calculation or data claim.
// Evidence of llm_inference or assumption claims anchors nothing.
func VerifyAgainstSummary(label, text, hash string, criteria []string, summary string, wordCap int) (*Verified, error) {
	types := SummaryEvidenceTypes(summary)
	allowed := map[string]bool{}
	for ev := range types {
		allowed[ev] = true
	}
	return verify(label, text, hash, criteria, allowed, types, wordCap)
}

// AnchorTypeFits reports whether an anchor type may cite evidence of a
// claim with the given support type.
func AnchorTypeFits(anchorType, supportType string) bool {
	switch anchorType {
	case "literature":
		return supportType == "literature" || supportType == "expert_consensus"
	case "computation":
		return supportType == "computation" || supportType == "calculation" || supportType == "data"
	}
	return false
}

func verify(label, text, hash string, criteria []string, allowed map[string]bool, types map[string][]string, wordCap int) (*Verified, error) {
	name := "statement_" + label + ".md"
	node := StatementNodeLine(text)
	if node == "" {
		return nil, fmt.Errorf("%s does not carry an 'idea_node_id:' line; the statement must name the node it argues for", name)
	}
	a := AnalyzeStatement(text, criteria, allowed)
	if types != nil {
		a.dropMistyped(types)
	}
	if a.Anchored() == 0 {
		first := ""
		if len(a.Dropped) > 0 {
			first = "; the first: " + a.Dropped[0].String()
		}
		return nil, fmt.Errorf("%s has no anchored argument line that matches the card's evidence (%s discarded%s); a statement with zero card-anchored merit claims cannot enter the panel", name, plural.N(len(a.Dropped), "line"), first)
	}
	rebuilt := Rebuild(label, node, hash, a)
	if n := WordCount(rebuilt); n > wordCap {
		return nil, fmt.Errorf("%s rebuilds to %d words, over the %d-word cap; shorten the arguments (the count includes the rebuilt scaffolding)", name, n, wordCap)
	}
	if err := a.requireSections(name); err != nil {
		return nil, err
	}
	return &Verified{Rebuilt: rebuilt, NodeID: node, Discarded: len(a.Dropped), Analysis: a}, nil
}

// requireSections refuses a statement whose committed criterion section
// would reach the judges as "No anchored argument under this criterion."
// although its author did not write that line: the section is missing, or
// every line of it was dropped (issue 16: the panel ran with the empty
// section). A weakness section whose every line was dropped is refused
// too. The message names each dropped line with its rule.
func (a *Analysis) requireSections(name string) error {
	var empty []string
	for i, c := range a.Criteria {
		if len(a.Sections[i]) == 0 && !a.Declared[i] {
			empty = append(empty, c)
		}
	}
	if len(a.Weaknesses) == 0 && len(a.droppedIn(WeaknessSection)) > 0 {
		empty = append(empty, WeaknessSection)
	}
	if len(empty) == 0 {
		return nil
	}
	c := empty[0]
	more := ""
	if len(empty) > 1 {
		more = fmt.Sprintf(" (and %s: %s)", plural.N(len(empty)-1, "other section"), strings.Join(quoteAll(empty[1:]), ", "))
	}
	i := slices.Index(a.Criteria, c)
	if i >= 0 && !a.Headed[i] {
		return fmt.Errorf("%s has no '## %s' section%s; give every committed criterion its heading, exactly as committed, and write %s under it when there is nothing to argue",
			name, c, more, pyfmt.Str(NoArgumentLine))
	}
	drops := a.droppedIn(c)
	if len(drops) == 0 {
		return fmt.Errorf("%s: the '## %s' section is empty%s; argue under it, or write %s under the heading when there is nothing to argue",
			name, c, more, pyfmt.Str(NoArgumentLine))
	}
	var lines []string
	for j, d := range drops {
		if j == 3 {
			lines = append(lines, fmt.Sprintf("and %d more", len(drops)-3))
			break
		}
		lines = append(lines, d.String())
	}
	fix := fmt.Sprintf("fix the dropped lines, or write %s under the heading when there is nothing to argue", pyfmt.Str(NoArgumentLine))
	if c == WeaknessSection {
		fix = "write the weaknesses as prose lines, one per limitation"
	}
	return fmt.Errorf("%s: the '## %s' section rebuilds empty%s, every line of it dropped (%s); %s",
		name, c, more, strings.Join(lines, "; "), fix)
}

// droppedIn returns the dropped lines that sat in section.
func (a *Analysis) droppedIn(section string) []Drop {
	var out []Drop
	for _, d := range a.Dropped {
		if d.Section == section {
			out = append(out, d)
		}
	}
	return out
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = pyfmt.Str(s)
	}
	return out
}

// window returns at most n bytes of s, cut at a rune boundary.
func window(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// dropMistyped moves arguments whose anchor type does not fit any claim
// carrying their evidence to the dropped lines.
func (a *Analysis) dropMistyped(types map[string][]string) {
	for i, sec := range a.Sections {
		kept := sec[:0:0]
		for _, arg := range sec {
			if slices.ContainsFunc(types[arg.AnchorRef], func(st string) bool { return AnchorTypeFits(arg.AnchorType, st) }) {
				kept = append(kept, arg)
				continue
			}
			a.Dropped = append(a.Dropped, Drop{Line: arg.Line, Section: a.Criteria[i],
				Text: fmt.Sprintf("%s [anchor: %s -> %s]", arg.Text, arg.AnchorType, arg.AnchorRef),
				Why: fmt.Sprintf("anchor type %s does not fit the card claim that carries %s (support %s); literature cites literature or expert_consensus claims, computation cites computation, calculation or data claims",
					arg.AnchorType, pyfmt.Str(arg.AnchorRef), strings.Join(types[arg.AnchorRef], "/"))})
		}
		a.Sections[i] = kept
	}
	slices.SortStableFunc(a.Dropped, func(x, y Drop) int { return x.Line - y.Line })
}

// CheckCriteriaHeadings refuses a criterion whose heading key is the
// weakness sentinel: in the reference such a section can never receive
// arguments, or the weakness section becomes unreachable (W11).
func CheckCriteriaHeadings(criteria []string) error {
	for _, c := range criteria {
		if key(c) == "honest weaknesses" {
			return fmt.Errorf("criterion %s collides with the 'Honest weaknesses' section heading; commit the criteria under another name", pyfmt.Str(c))
		}
	}
	return nil
}
