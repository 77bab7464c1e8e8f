package matchproto

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// ws is Python's Unicode whitespace class (§9: RE2's \s is ASCII only).
const ws = `[\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

var (
	hashLineRE  = lazyre.New(`^criteria_commitment:` + ws + `*(sha256:[0-9a-f]{64})` + ws + `*$`)
	nodeLineRE  = lazyre.New(`^idea_node_id:` + ws + `*([^\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]+)` + ws + `*$`)
	headingRE   = lazyre.New(`^#{1,6}` + ws + `+(.*?)` + ws + `*#*` + ws + `*$`)
	tagRE       = lazyre.New(`^\[anchor:` + ws + `*(literature|computation)` + ws + `*->` + ws + `*([^\]\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}][^\]]*?)` + ws + `*\]` + ws + `*$`)
	schemeRefRE = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:[^\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]+$`)
	pathRefRE   = lazyre.New(`^[^\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]*/[^\t\n\v\f\r\x1c-\x20\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]*$`)
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
}

// Analysis is a parsed statement (§3.4).
type Analysis struct {
	Criteria   []string     // committed order
	Sections   [][]Argument // one per criterion
	Weaknesses []string
	Unanchored []string
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
func key(s string) string { return Collapse(PyLower(PyStrip(norm.NFKC.String(s)))) }

// AnalyzeStatement parses a statement against the committed criteria and
// the side's allowed evidence (§3.4, §3.5).
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
	a := &Analysis{Criteria: criteria, Sections: make([][]Argument, len(criteria))}
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
	inFence := false // inside a fenced block of the weakness section
	for _, line := range PySplitLines(norm.NFC.String(text)) {
		stripped := PyStrip(line)
		if stripped == "" {
			continue
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
				current = none
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
			if marker {
				inFence = !inFence
			}
			if marker || inFence || len(a.Weaknesses) >= MaxWeaknesses {
				a.Unanchored = append(a.Unanchored, stripped)
				continue
			}
			a.Weaknesses = append(a.Weaknesses, stripped)
			continue
		}
		if folded == NoArgumentLine {
			continue
		}
		if current == none {
			a.Unanchored = append(a.Unanchored, stripped)
			continue
		}
		arg, ok := ParseAnchoredLine(stripped, allowed)
		if !ok {
			a.Unanchored = append(a.Unanchored, stripped)
			continue
		}
		a.Sections[current] = append(a.Sections[current], arg)
	}
	return a
}

// headingTitle returns the heading title as written when the NFKC form of
// the line equals the line (the common case); otherwise the NFKC title.
func headingTitle(stripped, foldedTitle string) string {
	if m := headingRE.FindStringSubmatch(stripped); m != nil {
		return m[1]
	}
	return foldedTitle
}

// ParseAnchoredLine recognises "<body> [anchor: literature|computation ->
// <ref>]" at the end of a stripped line (§3.5) whose ref is one of the
// allowed evidence entries. The tag may use compatibility forms (fullwidth
// brackets) as in the reference; the body is kept as written.
func ParseAnchoredLine(stripped string, allowed map[string]bool) (Argument, bool) {
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
		if body == "" || innerTagRE.MatchString(norm.NFKC.String(body)) {
			return Argument{}, false
		}
		ref := PyStrip(m[2])
		if !schemeRefRE.MatchString(ref) && !pathRefRE.MatchString(ref) {
			return Argument{}, false
		}
		ev, ok := matchEvidence(ref, allowed)
		if !ok {
			return Argument{}, false
		}
		return Argument{Text: body, AnchorType: m[1], AnchorRef: ev}, true
	}
	return Argument{}, false
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
		return nil, fmt.Errorf("%s has no anchored argument line that matches the card's evidence (%d line(s) discarded); a statement with zero card-anchored merit claims cannot enter the panel", name, len(a.Unanchored))
	}
	rebuilt := Rebuild(label, node, hash, a)
	if n := WordCount(rebuilt); n > wordCap {
		return nil, fmt.Errorf("%s rebuilds to %d words, over the %d-word cap; shorten the arguments (the count includes the rebuilt scaffolding)", name, n, wordCap)
	}
	return &Verified{Rebuilt: rebuilt, NodeID: node, Discarded: len(a.Unanchored), Analysis: a}, nil
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
// carrying their evidence to the unanchored list.
func (a *Analysis) dropMistyped(types map[string][]string) {
	for i, sec := range a.Sections {
		kept := sec[:0:0]
		for _, arg := range sec {
			if slices.ContainsFunc(types[arg.AnchorRef], func(st string) bool { return AnchorTypeFits(arg.AnchorType, st) }) {
				kept = append(kept, arg)
				continue
			}
			a.Unanchored = append(a.Unanchored, fmt.Sprintf("%s [anchor: %s -> %s]", arg.Text, arg.AnchorType, arg.AnchorRef))
		}
		a.Sections[i] = kept
	}
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
