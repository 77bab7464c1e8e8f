package ir

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nullius-dev/nullius/internal/digest"
	"math"
	"strconv"

	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/pyfmt"
)

// IR is a loaded .gaia/ir.json: the located JSON document plus the typed
// views the checks need. Elements with the wrong JSON type are left out of
// the typed views and reported (GAIA103/105) by Load.
type IR struct {
	Path string         // as given to Load; used in every diagnostic
	Doc  *jsonloc.Doc   // the parsed document (positions, duplicates)
	Root map[string]any // the top-level object

	IRHash     string       // "" when missing or not a string
	Knowledges []*Knowledge // valid knowledge objects in array order, first of each id
	// All holds every knowledge object, including those with an invalid or
	// repeated id (GAIA103): labels and export flags are read from all of
	// them, as the reference does, so one bad id does not cascade.
	All        []*Knowledge
	ByID       map[string]*Knowledge
	Strategies []*Strategy // every strategy object in array order

	HasKnowledges bool // knowledges was an array
}

// Knowledge is one valid element of `knowledges`.
type Knowledge struct {
	Index    int // position in the knowledges array
	Ptr      string
	ID       string
	Label    string // "" when absent (anonymous node)
	Type     string
	Title    string // `title` or `metadata.title`, "" when absent
	Exported bool   // exactly JSON true
	Obj      map[string]any
	Meta     map[string]any // nil when absent or not an object
}

// Strategy is one object element of `strategies`.
type Strategy struct {
	Index int
	Ptr   string
	Type  string
	ID    string // strategy_id, "" when absent
	Obj   map[string]any
	Meta  map[string]any
}

// Name is how messages refer to a strategy: its strategy_id, else
// `<type>[index]` as the reference does for GAIA130.
func (s *Strategy) Name() string {
	if s.ID != "" {
		return s.ID
	}
	return fmt.Sprintf("%s[%d]", cmpOr(s.Type, "strategy"), s.Index)
}

// ActionLabel returns metadata.action_label, used to map back to source.
func (s *Strategy) ActionLabel() string { str, _ := s.Meta["action_label"].(string); return str }

// Name is how messages refer to a knowledge: its label, else its id.
func (k *Knowledge) Name() string { return cmpOr(k.Label, k.ID) }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Load parses src as a compiled IR document named path. It returns nil and
// the diagnostics when the document cannot be used at all (GAIA100);
// otherwise the IR and the structural findings (GAIA101–105).
func Load(path string, src []byte) (*IR, []diag.Diagnostic) {
	doc, err := Parse(src)
	return LoadParsed(path, doc, err)
}

// Parse parses compiled IR bytes as Load does, for a caller that needs the
// document itself too (writeback pins the bytes, checks their contract and
// hands the document to the gate): it parses once and loads the result
// with LoadParsed.
func Parse(src []byte) (*jsonloc.Doc, error) {
	return jsonloc.Parse(src, jsonloc.Options{AllowBOM: true})
}

// LoadParsed is Load over what Parse returned.
func LoadParsed(path string, doc *jsonloc.Doc, err error) (*IR, []diag.Diagnostic) {
	if err != nil {
		return nil, []diag.Diagnostic{syntaxDiag(path, codeNotJSON, "compiled ir.json is not valid UTF-8 JSON", err)}
	}
	return FromDoc(path, doc)
}

// FromDoc is Load over a document its caller has already parsed (with
// plain maps, jsonloc.Options without Ordered), so a reader that needs the
// JSON itself and the IR checks parses ir.json once. The IR reads doc's
// values and never changes them.
func FromDoc(path string, doc *jsonloc.Doc) (*IR, []diag.Diagnostic) {
	ir := &IR{Path: path, Doc: doc, ByID: map[string]*Knowledge{}}
	r := &reporter{path: path, doc: doc}
	r.duplicates()
	root, ok := doc.Value.(map[string]any)
	if !ok {
		r.at(codeNotJSON, "", "compiled ir.json is not a JSON object (found %s); recompile with gaia build compile", jsonType(doc.Value))
		return nil, r.out
	}
	ir.Root = root
	ir.loadHash(r)
	ir.loadKnowledges(r)
	ir.loadStrategies(r)
	return ir, r.out
}

// syntaxDiag turns a parse failure into a located diagnostic.
func syntaxDiag(path string, code *diag.Rule, prefix string, err error) diag.Diagnostic {
	line, col, msg := 1, 1, err.Error()
	var se *jsonloc.SyntaxError
	if errors.As(err, &se) {
		line, col, msg = max(se.Line, 1), max(se.Col, 1), se.Msg
	}
	return code.New(path, line, col, line, col, "%s: %s", prefix, msg)
}

