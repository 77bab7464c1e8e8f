package output

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/lazyre"
)

// SARIF 2.1.0 as GitHub code scanning reads it (the supported-property
// table of GitHub's SARIF support page marks more fields required than the
// SARIF spec does; ecosystem.md §7.1). Only the objects nullius fills are
// modelled.
const (
	sarifSchema    = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion   = "2.1.0"
	informationURI = "https://github.com/nullius-dev/nullius"
	rulesDocURI    = informationURI + "/blob/main/docs/rules.md"
	srcRootID      = "%SRCROOT%"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	AutomationDetails  *sarifAutomation            `json:"automationDetails,omitempty"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	// ColumnKind: our columns count UTF-8 bytes, which is neither SARIF
	// kind, so the printer converts them to code points from the file
	// content and says unicodeCodePoints (see sarifRegion).
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifHelp      `json:"help"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConf  `json:"defaultConfiguration"`
	Properties           *sarifRuleProp `json:"properties,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRuleConf struct {
	Level string `json:"level"`
}

type sarifRuleProp struct {
	Tags []string `json:"tags,omitempty"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	Properties          *sarifResultProp   `json:"properties,omitempty"`
}

// sarifFix is one suggested fix (SARIF 2.1.0 §3.55): the diagnostic's
// byte-range edits as replacements of byte regions of the flagged file.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifByteRegion `json:"deletedRegion"`
	InsertedContent *sarifText      `json:"insertedContent,omitempty"`
}

// sarifByteRegion is a region given by byte offset and length, exact
// whatever the encoding of the file (SARIF §3.30.12-13).
type sarifByteRegion struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifSuppression struct {
	Kind string `json:"kind"`
}

