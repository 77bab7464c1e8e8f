package matchproto

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Repr renders a decoded JSON value roughly as Python's repr, so messages
// quote the offending value the way users of the reference know.
func Repr(v any) string {
	switch t := v.(type) {
	case nil:
		return "None"
	case bool:
		if t {
			return "True"
		}
		return "False"
	case string:
		return strconv.Quote(t)
	case json.Number:
		return t.String()
	case Object:
		if len(t) == 0 {
			return "{}"
		}
		return "{...}"
	case []any:
		if len(t) == 0 {
			return "[]"
		}
		return "[...]"
	}
	return fmt.Sprint(v)
}
