package matchproto

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// CleanVote keeps the three payload keys, strips argument and anchor_ref,
// and drops extra keys inside arguments (§4.5 clean_vote_payload).
func CleanVote(o Object) Object {
	vote, _ := o.Get("vote")
	disc, _ := o.Get("unanchored_arguments_discarded")
	aa, _ := o.Get("anchored_arguments")
	var args []any
	for _, it := range aa.([]any) {
		a := it.(Object)
		arg, _ := a.Get("argument")
		typ, _ := a.Get("anchor_type")
		ref, _ := a.Get("anchor_ref")
		args = append(args, Object{
			{Key: "argument", Value: PyStrip(arg.(string))},
			{Key: "anchor_type", Value: typ},
			{Key: "anchor_ref", Value: PyStrip(ref.(string))},
		})
	}
	if args == nil {
		args = []any{}
	}
	return Object{{Key: "vote", Value: vote}, {Key: "anchored_arguments", Value: args}, {Key: "unanchored_arguments_discarded", Value: disc}}
}

// fenceRE matches a fenced block with any (or no) info string, ``` or ~~~.
// The reference accepts only ``` and ```json; ```JSON and ~~~ survive there
// only by the brace fallback (W16).
var fenceRE = lazyre.New("(?s)(```|~~~)[ \\t]*([A-Za-z0-9_+-]*)[ \\t]*\\n(.*?)\\n?(```|~~~)")

// ExtractVote finds the judge's vote object in a reply (§4.6, W16).
//
// Fenced blocks come first, as in the reference, but a block that repeats
// the prompt's shape example is never taken for the vote, and a reply whose
// fences hold two different vote objects is ambiguous rather than "the
// first one wins". Without a usable fence the whole text, then the span
// from the first '{' to the last '}', are tried. example is the parsed shape
// example of the prompt (nil to skip that rule).
func ExtractVote(text string, example Object) (Object, error) {
	var found []Object
	for _, m := range fenceRE.FindAllStringSubmatch(text, -1) {
		if m[1] != m[4] {
			continue
		}
		o := parseObject(m[3])
		if o == nil || (example != nil && reflect.DeepEqual(o, example)) {
			continue
		}
		if len(found) == 0 || !reflect.DeepEqual(found[len(found)-1], o) {
			found = append(found, o)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return nil, fmt.Errorf("reply holds %d different fenced JSON objects; cannot tell which is the vote", len(found))
	}
	if o := parseObject(text); o != nil {
		return o, nil
	}
	if i, j := strings.Index(text, "{"), strings.LastIndex(text, "}"); i >= 0 && j > i {
		if o := parseObject(text[i : j+1]); o != nil && (example == nil || !reflect.DeepEqual(o, example)) {
			return o, nil
		}
	}
	return scanObjects(text, example)
}

// maxScanStarts bounds the object scan, so a reply full of braces costs
// linear time at most this many times over.
const maxScanStarts = 64

// scanObjects is the last resort: decode a JSON object at each '{' (the
// reference gives up when prose holds a stray {…} before the vote, W16)
// and accept the one distinct non-example object that carries a "vote".
func scanObjects(text string, example Object) (Object, error) {
	var found []Object
	for i, starts := 0, 0; i < len(text) && starts < maxScanStarts; i++ {
		if text[i] != '{' {
			continue
		}
		starts++
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			continue
		}
		o := parseObject(string(raw))
		if o == nil || !o.Has("vote") || (example != nil && reflect.DeepEqual(o, example)) {
			continue
		}
		if len(found) == 0 || !reflect.DeepEqual(found[len(found)-1], o) {
			found = append(found, o)
		}
		i += len(raw) - 1
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("no JSON object found in output")
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("reply holds %d different JSON vote objects; cannot tell which is the vote", len(found))
}

func parseObject(s string) Object {
	s = PyStrip(s)
	if s == "" {
		return nil
	}
	d, err := Decode([]byte(s))
	if err != nil || len(d.Duplicates) > 0 {
		return nil
	}
	o, _ := d.Value.(Object)
	return o
}

// TallyResult is the count of a panel's votes (§6.3).
type TallyResult struct {
	A, B, Ties, N int
	Winner        string
	Margin        float64
}

// Tally counts votes; ties count in the margin's denominator only.
func Tally(votes []string) (TallyResult, error) {
	var t TallyResult
	if len(votes) == 0 {
		return t, fmt.Errorf("cannot tally an empty panel")
	}
	for _, v := range votes {
		switch v {
		case "a":
			t.A++
		case "b":
			t.B++
		case "tie":
			t.Ties++
		default:
			return t, fmt.Errorf("vote %s is not one of a, b, tie", pyfmt.Str(v))
		}
	}
	t.N = len(votes)
	switch {
	case t.A > t.B:
		t.Winner = "a"
	case t.B > t.A:
		t.Winner = "b"
	default:
		t.Winner = "tie"
	}
	diff := t.A - t.B
	if diff < 0 {
		diff = -diff
	}
	t.Margin = float64(diff) / float64(t.N)
	return t, nil
}

// Tier maps a tally to the likelihood tier of the shared mapping table
// (§6.4): 0 means no observation (a tie).
//
// The reference calls a win unanimous when the loser got no vote, so
// [a, tie, tie] (one judge of three preferring A) is tier 10, the same as
// [a, a, a] (W28). nullius requires the winner to hold a strict majority of
// the whole panel for tier 10; a plurality over ties alone is a split win.
func Tier(t TallyResult) (int, string, error) {
	if t.N < 3 {
		return 0, "", fmt.Errorf("observation mapping is defined only for a valid panel (>= 3 votes); got %d", t.N)
	}
	if t.Winner == "tie" {
		return 0, "tie: no observation is produced", nil
	}
	win, lose := t.A, t.B
	if t.Winner == "b" {
		win, lose = t.B, t.A
	}
	if lose == 0 && 2*win > t.N {
		return 10, "unanimous win: likelihood tier 10", nil
	}
	if lose == 0 {
		return 3, "split win: likelihood tier 3 (the winner holds no majority over tie votes)", nil
	}
	return 3, "split win: likelihood tier 3", nil
}