type sarifResultProp struct {
	Name    string `json:"name,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

// writeSARIF prints one SARIF run with the rule metadata of every
// registered rule (plus a minimal descriptor for any code the registry
// does not know, so the log stays valid) and one result per finding.
// Suppressed findings are kept, with an inSource suppression, which is how
// GitHub learns they were dismissed in the code.
func writeSARIF(w io.Writer, ds []diag.Diagnostic, meta Meta) error {
	rules, index := sarifRules(ds)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "nullius",
			Version:         meta.version(),
			SemanticVersion: semver(meta.version()),
			InformationURI:  informationURI,
			Rules:           rules,
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	if meta.Command != "" {
		// GitHub reads automationDetails.id as "category/run-id"; one
		// category per command keeps lint and validate alerts apart.
		run.AutomationDetails = &sarifAutomation{ID: "nullius/" + strings.ReplaceAll(meta.Command, " ", "-") + "/"}
	}
	if root := cmp.Or(meta.SrcRoot, meta.WorkDir); root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRootID: {URI: dirURI(root)}}
	}
	src := newSources(meta.ReadFile)
	seen := map[string]int{}
	for _, d := range ds {
		run.Results = append(run.Results, sarifResultFor(d, index[d.Code], meta, src, seen))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func sarifResultFor(d diag.Diagnostic, ruleIndex int, meta Meta, src *sources, seen map[string]int) sarifResult {
	uri, rel := artifactURI(d.Path, meta)
	loc := sarifArtifactLoc{URI: uri}
	if rel {
		loc.URIBaseID = srcRootID
	}
	r := sarifResult{
		RuleID:    d.Code,
		RuleIndex: ruleIndex,
		Level:     sarifLevel(d.Severity),
		Message:   sarifText{Text: cmp.Or(d.Message, d.Code)},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: loc,
			Region:           sarifRegionFor(d, src),
		}}},
		PartialFingerprints: fingerprints(d, uri, src, seen),
	}
	if d.Suppressed {
		r.Suppressions = []sarifSuppression{{Kind: "inSource"}}
	}
	for _, f := range d.Fixes {
		change := sarifArtifactChange{ArtifactLocation: loc, Replacements: []sarifReplacement{}}
		for _, e := range f.Edits {
			rep := sarifReplacement{DeletedRegion: sarifByteRegion{ByteOffset: e.Start, ByteLength: e.End - e.Start}}
			if e.NewText != "" {
				rep.InsertedContent = &sarifText{Text: e.NewText}
			}
			change.Replacements = append(change.Replacements, rep)
		}
		r.Fixes = append(r.Fixes, sarifFix{Description: sarifText{Text: f.Message}, ArtifactChanges: []sarifArtifactChange{change}})
	}
	if d.Name != "" || d.Pointer != "" {
		r.Properties = &sarifResultProp{Name: d.Name, Pointer: d.Pointer}
	}
	return r
}

// sarifRegionFor converts the finding's byte columns into code-point
// columns using the flagged lines. When a line cannot be read the region
// keeps only its lines: SARIF then means "the whole line", which is true,
// where a byte column passed off as a character column might not be.
func sarifRegionFor(d diag.Diagnostic, src *sources) *sarifRegion {
	if d.Line < 1 {
		return nil // a finding about the whole file
	}
	reg := &sarifRegion{StartLine: d.Line}
	if d.EndLine >= d.Line {
		reg.EndLine = d.EndLine
	}
	startText, okStart := src.line(d.Path, d.Line)
	if d.Column < 1 || !okStart {
		return reg
	}
	reg.StartColumn = runeColumn(startText, d.Column)
	endLine := d.EndLine
	if endLine < d.Line {
		endLine = d.Line
	}
	if d.EndColumn >= 1 {
		if endText, ok := src.line(d.Path, endLine); ok {
			reg.EndColumn = runeColumn(endText, d.EndColumn)
		}
	}
	if reg.EndLine == d.Line && reg.EndColumn != 0 && reg.EndColumn < reg.StartColumn {
		reg.EndColumn = 0 // an inverted range: keep the start only
	}
	return reg
}

var spaceRun = lazyre.New(`\s+`)

// fingerprints gives GitHub a stable identity for the alert that survives
// code moving up or down the file:
//
//   - primaryLocationLineHash: sha256 of the rule code and the flagged
//     line's text with whitespace runs collapsed (the message, pointer and
//     path when the text is unknown), 16 hex digits, then ":n" for the n-th
//     identical hash in this file, as GitHub's own format has it;
//   - nullius/logicalKey/v1: sha256 of code, path and the logical place
//     (the JSON pointer, or the message, which quotes the offending value),
//     with the same ":n" counter. This is the key a baseline can reuse.
func fingerprints(d diag.Diagnostic, uri string, src *sources, seen map[string]int) map[string]string {
	var lineKey string
	if text, ok := src.line(d.Path, d.Line); ok && d.Line > 0 {
		lineKey = d.Code + "\x00" + strings.TrimSpace(spaceRun.ReplaceAllString(string(text), " "))
	} else {
		lineKey = d.Code + "\x00" + d.Pointer + "\x00" + d.Message
	}
	lh := shortHash(lineKey, 16)
	seen["l\x00"+uri+"\x00"+lh]++
	logical := shortHash(d.Code+"\x00"+uri+"\x00"+cmp.Or(d.Pointer, d.Message), 32)
	seen["k\x00"+logical]++
	return map[string]string{
		"primaryLocationLineHash": lh + ":" + strconv.Itoa(seen["l\x00"+uri+"\x00"+lh]),
		"nullius/logicalKey/v1":   logical + ":" + strconv.Itoa(seen["k\x00"+logical]),
	}
}

func shortHash(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:n]
}

// sarifRules lists every registered rule plus a minimal descriptor for
// unregistered codes in ds, sorted by code, and maps code to index.
func sarifRules(ds []diag.Diagnostic) ([]sarifRule, map[string]int) {
	// A retired code is never reported: it has no descriptor.
	all := slices.DeleteFunc(diag.All(), func(r diag.Rule) bool { return r.Retired != "" })
	known := map[string]bool{}
	for _, r := range all {
		known[r.Code] = true
	}
	for _, d := range ds {
		if !known[d.Code] {
			known[d.Code] = true
			all = append(all, diag.Rule{Code: d.Code, Name: d.Name, Severity: d.Severity})
		}
	}
	sortRules(all)
	out := make([]sarifRule, len(all))
	index := make(map[string]int, len(all))
	for i, r := range all {
		out[i] = sarifRuleFor(r)
		index[r.Code] = i
	}
	return out, index
}

func sarifRuleFor(r diag.Rule) sarifRule {
	short := cmp.Or(r.Title, r.Code)
	full := cmp.Or(r.Text, short)
	sr := sarifRule{
		ID:                   r.Code,
		Name:                 r.Name,
		ShortDescription:     sarifText{Text: short},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifHelp{Text: ruleHelpText(r), Markdown: ruleHelpMarkdown(r)},
		DefaultConfiguration: sarifRuleConf{Level: sarifLevel(r.Severity)},
	}
	if r.Title != "" {
		sr.HelpURI = RuleURL(r)
	}
	if r.Origin != "" {
		sr.Properties = &sarifRuleProp{Tags: []string{r.Origin}}
	}
	return sr
}

// sarifLevel maps our two severities onto SARIF's levels; anything else
// (never produced today) becomes a note rather than an invalid level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

var semverRE = lazyre.New(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// semver returns v without a leading "v" when it is a semantic version,
// else "" (GitHub compares semanticVersion to tell tool changes apart).
func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	if semverRE.MatchString(v) {
		return v
	}
	return ""
}
