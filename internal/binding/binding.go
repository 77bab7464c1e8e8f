// Package binding reads and writes the binding of a Gaia idea package to its
// idea in the store: `campaign-id` and `node-id` in the `[tool.nullius]`
// table of the package's pyproject.toml (issue 12). Writeback and absorb
// refuse a package that is unbound or bound to another idea, so one idea's
// posterior can never land on another node.
//
// Write edits the file in place: only the two values (or two new lines, or
// a new table at the end) change, every other byte and comment is kept. It
// holds the package directory's lock, writes atomically, and re-parses the
// result before renaming it into place, so a file it cannot edit safely is
// refused, never damaged.
package binding

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/lockfile"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// File is the file that holds the binding, in the package directory.
const File = "pyproject.toml"

// The keys of the binding inside [tool.nullius].
const (
	KeyCampaign = "campaign-id"
	KeyNode     = "node-id"
)

// table is the path of the [tool.nullius] table.
var table = []string{"tool", "nullius"}

// Binding names the idea a package argues for.
type Binding struct {
	CampaignID string `json:"campaign_id"`
	NodeID     string `json:"node_id"`
}

// String renders the binding for messages.
func (b Binding) String() string {
	return fmt.Sprintf("campaign-id %q, node-id %q", b.CampaignID, b.NodeID)
}

// Path is the pyproject.toml of the package in pkgDir.
func Path(pkgDir string) string { return filepath.Join(pkgDir, File) }

// BindCommand is the command that binds the package in pkgDir to b: the fix
// every "unbound" or "bound to another idea" refusal names.
func BindCommand(pkgDir string, b Binding) string {
	c, n := b.CampaignID, b.NodeID
	if c == "" {
		c = "CAMPAIGN"
	}
	if n == "" {
		n = "NODE"
	}
	return fmt.Sprintf("nullius bind --package %s --campaign-id %s --node-id %s", pkgDir, c, n)
}

// ValidID reports whether s is an idea-store id: 8 characters of 0-9 and
// a-z without i, l, o, u. Read and Write accept any non-empty string (a
// file written by hand must round-trip); the commands that bind refuse
// what the store would refuse.
func ValidID(s string) bool { return matchproto.ShortIDRE.MatchString(s) }

// CheckIDs refuses ids the store would refuse, naming the flag.
func CheckIDs(b Binding) error {
	for _, id := range []struct{ flag, v string }{{"--campaign-id", b.CampaignID}, {"--node-id", b.NodeID}} {
		if !ValidID(id.v) {
			return fmt.Errorf("%s %q is not an idea-store id: 8 characters of 0-9 and a-z without i, l, o, u", id.flag, id.v)
		}
	}
	return nil
}

// Error is a binding that is present but unusable, or a pyproject.toml
// that cannot be read or edited; Line and Column locate it when known.
type Error struct {
	Path         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// Read returns the binding of the package in pkgDir. bound is false when
// pyproject.toml, the [tool.nullius] table or either key is missing; b then
// holds whichever key was present. A key that is present but not a
// non-empty string, or a file that is not TOML, is a located *Error; a
// file that cannot be read is the bounded reader's error.
func Read(pkgDir string) (b Binding, bound bool, err error) {
	path := Path(pkgDir)
	data, err := readlimit.ReadFile(path, readlimit.Config)
	if errors.Is(err, fs.ErrNotExist) {
		return Binding{}, false, nil
	}
	if err != nil {
		return Binding{}, false, err // the reader's error names the file
	}
	return parse(path, data)
}

// parse is Read over bytes already in memory.
func parse(path string, data []byte) (Binding, bool, error) {
	raw := map[string]any{}
	if err := toml.Unmarshal(data, &raw); err != nil {
		e := &Error{Path: path, Msg: "is not valid TOML: " + err.Error()}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			e.Line, e.Column = de.Position()
		}
		return Binding{}, false, e
	}
	tool, ok := raw["tool"].(map[string]any)
	if !ok {
		return Binding{}, false, nil
	}
	tv, ok := tool["nullius"]
	if !ok {
		return Binding{}, false, nil
	}
	tbl, ok := tv.(map[string]any)
	if !ok {
		e := &Error{Path: path, Msg: "[tool.nullius] must be a table"}
		e.Line, e.Column = locate(data, table)
		return Binding{}, false, e
	}
	var b Binding
	present := 0
	for _, k := range []struct {
		key string
		dst *string
	}{{KeyCampaign, &b.CampaignID}, {KeyNode, &b.NodeID}} {
		v, ok := tbl[k.key]
		if !ok {
			continue
		}
		s, isStr := v.(string)
		if err := checkValue(k.key, s, isStr, v); err != nil {
			e := &Error{Path: path, Msg: err.Error()}
			e.Line, e.Column = locate(data, append(append([]string{}, table...), k.key))
			return Binding{}, false, e
		}
		*k.dst = s
		present++
	}
	return b, present == 2, nil
}

