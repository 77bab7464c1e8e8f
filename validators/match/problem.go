package match

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/diag"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/matchproto"
)

// Problem is one validation finding: the rule, the RFC 6901 pointer of the
// offending value, and a one-line message.
type Problem struct {
	Rule    *diag.Rule
	Pointer string
	Msg     string
}

func (p Problem) String() string { return p.Msg }

// problems collects the findings of one document, at most diag.PerRule of
// each rule (see diag.Limit): a document of a million broken elements
// makes a few hundred findings and a count, not a million findings.
type problems struct {
	list  []Problem
	limit diag.Limit[string] // the pointer of each rule's first finding not kept
}

// add makes a finding, unless its rule is over the limit.
func (ps *problems) add(code *diag.Rule, ptr, format string, args ...any) {
	if ps.limit.Keep(code, func() string { return ptr }) {
		ps.list = append(ps.list, Problem{code, ptr, fmt.Sprintf(format, args...)})
	}
}

// put adds a finding made elsewhere, unless its rule is over the limit.
func (ps *problems) put(p Problem) {
	if ps.limit.Keep(p.Rule, func() string { return p.Pointer }) {
		ps.list = append(ps.list, p)
	}
}

// all returns the findings kept and, for each rule over the limit, one
// finding at the first one not kept that says how many were not.
func (ps *problems) all() []Problem {
	out := ps.list
	for _, d := range ps.limit.Dropped() {
		out = append(out, Problem{d.Rule, d.First, d.Message()})
	}
	return out
}

// Messages returns the problems' messages, for tests and refusals.
func Messages(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Msg
	}
	return out
}

// Join joins the messages with "; " as the reference's refusals do.
func Join(ps []Problem) string { return strings.Join(Messages(ps), "; ") }

// unknownKeys returns obj's distinct keys outside allowed, sorted. It reads
// the members directly: it runs on every object of an artifact, and an
// object without unknown keys (the usual case) costs no allocation.
func unknownKeys(obj matchproto.Object, allowed []string) []string {
	var out []string
	for _, m := range obj {
		if !slices.Contains(allowed, m.Key) {
			out = append(out, m.Key)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

var intRE = lazyre.New(`^-?(0|[1-9][0-9]*)$`)

// asInt reports a JSON integer literal. Python's json gives float for 1.0
// and 1e0, and bool is not an int for the reference's checks, so only a
// plain integer literal counts. Big values are clamped, never wrapped.
func asInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok || !intRE.MatchString(string(n)) {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		if strings.HasPrefix(string(n), "-") {
			return -1 << 63, true
		}
		return 1<<63 - 1, true
	}
	return i, true
}

// asFloat reports a JSON number as float64.
func asFloat(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// nonBlank reports a string that is not empty after Python strip.
func nonBlank(v any) bool {
	s, ok := v.(string)
	return ok && matchproto.PyStrip(s) != ""
}

func isLabel(v any) bool {
	s, ok := v.(string)
	return ok && matchproto.LabelRE.MatchString(s)
}

func isShortID(v any) bool {
	s, ok := v.(string)
	return ok && matchproto.ShortIDRE.MatchString(s)
}
