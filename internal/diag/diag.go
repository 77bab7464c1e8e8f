// Package diag holds the one diagnostics model every nullius check reports
// through, and the rule registry: the catalogue of stable rule codes with the
// documentation that `nullius rules`, `nullius explain` and SARIF rule
// metadata are generated from.
//
// The registry is the only package-level mutable state nullius allows. Each
// rule is declared once, as a package-level variable of the family that
// checks it (`var GAIA011 = &diag.Rule{Owner: string(family), ...}`,
// static data the linker lays out, so declaring it runs no code at start),
// and checks report that variable, never a code string, so a misspelt code
// does not compile. The family lists its variables in one function and
// declares that function (`var _ = family.Declare(ruleList)`); the
// registry calls it when the catalogue is first read. Nothing registers
// after main starts.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Severity says whether a finding blocks the gate.
type Severity string

const (
	// Error findings block the gate: exit 1, extraction refuses, writeback refuses.
	Error Severity = "error"
	// Warning findings are review flags: reported, never blocking.
	Warning Severity = "warning"
)

// Diagnostic is the single record every check reports, source or artifact.
// Positions are 1-based; columns count UTF-8 bytes. Pointer is the RFC 6901
// JSON pointer for findings in JSON artifacts, empty for source findings.
type Diagnostic struct {
	Code       string   `json:"code"`
	Name       string   `json:"name"`
	Severity   Severity `json:"severity"`
	Path       string   `json:"path"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	EndLine    int      `json:"end_line"`
	EndColumn  int      `json:"end_column"`
	Pointer    string   `json:"pointer"`
	Message    string   `json:"message"`
	Suppressed bool     `json:"suppressed"`
	// Fixes are optional machine-applicable edits, byte ranges of the file
	// at Path. They are not part of the version-1 JSON record; `lint --fix`
	// and `--diff` apply the first one (analyzers/fix, safe fixes only),
	// SARIF carries them as fixes[], and the language server offers them as
	// quick fixes.
	Fixes []Fix `json:"-"`
}

// Fix is a suggested edit: a verb phrase for the user plus byte-range edits.
type Fix struct {
	Message string
	Edits   []Edit
}

// Edit replaces bytes [Start, End) of the file at Path with NewText.
type Edit struct {
	Start, End int
	NewText    string
}

// String renders the text-format line `path:line:col: CODE message`.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s", d.Path, d.Line, d.Column, d.Code, d.Message)
}

// Blocking reports whether the finding fails the gate: an unsuppressed error.
func (d Diagnostic) Blocking() bool { return d.Severity == Error && !d.Suppressed }

// Less orders diagnostics by path, line, column, code, then message.
func Less(a, b Diagnostic) int {
	return cmp.Or(
		strings.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		strings.Compare(a.Code, b.Code),
		strings.Compare(a.Pointer, b.Pointer),
		strings.Compare(a.Message, b.Message),
	)
}

// SortDedup sorts ds in place (path, line, column, code) and removes exact
// duplicates. Every printer receives diagnostics in this order.
func SortDedup(ds []Diagnostic) []Diagnostic {
	slices.SortStableFunc(ds, Less)
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		return Less(a, b) == 0 && a.Severity == b.Severity && a.Suppressed == b.Suppressed
	})
}

// HasBlocking reports whether any diagnostic is an unsuppressed error.
func HasBlocking(ds []Diagnostic) bool {
	return slices.ContainsFunc(ds, Diagnostic.Blocking)
}

// Rule documents one stable rule code. The same struct feeds `nullius rules`,
// `nullius explain`, SARIF rules[] and docs/rules.md.
type Rule struct {
	Code     string   `json:"code"`     // e.g. GAIA011; never reused
	Name     string   `json:"name"`     // kebab-case slug, e.g. infer-off-grade-pair
	Severity Severity `json:"severity"` // default severity
	Title    string   `json:"title"`    // one line, lowercase, no period, ~60 letters
	Text     string   `json:"text"`     // what it checks and why, and how to fix
	Bad      string   `json:"bad"`      // a failing example
	Good     string   `json:"good"`     // a passing example
	// Input names the file the examples are when they are not the Python
	// module of a package: "commitment.json", ".gaia/ir.json" (merged into
	// the clean compiled package of fixtures/rules), ... An example may
	// also be a txtar archive of several files, led by the command that
	// checks them ("$ nullius validate ledger ledger.json"). Every example
	// runs in the registry test (cmd/nullius/examples_test.go).
	Input string `json:"input,omitempty"`
	Since string `json:"since"` // nullius version that added it
	// Retired, when set, says why the code is no longer reported. A code
	// is never reused, so a retired rule stays declared (with Retired set)
	// and documented, without examples; no check can report it.
	Retired string `json:"retired,omitempty"`
	// Origin says where the rule comes from: "reference" (ported from the
	// Python tools) or "nullius" (new, closes a weakness of the reference).
	Origin string `json:"origin"`
	// Owner is the check that reports the rule, set by its Family: the
	// Name of a source analyzer ("grades"), or the name of a checker that
	// is not an analyzer ("discover", "suppress", "ir", "match", "prior",
	// "report", "extract", "config"). The lint driver refuses a finding an
	// analyzer reports for a rule it does not own, and single-analyzer test
	// runs take their codes from it.
	Owner string `json:"-"`
}

// Family is the owner of a group of rules: the name every rule it
// registers carries as Owner.
type Family string

// Register registers r with Owner set to the family and returns the
// registered rule. Tests register their own rules with it; the families of
// nullius declare theirs (Declare), which costs nothing at start.
func (f Family) Register(r Rule) *Rule {
	r.Owner = string(f)
	return Register(r)
}

// Declare adds the rules that list returns to the catalogue: list is
// called, and its rules checked, when the catalogue is first read, so a
// family's declaration at package initialisation is one store (issue 15:
// registering ~170 rules one by one was most of our packages' init). Every
// rule of list must have Owner f; a retired rule (Retired set: the code is
// no longer reported, it stays documented and is never reused) must have no
// examples. It returns true, for `var _ = family.Declare(ruleList)`.
func (f Family) Declare(list func() []*Rule) bool {
	registry.Lock()
	defer registry.Unlock()
	if registry.declared == nil {
		registry.declared = declaredRoom[:0]
	}
	registry.declared = append(registry.declared, declared{f, list})
	return true
}

// declared is one family's Declare call, not yet read.
type declared struct {
	family Family
	list   func() []*Rule
}

// Owned returns the rules whose Owner is one of owners, sorted by code.
func Owned(owners ...string) []Rule {
	var out []Rule
	for _, r := range All() {
		if slices.Contains(owners, r.Owner) {
			out = append(out, r)
		}
	}
	return out
}

// New returns a Diagnostic for this rule with its code, name and default
// severity filled in.
func (r Rule) New(path string, line, col, endLine, endCol int, format string, args ...any) Diagnostic {
	return Diagnostic{
		Code: r.Code, Name: r.Name, Severity: r.Severity,
		Path: path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
		Message: fmt.Sprintf(format, args...),
	}
}

// validCode reports a stable rule code: a family prefix and three digits,
// ^(GAIA|MATCH|ROSTER|PRIOR|REPORT|NULLIUS)[0-9]{3}$. Checked by hand, not
// by a regular expression: rules register from package initialisation,
// where compiling a pattern would cost every process.
func validCode(code string) bool {
	for _, fam := range []string{"GAIA", "MATCH", "ROSTER", "PRIOR", "REPORT", "NULLIUS"} {
		if digits, ok := strings.CutPrefix(code, fam); ok {
			return len(digits) == 3 && isDigit(digits[0]) && isDigit(digits[1]) && isDigit(digits[2])
		}
	}
	return false
}

// validName reports a kebab-case rule name, ^[a-z0-9]+(-[a-z0-9]+)*$.
func validName(name string) bool {
	if name == "" || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c == '-' || isDigit(c) || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// registry is the only package-level mutable state of nullius (see package doc).
//
// Every family declares its rules at package initialisation, which every
// nullius process pays for, `nullius version` included: Declare only
// stores the list function (in declared, whose room is static, so nothing
// is allocated), and the rules are listed, checked and indexed by code and
// name when the catalogue is first read (index).
var registry = struct {
	sync.RWMutex
	declared []declared // Declare calls not yet read
	pending  []*Rule    // registered or declared, not yet checked and indexed
	byCode   map[string]*Rule
	byName   map[string]string
}{}

// declaredRoom is room for every family's Declare (20 today) without an
// allocation at start; more still work (append grows it).
var declaredRoom [32]declared

// registrySize is room for the catalogue (165 rules), so neither the
// pending list nor the maps grow.
const registrySize = 256

// Register adds a copy of a rule to the catalogue and returns it (tests
// register their own rules; the families of nullius Declare theirs). A
// malformed or duplicate code or name, registered or declared, panics when
// the catalogue is first read (the first Lookup or All): that is a
// programming error caught by every test run and by every command that
// reports or lists a rule.
func Register(r Rule) *Rule {
	registry.Lock()
	defer registry.Unlock()
	p := new(Rule)
	*p = r
	registry.pending = append(registry.pending, p)
	return p
}

// index checks and indexes the rules registered since it last ran; the
// caller holds the write lock. A rule that fails is dropped before the
// panic, so the catalogue stays usable for a test that recovers.
func index() {
	if registry.byCode == nil {
		registry.byCode = make(map[string]*Rule, registrySize)
		registry.byName = make(map[string]string, registrySize)
	}
	if len(registry.declared) > 0 {
		registry.pending = slices.Grow(registry.pending, registrySize)
	}
	for len(registry.declared) > 0 {
		d := registry.declared[0]
		registry.declared = registry.declared[1:]
		for _, r := range d.list() {
			if r.Owner != string(d.family) {
				panic(fmt.Sprintf("diag: rule %s declared by family %s has owner %q", r.Code, d.family, r.Owner))
			}
			if r.Retired != "" && (r.Bad != "" || r.Good != "") {
				panic(fmt.Sprintf("diag: retired rule %s needs a reason and no examples", r.Code))
			}
			registry.pending = append(registry.pending, r)
		}
	}
	for len(registry.pending) > 0 {
		r := registry.pending[0]
		registry.pending = registry.pending[1:]
		if !validCode(r.Code) {
			panic(fmt.Sprintf("diag: malformed rule code %q", r.Code))
		}
		if !validName(r.Name) {
			panic(fmt.Sprintf("diag: malformed rule name %q for %s", r.Name, r.Code))
		}
		if r.Severity != Error && r.Severity != Warning {
			panic(fmt.Sprintf("diag: rule %s has no severity", r.Code))
		}
		if _, dup := registry.byCode[r.Code]; dup {
			panic(fmt.Sprintf("diag: rule code %s registered twice", r.Code))
		}
		if other, dup := registry.byName[r.Name]; dup {
			panic(fmt.Sprintf("diag: rule name %q used by %s and %s", r.Name, other, r.Code))
		}
		registry.byCode[r.Code] = r
		registry.byName[r.Name] = r.Code
	}
}

// readLock takes the read lock on an indexed catalogue.
func readLock() {
	registry.RLock()
	if len(registry.pending) == 0 && len(registry.declared) == 0 && registry.byCode != nil {
		return
	}
	registry.RUnlock()
	registry.Lock()
	func() {
		defer registry.Unlock()
		index()
	}()
	registry.RLock()
}

// Lookup finds a rule by code (case-insensitive) or by kebab-case name.
func Lookup(codeOrName string) (Rule, bool) {
	readLock()
	defer registry.RUnlock()
	if r, ok := registry.byCode[strings.ToUpper(codeOrName)]; ok {
		return *r, true
	}
	if c, ok := registry.byName[strings.ToLower(codeOrName)]; ok {
		return *registry.byCode[c], true
	}
	return Rule{}, false
}

// All returns every registered rule sorted by code.
func All() []Rule {
	readLock()
	defer registry.RUnlock()
	out := make([]Rule, 0, len(registry.byCode))
	for _, r := range registry.byCode {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}
