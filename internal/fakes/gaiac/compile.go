// Package gaiac is the compiler and inference engine of the fake gaia
// (internal/fakes, `nullius demo`): it turns the Python DSL of a small Gaia
// package into .gaia/ir.json and computes .gaia/beliefs.json from it, for a
// stated subset of gaia-lang 0.5.0a4, so the tutorial's road can be walked
// and tested on a machine without gaia. It does not run Python: it reads the
// module with pyscan, resolves which calls are Gaia verbs with gaiaref (the
// resolution nullius lint uses), and evaluates the module-level statements
// top to bottom.
//
// The subset (anything else is refused with the line and the reason):
//
//   - one module: the package's __init__.py under its source root (flat
//     layout before src/, as Gaia loads it); no other .py files;
//   - module-level statements only, one per line (nothing inside def, class,
//     if, for, with or try); names bound once; values are string literals
//     (implicit concatenation, constant f-strings, "a" + "b"), numbers,
//     True/False/None, names bound earlier, and calls of Gaia verbs;
//   - claim(content, title=..., prior=..., <metadata>=...), note(content),
//     observe(claim, rationale=..., label=...), infer(evidence,
//     hypothesis=..., p_e_given_h=..., p_e_given_not_h=..., rationale=...,
//     label=...), register_prior(claim, value, justification=...,
//     source_id=...), and the relations exclusive(a, b), equal(a, b),
//     contradict(a, b) (rationale=..., label=...); __all__ as a literal list.
//
// What it writes follows gaia-discipline.md §0.2 (the IR fields nullius
// reads): knowledge ids `github:<package>::<label>` (unlabelled nodes
// `_anon_NNNN` in creation order), `exported` from __all__, an observed
// claim's `metadata.prior` 0.999 and `metadata.supported_by` record, infer
// strategies with `conditional_probabilities` [p_e_given_not_h,
// p_e_given_h] and `steps` [{reasoning}], register_prior and claim(prior=)
// as `metadata.prior_records` (source user_priors or claim_inline),
// relations as `operators` {operator, variables, conclusion} with a
// generated helper claim. The bytes are Gaia's format (sorted keys, 2-space
// indent, non-ASCII kept). ir_hash is the sha256 of the compact sorted-key
// JSON of the graph without ir_hash and without the exported flags (as
// Gaia leaves exported out of its hash); the real gaia's canonical form may
// differ in detail, so the same package compiled by the real gaia can carry
// another ir_hash.
package gaiac

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/digest"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/plural"
	"github.com/nullius-dev/nullius/internal/readlimit"
	"github.com/nullius-dev/nullius/pyscan"
)

// Namespace is the IR namespace of every package the fake compiles.
const Namespace = "github"

// ObservationPrior is what observe() pins its claim to (1 - Cromwell ε).
const ObservationPrior = 0.999

// Error is a compile failure located in the module, printed as
// path:line:col: message, the way gaia reports a package error.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Path + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// Compile compiles the package in pkgDir and returns the bytes of its
// .gaia/ir.json.
func Compile(pkgDir string) ([]byte, error) {
	pkgs, diags, err := analyzers.Discover([]string{pkgDir})
	if err != nil {
		return nil, err
	}
	for _, d := range diags {
		if d.Severity == diag.Error {
			return nil, fmt.Errorf("%s: %s", d.Path, d.Message)
		}
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: expected one Gaia package, found %d", pkgDir, len(pkgs))
	}
	pkg := pkgs[0]
	init := filepath.Join(pkg.SourceRoot, "__init__.py")
	var others []string
	for _, f := range pkg.Files {
		if filepath.Clean(f) != filepath.Clean(init) {
			others = append(others, f)
		}
	}
	if len(others) > 0 {
		return nil, fmt.Errorf("%s: the fake gaia compiles one module (%s); this package also has %s",
			pkgDir, init, strings.Join(others, ", "))
	}
	src, err := readlimit.ReadFile(init, readlimit.Python)
	if err != nil {
		return nil, err
	}
	return CompileModule(init, pkg.ImportName, src)
}

// CompileModule compiles the source of one package module whose Gaia
// package name (import name) is pkgName.
func CompileModule(path, pkgName string, src []byte) ([]byte, error) {
	m, err := pyscan.ParseSource(path, src)
	if err != nil {
		return nil, err
	}
	if len(m.Syntax) > 0 {
		s := m.Syntax[0]
		return nil, &Error{Path: path, Line: int(s.Span.Start.Line), Col: int(s.Span.Start.Col), Msg: "SyntaxError: " + s.Msg}
	}
	c := &compiler{path: path, pkg: pkgName, mod: m, verbs: gaiaref.Verbs(m), vars: map[string]value{}}
	if err := c.run(); err != nil {
		return nil, err
	}
	return c.ir()
}