func (ir *IR) loadHash(r *reporter) {
	v, present := ir.Root["ir_hash"]
	s, isStr := v.(string)
	if isStr {
		ir.IRHash = s
	}
	if isStr && digest.IsSHA256(s) {
		return
	}
	found := "none"
	if present {
		found = pyfmt.Describe(v)
	}
	r.at(codeIRHash, jsonloc.Pointer("ir_hash"),
		"compiled ir.json has no canonical Gaia ir_hash (expected sha256:<64 lowercase hex>, found %s); exact-byte package pinning supplements this compiled-IR marker rather than replacing it", found)
}

func (ir *IR) loadKnowledges(r *reporter) {
	list, ok := ir.Root["knowledges"].([]any)
	if !ok {
		found := "none"
		if v, present := ir.Root["knowledges"]; present {
			found = jsonType(v)
		}
		r.at(codeKnowledgesList, jsonloc.Pointer("knowledges"), "compiled ir.json has no knowledges list (found %s)", found)
		return
	}
	ir.HasKnowledges = true
	for i, v := range list {
		ptr := jsonloc.Pointer("knowledges", i)
		obj, ok := v.(map[string]any)
		if !ok {
			r.at(codeKnowledgeID, ptr, "compiled knowledge[%d] is not an object (found %s)", i, jsonType(v))
			continue
		}
		id, valid := obj["id"].(string)
		if !valid || id == "" {
			r.at(codeKnowledgeID, jsonloc.Pointer("knowledges", i, "id"), "compiled knowledge[%d] id must be a non-empty string, found %s", i, describeMember(obj, "id"))
			id, valid = "", false
		} else if _, dup := ir.ByID[id]; dup {
			r.at(codeKnowledgeID, jsonloc.Pointer("knowledges", i, "id"), "duplicate compiled knowledge id %s; every knowledge id must be unique", pyfmt.Str(id))
			valid = false
		}
		k := &Knowledge{Index: i, Ptr: ptr, ID: id, Obj: obj}
		k.Label = r.optString(obj, ptr, "label")
		k.Type = r.optString(obj, ptr, "type")
		k.Meta = r.optObject(obj, ptr, "metadata")
		k.Title = r.optString(obj, ptr, "title")
		if k.Title == "" && k.Meta != nil {
			k.Title = r.optString(k.Meta, ptr+"/metadata", "title")
		}
		switch e := obj["exported"].(type) {
		case bool:
			k.Exported = e
		case nil:
			if _, present := obj["exported"]; present {
				r.at(codeWrongType, ptr+"/exported", "knowledge %s exported must be a JSON boolean, found null", pyfmt.Str(id))
			}
		default:
			r.at(codeWrongType, ptr+"/exported", "knowledge %s exported must be a JSON boolean, found %s; only true exports it", pyfmt.Str(id), pyfmt.Describe(e))
		}
		ir.All = append(ir.All, k)
		if valid {
			ir.Knowledges = append(ir.Knowledges, k)
			ir.ByID[id] = k
		}
	}
}

func (ir *IR) loadStrategies(r *reporter) {
	v, present := ir.Root["strategies"]
	if !present || v == nil {
		return
	}
	list, ok := v.([]any)
	if !ok {
		r.at(codeWrongType, jsonloc.Pointer("strategies"), "compiled ir.json strategies must be a list, found %s", jsonType(v))
		return
	}
	for i, v := range list {
		ptr := jsonloc.Pointer("strategies", i)
		obj, ok := v.(map[string]any)
		if !ok {
			r.at(codeWrongType, ptr, "compiled strategy[%d] must be an object, found %s", i, jsonType(v))
			continue
		}
		s := &Strategy{Index: i, Ptr: ptr, Obj: obj}
		s.Type = r.optString(obj, ptr, "type")
		s.ID = r.optString(obj, ptr, "strategy_id")
		s.Meta = r.optObject(obj, ptr, "metadata")
		ir.Strategies = append(ir.Strategies, s)
	}
}

// Infers returns the strategies of type "infer".
func (ir *IR) Infers() []*Strategy {
	var out []*Strategy
	for _, s := range ir.Strategies {
		if s.Type == "infer" {
			out = append(out, s)
		}
	}
	return out
}

// labelled returns the knowledge objects labelled label, valid id or not.
func (ir *IR) labelled(label string) []*Knowledge {
	var out []*Knowledge
	for _, k := range ir.All {
		if k.Label == label {
			out = append(out, k)
		}
	}
	return out
}

// number reads a JSON number as float64. Booleans and strings are not
// numbers (the reference rejects `true` as a probability); overflowing
// literals such as 1e999 become ±Inf so range checks reject them.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

func finiteUnit(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) && f >= 0 && f <= 1 }

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func describeMember(obj map[string]any, key string) string {
	v, ok := obj[key]
	if !ok {
		return "none"
	}
	return pyfmt.Describe(v)
}