// checkValue accepts a non-empty string without surrounding blanks (what
// Write can write and Read gives back unchanged).
func checkValue(key, s string, isStr bool, v any) error {
	switch {
	case !isStr:
		return fmt.Errorf("[tool.nullius] %s must be a string (the idea-store id, e.g. %s = \"nd000001\"), got %s", key, key, tomlKind(v))
	case strings.TrimSpace(s) == "":
		return fmt.Errorf("[tool.nullius] %s must not be empty; bind the package with nullius bind", key)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("[tool.nullius] %s %q has leading or trailing blanks", key, s)
	case !utf8.ValidString(s):
		return fmt.Errorf("[tool.nullius] %s is not valid UTF-8", key)
	}
	return nil
}

func tomlKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a table"
	case []any:
		return "an array"
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	}
	return fmt.Sprintf("%T", v)
}

// Write binds the package in pkgDir to b, replacing any binding it had.
func Write(pkgDir string, b Binding) error {
	_, _, err := Update(pkgDir, b, nil)
	return err
}

// Update binds the package in pkgDir to b under the package directory's
// lock. allow, when non-nil, sees the binding found under the lock and may
// refuse the change (a rebind to another idea without --force). It returns
// the previous binding; a file already bound to b is left untouched.
func Update(pkgDir string, b Binding, allow func(old Binding, bound bool) error) (old Binding, wasBound bool, err error) {
	path := Path(pkgDir)
	for _, k := range []struct{ key, v string }{{KeyCampaign, b.CampaignID}, {KeyNode, b.NodeID}} {
		if err := checkValue(k.key, k.v, true, k.v); err != nil {
			return Binding{}, false, &Error{Path: path, Msg: err.Error()}
		}
	}
	lk, err := lockfile.Acquire(pkgDir, lockfile.Wait())
	if err != nil {
		return Binding{}, false, err
	}
	defer lk.Release()
	fi, err := os.Lstat(path)
	if err != nil {
		return Binding{}, false, &Error{Path: path, Msg: "cannot bind: " + err.Error() + " (a Gaia package has a pyproject.toml; create it with nullius scaffold)"}
	}
	if !fi.Mode().IsRegular() {
		return Binding{}, false, &Error{Path: path, Msg: "cannot bind: not a regular file (a symlink or device); nullius edits only a package's own pyproject.toml"}
	}
	data, err := readlimit.ReadFile(path, readlimit.Config)
	if err != nil {
		return Binding{}, false, err
	}
	old, wasBound, err = parse(path, data)
	if err != nil {
		return Binding{}, false, err
	}
	if allow != nil {
		if err := allow(old, wasBound); err != nil {
			return old, wasBound, err
		}
	}
	if wasBound && old == b {
		return old, wasBound, nil
	}
	out, err := rewrite(path, data, b)
	if err != nil {
		return old, wasBound, err
	}
	if err := atomicfile.WriteFile(path, out, fi.Mode().Perm()); err != nil {
		return old, wasBound, err
	}
	return old, wasBound, nil
}