// kind is the kind of a value the evaluator holds.
type kind int

const (
	kNone kind = iota
	kStr
	kNum
	kBool
	kKnow
)

type value struct {
	kind kind
	s    string
	f    float64
	b    bool
	k    *knowledge
}

func (v value) any() any {
	switch v.kind {
	case kStr:
		return v.s
	case kNum:
		return v.f
	case kBool:
		return v.b
	}
	return nil
}

// knowledge is one node being built.
type knowledge struct {
	label, typ, content, title string
	meta                       map[string]any
	supports                   []any
	priorRecords               []any
	exported                   bool
	id                         string // set by assignIDs
}

type compiler struct {
	path  string
	pkg   string
	mod   *pyscan.Module
	verbs map[*pyscan.Call]string
	vars  map[string]value

	ks         []*knowledge
	strategies []map[string]any
	operators  []map[string]any
	actions    map[string]int // per verb, for default action labels
	// refs are the knowledge references of strategies and operators,
	// filled in with ids once every label is known.
	refs []func()
}

func (c *compiler) errAt(sp pyscan.Span, format string, args ...any) error {
	return &Error{Path: c.path, Line: int(sp.Start.Line), Col: int(sp.Start.Col), Msg: fmt.Sprintf(format, args...)}
}

// item is one module-level statement: an assignment or a bare call.
type item struct {
	off    int
	span   pyscan.Span
	assign *pyscan.Assign
	call   *pyscan.Call
}

// run evaluates the module-level statements in source order.
func (c *compiler) run() error {
	var items []item
	for _, a := range c.mod.Assigns {
		if a.Scope == c.mod.Root {
			items = append(items, item{off: int(a.Span.Start.Offset), span: a.Span, assign: a})
		}
	}
	for _, call := range c.mod.Calls {
		if call.Scope == c.mod.Root {
			items = append(items, item{off: int(call.Span.Start.Offset), span: call.Span, call: call})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].off < items[j].off })
	// Statements are the items not nested in an earlier one.
	end := -1
	for _, it := range items {
		if it.off < end {
			continue
		}
		end = int(it.span.End.Offset)
		if it.span.Start.Col != 1 {
			return c.errAt(it.span, "the fake gaia compiles module-level statements only, one per line; this one is indented or follows another on its line (inside def, class, if, for, with or try?)")
		}
		if err := c.statement(it); err != nil {
			return err
		}
	}
	// Anything Gaia would run elsewhere (in a function body, say) is
	// outside the subset: refuse rather than silently skip it.
	for call, verb := range c.verbs {
		if call.Scope != c.mod.Root {
			return c.errAt(call.Span, "%s() inside a function or class is outside the fake gaia's subset (module-level statements only)", verb)
		}
	}
	return c.exports()
}

func (c *compiler) statement(it item) error {
	if it.call != nil {
		_, err := c.evalCall(it.call)
		return err
	}
	a := it.assign
	if a.Augmented || a.Walrus || a.Value == nil || len(a.Targets) != 1 || a.Targets[0].Kind != pyscan.ExprName {
		return c.errAt(a.Span, "only plain assignments 'name = value' are in the fake gaia's subset")
	}
	name := a.Targets[0].Name
	if name == "__all__" {
		return nil // read from the model's AllDecl by exports
	}
	v, err := c.eval(a.Value)
	if err != nil {
		return err
	}
	if _, dup := c.vars[name]; dup {
		return c.errAt(a.Span, "%s is bound twice; the fake gaia compiles modules whose names are bound once", name)
	}
	c.vars[name] = v
	// Gaia labels a knowledge by the first module variable bound to it.
	if v.kind == kKnow && v.k.label == "" && !strings.HasPrefix(name, "__") {
		v.k.label = name
	}
	return nil
}

