package prior

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazyre"
)

// The reference is Python, where bool is an int and 2.0 is a float. These
// helpers give "int" the reference's meaning: a JSON integer literal (no
// fraction, no exponent), never a boolean.

var intLiteralRE = lazyre.New(`^-?[0-9]+$`)

// intVal returns v as an integer when it is a JSON integer literal.
func intVal(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok || !intLiteralRE.MatchString(string(n)) {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return i, err == nil
}

// nonNegInt reports v as a non-negative JSON integer.
func nonNegInt(v any) (int64, bool) {
	i, ok := intVal(v)
	return i, ok && i >= 0
}

// floatVal returns a JSON number (integer or not, never a bool) as float64.
func floatVal(v any) (float64, bool) {
	if f, ok := v.(float64); ok {
		return f, !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// str returns v when it is a string whose trimmed form is non-empty.
func str(v any) (string, bool) {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "", false
	}
	return s, true
}

// obj returns v as a JSON object.
func obj(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	return m, ok
}

// arr returns v as a JSON array.
func arr(v any) ([]any, bool) {
	a, ok := v.([]any)
	return a, ok
}

// nonEmptyList reports whether v is a non-empty JSON array.
func nonEmptyList(v any) bool {
	a, ok := v.([]any)
	return ok && len(a) > 0
}

// truthy mirrors Python truthiness for decoded JSON values; the reference
// tests `if not entry.get(...)` in many places.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// strList returns the non-empty trimmed strings of a JSON array and whether
// every element was one.
func strList(v any) ([]string, bool) {
	a, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(a))
	all := true
	for _, e := range a {
		s, ok := str(e)
		if !ok {
			all = false
			continue
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out, all
}

func itoa(i int) string { return strconv.Itoa(i) }