// Edit returns the pyproject.toml bytes data (read from path, named in
// messages) bound to b, keeping every other byte; the result is re-parsed
// and refused unless it reads back as b with every other value unchanged.
// Write is Edit under the package's lock; scaffold uses it on a package
// that does not exist yet.
func Edit(path string, data []byte, b Binding) ([]byte, error) {
	for _, k := range []struct{ key, v string }{{KeyCampaign, b.CampaignID}, {KeyNode, b.NodeID}} {
		if err := checkValue(k.key, k.v, true, k.v); err != nil {
			return nil, &Error{Path: path, Msg: err.Error()}
		}
	}
	if _, _, err := parse(path, data); err != nil {
		return nil, err
	}
	return rewrite(path, data, b)
}

// rewrite is Edit once b's values are checked and data is known to parse
// (Update has done both under the lock).
func rewrite(path string, data []byte, b Binding) ([]byte, error) {
	out, err := edit(data, b)
	if err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	if err := verify(path, data, out, b); err != nil {
		return nil, err
	}
	return out, nil
}

// verify re-parses the edited bytes: they must carry exactly b, and every
// other value of the file must be what it was.
func verify(path string, before, after []byte, b Binding) error {
	fail := func(why string) error {
		return &Error{Path: path, Msg: fmt.Sprintf("cannot add the binding safely (%s); add it by hand under [tool.nullius]: %s = %s and %s = %s",
			why, KeyCampaign, quote(b.CampaignID), KeyNode, quote(b.NodeID))}
	}
	got, bound, err := parse(path, after)
	if err != nil {
		return fail("the edited file does not parse: " + err.Error())
	}
	if !bound || got != b {
		return fail("the edited file does not read back as the new binding")
	}
	var x, y map[string]any
	if toml.Unmarshal(before, &x) != nil || toml.Unmarshal(after, &y) != nil {
		return fail("the file does not parse")
	}
	strip(x)
	strip(y)
	if !reflect.DeepEqual(x, y) {
		return fail("the edit would change other values of the file")
	}
	return nil
}

// strip removes the binding keys, and the tables that held nothing else, so
// the rest of two documents can be compared.
func strip(doc map[string]any) {
	tool, ok := doc["tool"].(map[string]any)
	if !ok {
		return
	}
	n, ok := tool["nullius"].(map[string]any)
	if !ok {
		return
	}
	delete(n, KeyCampaign)
	delete(n, KeyNode)
	if len(n) == 0 {
		delete(tool, "nullius")
	}
	if len(tool) == 0 {
		delete(doc, "tool")
	}
}

// quote renders s as a TOML basic string. TOML's basic-string escapes are
// JSON's, except that DEL must be escaped too.
func quote(s string) string {
	return strings.ReplaceAll(pyfmt.JSONString(s, false), "\x7f", `\u007f`)
}

// entry is one key-value of the file whose key path lies under
// [tool.nullius], with the offsets an edit needs (nodes do not outlive the
// parser's next expression, so they are copied out).
type entry struct {
	path       []string // full key path
	header     []string // the [table] it sits under
	inline     bool     // inside an inline table
	start, end int      // byte range of the key-value
	valueStart int      // byte range of the value when it is a string
	valueEnd   int
	isString   bool
}

// scan walks the file's expressions and returns the key-values under
// [tool.nullius], and the end offset of a `[tool.nullius]` header (-1 when
// there is none).
func scan(data []byte) (entries []entry, headerEnd int) {
	headerEnd = -1
	var p unstable.Parser
	p.Reset(data)
	var header []string
	inArray := false
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var last *unstable.Node
			header, last = keyParts(e.Key())
			inArray = e.Kind == unstable.ArrayTable
			if !inArray && equal(header, table) && last != nil {
				headerEnd = int(last.Raw.Offset + last.Raw.Length)
			}
		case unstable.KeyValue:
			if inArray {
				continue
			}
			entries = collect(entries, &p, e, header, header, false)
		}
	}
	return entries, headerEnd
}

// collect records kv (and, for an inline table, its members) when its path
// is under [tool.nullius].
func collect(out []entry, p *unstable.Parser, kv *unstable.Node, header, base []string, inline bool) []entry {
	k, _ := keyParts(kv.Key())
	path := append(append([]string{}, base...), k...)
	v := kv.Value()
	if v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				out = collect(out, p, c, header, path, true)
			}
		}
		return out
	}
	if len(path) < len(table) || !equal(path[:len(table)], table) {
		return out
	}
	en := entry{path: path, header: header, inline: inline, start: int(kv.Raw.Offset), end: int(kv.Raw.Offset + kv.Raw.Length)}
	if v.Kind == unstable.String {
		en.isString = true
		en.valueStart = int(v.Raw.Offset)
		en.valueEnd = int(v.Raw.Offset + v.Raw.Length)
	}
	return append(out, en)
}