func (c *compiler) eval(e *pyscan.Expr) (value, error) {
	switch e.Kind {
	case pyscan.ExprString:
		return value{kind: kStr, s: e.Str}, nil
	case pyscan.ExprFString:
		if e.ConstOnly {
			return value{kind: kStr, s: e.Str}, nil
		}
	case pyscan.ExprNumber:
		return value{kind: kNum, f: e.Num}, nil
	case pyscan.ExprBool:
		return value{kind: kBool, b: e.Bool}, nil
	case pyscan.ExprNone:
		return value{kind: kNone}, nil
	case pyscan.ExprUnary:
		if e.Op() == "-" && len(e.Operand()) == 1 {
			v, err := c.eval(e.Operand()[0])
			if err == nil && v.kind == kNum {
				return value{kind: kNum, f: -v.f}, nil
			}
		}
	case pyscan.ExprBinary:
		if e.Op() == "+" && len(e.Operand()) == 2 {
			l, err := c.eval(e.Operand()[0])
			if err != nil {
				return value{}, err
			}
			r, err := c.eval(e.Operand()[1])
			if err != nil {
				return value{}, err
			}
			if l.kind == kStr && r.kind == kStr {
				return value{kind: kStr, s: l.s + r.s}, nil
			}
		}
	case pyscan.ExprName:
		if v, ok := c.vars[e.Name]; ok {
			return v, nil
		}
		return value{}, c.errAt(e.Span, "NameError: name %q is not defined before this line", e.Name)
	case pyscan.ExprCall:
		return c.evalCall(e.Call)
	}
	return value{}, c.errAt(e.Span, "the expression %s is outside the fake gaia's subset (string and number literals, names bound earlier, Gaia verb calls)", excerpt(e.Text))
}

func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// args binds a call's arguments to parameter names: positional ones in
// order, then keywords. Unknown keywords are returned in extra (in order)
// when allowExtra, else refused.
type boundArgs struct {
	vals  map[string]value
	spans map[string]pyscan.Span
	extra []string
}

func (c *compiler) bind(call *pyscan.Call, verb string, positional []string, keywords []string, allowExtra bool) (*boundArgs, error) {
	if call.StarArgs || call.KwSplat {
		return nil, c.errAt(call.Span, "%s() with *args or **kwargs is outside the fake gaia's subset", verb)
	}
	if len(call.Args) > len(positional) {
		return nil, c.errAt(call.Args[len(positional)].Span, "TypeError: %s() takes %s but %d were given",
			verb, plural.N(len(positional), "positional argument"), len(call.Args))
	}
	b := &boundArgs{vals: map[string]value{}, spans: map[string]pyscan.Span{}}
	for i, a := range call.Args {
		v, err := c.eval(a)
		if err != nil {
			return nil, err
		}
		b.vals[positional[i]], b.spans[positional[i]] = v, a.Span
	}
	for _, k := range call.Keywords {
		if _, dup := b.vals[k.Name]; dup {
			return nil, c.errAt(k.NameSpan, "TypeError: %s() got multiple values for argument %q", verb, k.Name)
		}
		known := slices.Contains(positional, k.Name) || slices.Contains(keywords, k.Name)
		if !known && !allowExtra {
			return nil, c.errAt(k.NameSpan, "%s(%s=...) is outside the fake gaia's subset (it knows %s)", verb, k.Name, strings.Join(append(slices.Clone(positional), keywords...), ", "))
		}
		v, err := c.eval(k.Value)
		if err != nil {
			return nil, err
		}
		b.vals[k.Name], b.spans[k.Name] = v, k.Value.Span
		if !known {
			b.extra = append(b.extra, k.Name)
		}
	}
	return b, nil
}

func (b *boundArgs) has(name string) bool { _, ok := b.vals[name]; return ok }

// str returns a string argument ("" when absent and not required).
func (c *compiler) str(call *pyscan.Call, verb string, b *boundArgs, name string, required bool) (string, error) {
	v, ok := b.vals[name]
	if !ok {
		if required {
			return "", c.errAt(call.Span, "TypeError: %s() missing required argument %q", verb, name)
		}
		return "", nil
	}
	if v.kind != kStr {
		return "", c.errAt(b.spans[name], "%s(%s=...) must be a string literal here", verb, name)
	}
	return v.s, nil
}

func (c *compiler) num(call *pyscan.Call, verb string, b *boundArgs, name string) (float64, bool, error) {
	v, ok := b.vals[name]
	if !ok {
		return 0, false, nil
	}
	if v.kind != kNum {
		return 0, false, c.errAt(b.spans[name], "%s(%s=...) must be a number", verb, name)
	}
	return v.f, true, nil
}

func (c *compiler) claimArg(call *pyscan.Call, verb string, b *boundArgs, name string) (*knowledge, error) {
	v, ok := b.vals[name]
	if !ok {
		return nil, c.errAt(call.Span, "TypeError: %s() missing required argument %q", verb, name)
	}
	if v.kind != kKnow || v.k.typ != "claim" {
		return nil, c.errAt(b.spans[name], "%s(%s=...) must be a claim (a name bound to claim(...)) in the fake gaia's subset", verb, name)
	}
	return v.k, nil
}

func (c *compiler) evalCall(call *pyscan.Call) (value, error) {
	verb, ok := c.verbs[call]
	if !ok {
		return value{}, c.errAt(call.Span, "the fake gaia does not run Python: %s(...) is not a Gaia verb (only Gaia statements are compiled)", excerpt(call.Func.Text))
	}
	switch verb {
	case "claim", "note":
		return c.claim(call, verb)
	case "observe":
		return c.observe(call)
	case "infer":
		return c.infer(call)
	case "register_prior":
		return c.registerPrior(call)
	case "exclusive", "equal", "contradict":
		return c.relation(call, verb)
	}
	return value{}, c.errAt(call.Span, "%s() is outside the fake gaia's subset (claim, note, observe, infer, register_prior, exclusive, equal, contradict)", verb)
}

func (c *compiler) claim(call *pyscan.Call, verb string) (value, error) {
	b, err := c.bind(call, verb, []string{"content"}, []string{"title", "format", "prior"}, true)
	if err != nil {
		return value{}, err
	}
	content, err := c.str(call, verb, b, "content", true)
	if err != nil {
		return value{}, err
	}
	title, err := c.str(call, verb, b, "title", false)
	if err != nil {
		return value{}, err
	}
	k := &knowledge{typ: verb, content: strings.TrimSpace(content), title: title, meta: map[string]any{}}
	for _, name := range b.extra {
		v := b.vals[name]
		if v.kind == kKnow {
			return value{}, c.errAt(b.spans[name], "%s(%s=...) must be a literal metadata value", verb, name)
		}
		k.meta[name] = v.any()
	}
	if verb == "claim" {
		if p, ok, err := c.num(call, verb, b, "prior"); err != nil {
			return value{}, err
		} else if ok {
			if err := c.cromwell(b.spans["prior"], "claim(prior=...)", p); err != nil {
				return value{}, err
			}
			k.priorRecords = append(k.priorRecords, map[string]any{"source_id": "claim_inline", "value": p,
				"justification": "inline prior from claim(prior=...)"})
		}
	} else if b.has("prior") {
		return value{}, c.errAt(b.spans["prior"], "TypeError: note() got an unexpected keyword argument 'prior'")
	}
	c.ks = append(c.ks, k)
	return value{kind: kKnow, k: k}, nil
}

// cromwell is register_prior's runtime check: a number in [0.001, 0.999].
func (c *compiler) cromwell(sp pyscan.Span, what string, p float64) error {
	if p < 0.001 || p > 0.999 {
		return c.errAt(sp, "ValueError: %s value %v is outside the Cromwell bounds [0.001, 0.999]", what, p)
	}
	return nil
}

func (c *compiler) action(verb string, b *boundArgs, call *pyscan.Call) (string, error) {
	label, err := c.str(call, verb, b, "label", false)
	if err != nil || label != "" {
		return label, err
	}
	if c.actions == nil {
		c.actions = map[string]int{}
	}
	c.actions[verb]++
	return fmt.Sprintf("%s_%d", verb, c.actions[verb]), nil
}

func (c *compiler) observe(call *pyscan.Call) (value, error) {
	b, err := c.bind(call, "observe", []string{"conclusion"}, []string{"rationale", "label"}, false)
	if err != nil {
		return value{}, err
	}
	k, err := c.claimArg(call, "observe", b, "conclusion")
	if err != nil {
		return value{}, err
	}
	rationale, err := c.str(call, "observe", b, "rationale", false)
	if err != nil {
		return value{}, err
	}
	label, err := c.str(call, "observe", b, "label", false)
	if err != nil {
		return value{}, err
	}
	sup := map[string]any{"pattern": "observation"}
	if rationale != "" {
		sup["rationale"] = rationale
	}
	c.refs = append(c.refs, func() {
		if label != "" {
			sup["action_label"] = label
		} else {
			sup["action_label"] = k.label // the observed claim's own label, as Gaia records it
		}
	})
	k.supports = append(k.supports, sup)
	k.meta["prior"] = ObservationPrior
	return value{kind: kKnow, k: k}, nil
}