func keyParts(it unstable.Iterator) ([]string, *unstable.Node) {
	var parts []string
	var last *unstable.Node
	for it.Next() {
		last = it.Node()
		parts = append(parts, string(last.Data))
	}
	return parts, last
}

func equal(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

// locate returns the line and column of the key-value at path (0, 0 when
// it cannot be found).
func locate(data []byte, path []string) (int, int) {
	entries, headerEnd := scan(data)
	for _, e := range entries {
		if len(e.path) >= len(path) && equal(e.path[:len(path)], path) {
			return position(data, e.start)
		}
	}
	if headerEnd >= 0 {
		return position(data, headerEnd)
	}
	return 0, 0
}

// position is the 1-based line and byte column of offset off.
func position(data []byte, off int) (int, int) {
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(data[:off], '\n')
}

// edit returns data with the binding set to b: existing string values are
// replaced where they stand, missing keys are added after the last
// key-value of [tool.nullius] (or after its header, or in a new table at
// the end of the file).
func edit(data []byte, b Binding) ([]byte, error) {
	entries, headerEnd := scan(data)
	want := []struct{ key, value string }{{KeyCampaign, b.CampaignID}, {KeyNode, b.NodeID}}
	type splice struct {
		at, end int
		text    string
	}
	var splices []splice
	var missing []string
	for _, w := range want {
		found := false
		for _, e := range entries {
			if len(e.path) == 3 && e.path[2] == w.key {
				if !e.isString {
					return nil, fmt.Errorf("[tool.nullius] %s is not a string; fix or remove it by hand, then bind again", w.key)
				}
				splices = append(splices, splice{e.valueStart, e.valueEnd, quote(w.value)})
				found = true
			}
		}
		if !found {
			missing = append(missing, w.key+" = "+quote(w.value))
		}
	}
	nl := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		nl = "\r\n"
	}
	if len(missing) > 0 {
		// After the last key-value written in a section whose header is a
		// prefix of tool.nullius, the keys are written relative to it.
		last := -1
		for i, e := range entries {
			if len(e.header) <= len(table) && equal(e.header, table[:len(e.header)]) && (last < 0 || e.end > entries[last].end) {
				last = i
			}
		}
		var at int
		var prefix []string
		switch {
		case last >= 0 && entries[last].inline:
			return nil, errors.New("[tool.nullius] is written as an inline table; rewrite it as a [tool.nullius] section or add the keys by hand")
		case last >= 0:
			at, prefix = entries[last].end, table[len(entries[last].header):]
		case headerEnd >= 0:
			at = headerEnd
		}
		var text strings.Builder
		if last < 0 && headerEnd < 0 {
			at = len(data)
			if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
				text.WriteString(nl)
			}
			if len(bytes.TrimSpace(data)) > 0 {
				text.WriteString(nl)
			}
			text.WriteString("[tool.nullius]" + nl)
		} else {
			// Insert after the end of the line holding the anchor (a
			// trailing comment stays on its line).
			i := bytes.IndexByte(data[at:], '\n')
			if i < 0 {
				at = len(data)
				text.WriteString(nl)
			} else {
				at += i + 1
			}
		}
		for _, m := range missing {
			if len(prefix) > 0 {
				m = strings.Join(prefix, ".") + "." + m
			}
			text.WriteString(m + nl)
		}
		splices = append(splices, splice{at, at, text.String()})
	}
	// Apply from the end so earlier offsets stay valid.
	slices.SortFunc(splices, func(x, y splice) int { return x.at - y.at })
	out := append([]byte{}, data...)
	for i := len(splices) - 1; i >= 0; i-- {
		s := splices[i]
		out = append(out[:s.at], append([]byte(s.text), out[s.end:]...)...)
	}
	return out, nil
}