func (c *compiler) infer(call *pyscan.Call) (value, error) {
	if len(call.Args) > 0 && (call.Args[0].Kind == pyscan.ExprList || call.Args[0].Kind == pyscan.ExprTuple) {
		return value{}, c.errAt(call.Args[0].Span, "the deprecated infer([premises], conclusion) form is outside the fake gaia's subset")
	}
	if call.Keyword("given") != nil {
		return value{}, c.errAt(call.Keyword("given").NameSpan, "infer(given=...) is outside the fake gaia's subset (and GAIA508: the idea-posterior contract supports no conditional likelihoods)")
	}
	b, err := c.bind(call, "infer", []string{"evidence"}, []string{"hypothesis", "p_e_given_h", "p_e_given_not_h", "rationale", "label"}, false)
	if err != nil {
		return value{}, err
	}
	ev, err := c.claimArg(call, "infer", b, "evidence")
	if err != nil {
		return value{}, err
	}
	hyp, err := c.claimArg(call, "infer", b, "hypothesis")
	if err != nil {
		return value{}, err
	}
	peh, ok, err := c.num(call, "infer", b, "p_e_given_h")
	if err != nil {
		return value{}, err
	}
	if !ok {
		return value{}, c.errAt(call.Span, "TypeError: infer() missing required argument 'p_e_given_h'")
	}
	penh, given, err := c.num(call, "infer", b, "p_e_given_not_h")
	if err != nil {
		return value{}, err
	}
	meta := map[string]any{"pattern": "inference"}
	if !given {
		penh = 0.5
		meta["p_e_given_not_h_defaulted"] = true
	}
	for _, p := range []float64{peh, penh} {
		if p < 0 || p > 1 {
			return value{}, c.errAt(call.Span, "ValueError: infer() probabilities must lie in [0, 1], got %v", p)
		}
	}
	rationale, err := c.str(call, "infer", b, "rationale", false)
	if err != nil {
		return value{}, err
	}
	action, err := c.action("infer", b, call)
	if err != nil {
		return value{}, err
	}
	meta["action_label"] = action
	s := map[string]any{"conditional_probabilities": []any{penh, peh}, "metadata": meta,
		"strategy_id": "lcs_" + action, "type": "infer"}
	if rationale != "" {
		s["steps"] = []any{map[string]any{"reasoning": rationale}}
	}
	c.refs = append(c.refs, func() {
		s["conclusion"] = ev.id
		s["premises"] = []any{hyp.id}
	})
	c.strategies = append(c.strategies, s)
	return value{kind: kKnow, k: ev}, nil
}

func (c *compiler) registerPrior(call *pyscan.Call) (value, error) {
	b, err := c.bind(call, "register_prior", []string{"claim", "value"}, []string{"justification", "source_id"}, false)
	if err != nil {
		return value{}, err
	}
	k, err := c.claimArg(call, "register_prior", b, "claim")
	if err != nil {
		return value{}, err
	}
	if v, ok := b.vals["value"]; !ok || v.kind != kNum {
		return value{}, c.errAt(call.Span, "TypeError: register_prior() value must be a number")
	}
	p := b.vals["value"].f
	if err := c.cromwell(b.spans["value"], "register_prior", p); err != nil {
		return value{}, err
	}
	just, err := c.str(call, "register_prior", b, "justification", true)
	if err != nil {
		return value{}, err
	}
	if strings.TrimSpace(just) == "" {
		return value{}, c.errAt(b.spans["justification"], "ValueError: register_prior() justification must not be blank")
	}
	source, err := c.str(call, "register_prior", b, "source_id", false)
	if err != nil {
		return value{}, err
	}
	if source == "" {
		source = "user_priors"
	}
	k.priorRecords = append(k.priorRecords, map[string]any{"justification": just, "source_id": source, "value": p})
	return value{kind: kNone}, nil
}

// relationOperator is a relation verb's IR operator and helper.
type relationOperator struct{ op, kind, sentence string }

// relationOperatorOf maps a relation verb to its relationOperator.
func relationOperatorOf(verb string) relationOperator {
	switch verb {
	case "exclusive":
		return relationOperator{"complement", "complement_result", "exactly one of %s and %s is true."}
	case "equal":
		return relationOperator{"equivalence", "equivalence_result", "%s and %s are equivalent."}
	case "contradict":
		return relationOperator{"contradiction", "contradiction_result", "%s and %s contradict."}
	}
	return relationOperator{}
}

func (c *compiler) relation(call *pyscan.Call, verb string) (value, error) {
	b, err := c.bind(call, verb, []string{"a", "b"}, []string{"rationale", "label"}, false)
	if err != nil {
		return value{}, err
	}
	x, err := c.claimArg(call, verb, b, "a")
	if err != nil {
		return value{}, err
	}
	y, err := c.claimArg(call, verb, b, "b")
	if err != nil {
		return value{}, err
	}
	if x == y {
		return value{}, c.errAt(call.Span, "ValueError: %s() needs two different claims", verb)
	}
	rationale, err := c.str(call, verb, b, "rationale", false)
	if err != nil {
		return value{}, err
	}
	action, err := c.action(verb, b, call)
	if err != nil {
		return value{}, err
	}
	rel := relationOperatorOf(verb)
	helper := &knowledge{typ: "claim", meta: map[string]any{"generated": true, "helper_kind": rel.kind, "review": true}}
	c.ks = append(c.ks, helper)
	meta := map[string]any{"action_label": action}
	if rationale != "" {
		meta["rationale"] = rationale
	}
	op := map[string]any{"operator": rel.op, "metadata": meta}
	c.refs = append(c.refs, func() {
		helper.content = fmt.Sprintf(rel.sentence, claimRef(x), claimRef(y))
		op["variables"] = []any{x.id, y.id}
		op["conclusion"] = helper.id
	})
	c.operators = append(c.operators, op)
	return value{kind: kKnow, k: helper}, nil
}

// claimRef is how Gaia names a claim inside a generated sentence.
func claimRef(k *knowledge) string {
	if k.label != "" {
		return "[@" + k.label + "]"
	}
	return strings.TrimSuffix(k.content, ".")
}

// exports marks the __all__ names exported; each must name a knowledge.
func (c *compiler) exports() error {
	all := c.mod.All
	if all == nil {
		return nil
	}
	if !all.Literal {
		return c.errAt(all.Span, "__all__ must be a literal list of strings in the fake gaia's subset")
	}
	for _, name := range all.Names {
		v, ok := c.vars[name]
		if !ok || v.kind != kKnow || v.k.label != name {
			return c.errAt(all.Span, "__all__ names %q, which is not a knowledge labelled %q in this module", name, name)
		}
		v.k.exported = true
	}
	return nil
}

// ir assigns ids and renders ir.json.
func (c *compiler) ir() ([]byte, error) {
	anon := 0
	for _, k := range c.ks {
		if k.label == "" {
			anon++
			k.id = fmt.Sprintf("%s:%s::_anon_%04d", Namespace, c.pkg, anon)
		} else {
			k.id = fmt.Sprintf("%s:%s::%s", Namespace, c.pkg, k.label)
		}
	}
	for _, f := range c.refs {
		f()
	}
	graph := map[string]any{"namespace": Namespace, "package_name": c.pkg}
	var ks []any
	for _, k := range c.ks {
		m := map[string]any{"content": k.content, "id": k.id, "type": k.typ}
		if k.label != "" {
			m["label"] = k.label
		}
		if k.title != "" {
			m["title"] = k.title
		}
		meta := map[string]any{}
		for key, v := range k.meta {
			meta[key] = v
		}
		if len(k.supports) > 0 {
			meta["supported_by"] = k.supports
		}
		if len(k.priorRecords) > 0 {
			meta["prior_records"] = k.priorRecords
		}
		if len(meta) > 0 {
			m["metadata"] = meta
		}
		ks = append(ks, m)
	}
	graph["knowledges"] = orEmpty(ks)
	graph["strategies"] = orEmpty(mapsToAny(c.strategies))
	if len(c.operators) > 0 {
		graph["operators"] = mapsToAny(c.operators)
	}
	// ir_hash: over the graph without the exported flags.
	irHash := digest.Of(matchproto.MarshalCompact(sorted(graph)))
	for i, k := range c.ks {
		ks[i].(map[string]any)["exported"] = k.exported
	}
	graph["ir_hash"] = irHash
	return []byte(matchproto.MarshalIndent(sorted(graph))), nil
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func mapsToAny(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// sorted turns maps into jsonloc objects with sorted keys, recursively, for
// matchproto's Python-format writer (json.dumps(sort_keys=True)).
func sorted(v any) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		obj := make(jsonloc.Object, 0, len(keys))
		for _, k := range keys {
			obj = append(obj, jsonloc.Member{Key: k, Value: sorted(t[k])})
		}
		return obj
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = sorted(e)
		}
		return out
	}
	return v
}
