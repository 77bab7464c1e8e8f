package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nullius-dev/nullius/analyzers/ir"
	"github.com/nullius-dev/nullius/internal/binding"
	"github.com/nullius-dev/nullius/internal/contain"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	"github.com/nullius-dev/nullius/internal/lazyre"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// PortfolioOptions configure the portfolio status report (§5).
type PortfolioOptions struct {
	NodesPath   string // the campaign's nodes_latest.json (or a wrapper)
	ProjectRoot string
	OutMD       string // where the Markdown goes (links are relative to it)
	Top         int    // drivers per direction; < 1 means 2
	WorthLabel  string // "" means worth
}

// Driver is one single-premise likelihood that moves a claim.
type Driver struct {
	Effect float64 `json:"effect"`
	Reason string  `json:"reason"`
	// Updates names the claim the evidence updates: the hypothesis (Gaia's
	// premise), not the stored conclusion (W-14a).
	Updates string `json:"updates"`
}

// Row is one node of the report.
type Row struct {
	EvidenceCount   any      `json:"evidence_count"`
	GraphRootBelief *float64 `json:"graph_root_belief"`
	LifecycleState  string   `json:"lifecycle_state"`
	CoverageStatus  string   `json:"literature_coverage_status"`
	LoweringDrivers []Driver `json:"lowering_drivers"`
	NodeID          string   `json:"node_id"`
	// Package is the package bound to this node ([tool.nullius] campaign-id
	// and node-id), relative to the project root; null when none is.
	Package *string `json:"package"`
	// BindingMismatch flags a stored ref naming a package bound to another
	// idea: the stored posterior is another idea's graph.
	BindingMismatch bool     `json:"binding_mismatch"`
	PackageDir      *string  `json:"package_dir"` // relative to the project root (W-14d)
	PackageRef      string   `json:"package_ref"`
	PosteriorStatus string   `json:"posterior_status"`
	PosteriorValue  *float64 `json:"posterior_value"`
	// Stale flags a row whose graph cannot vouch for the stored number: a
	// pin that no longer matches (W-14b) or a store/graph mismatch.
	Stale              bool     `json:"stale"`
	StoreGraphMismatch bool     `json:"store_graph_mismatch"`
	SupportDrivers     []Driver `json:"support_drivers"`
	Thesis             string   `json:"thesis"`
	graphLink          string
}

// Portfolio is the whole report.
type Portfolio struct {
	NodesSource string   `json:"nodes_source"`
	Rows        []Row    `json:"rows"`
	Warnings    []string `json:"warnings"`
}

var refRE = lazyre.New(`^project://([^#]*)#sha256:([0-9a-f]{64})$`)

// LoadNodes reads the engine's native map {node_id: node} (rows sorted by
// key) or a wrapper {"campaign_id", "nodes": [...] | {...}}. It reads the
// file as `match pairs` does (pairs.LoadNodes), so both name the same
// package for a node: a repeated key is refused (json.load would let the
// last one win silently), and a node without its own campaign_id takes the
// wrapper's. path names the file in messages.
func LoadNodes(path string, b []byte) ([]map[string]any, error) {
	doc, err := jsonloc.Parse(b, jsonloc.Options{})
	if err != nil {
		return nil, fmt.Errorf("nodes file is not JSON: %v", err)
	}
	if err := doc.DuplicateError(path); err != nil {
		return nil, err
	}
	top := doc.Value
	m, ok := top.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("nodes file must be a JSON object, got %T", top)
	}
	container := any(m)
	var wrapper map[string]any // nil for the engine's native map
	if n, ok := m["nodes"]; ok {
		if _, isNode := m["node_id"]; !isNode {
			container = n
			wrapper = m
		}
	}
	// inherit gives a wrapper's node the wrapper's campaign_id when it has
	// none of its own (the binding lookup and check use it), as `match
	// pairs` does.
	inherit := func(n map[string]any) {
		if c := binding.NodeCampaign(n, wrapper); c != "" {
			n["campaign_id"] = c
		}
	}
	var out []map[string]any
	switch c := container.(type) {
	case []any:
		for i, v := range c {
			n, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("nodes[%d] is not an object", i)
			}
			inherit(n)
			out = append(out, n)
		}
	case map[string]any:
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n, ok := c[k].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("node %q is not an object", k)
			}
			if _, has := n["node_id"]; !has {
				n["node_id"] = k
			}
			inherit(n)
			out = append(out, n)
		}
	default:
		return nil, fmt.Errorf("nodes container must be a list or a map")
	}
	return out, nil
}

// BuildPortfolio collects every row; problems become warnings, never errors.
func BuildPortfolio(opts PortfolioOptions) (*Portfolio, error) {
	b, err := readlimit.ReadFile(opts.NodesPath, readlimit.JSON)
	if err != nil {
		return nil, err
	}
	nodes, err := LoadNodes(opts.NodesPath, b)
	if err != nil {
		return nil, err
	}
	if opts.Top < 1 {
		opts.Top = 2
	}
	if opts.WorthLabel == "" {
		opts.WorthLabel = ir.RootLabel
	}
	root, err := filepath.Abs(opts.ProjectRoot)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil, err
	}
	p := &Portfolio{NodesSource: opts.NodesPath, Warnings: []string{}}
	ix, err := binding.Scan(root)
	if err != nil {
		p.Warnings = append(p.Warnings, "packages not searched for their bindings: "+err.Error())
	} else {
		for _, e := range ix.Problems {
			p.Warnings = append(p.Warnings, "a package's binding cannot be read: "+e.Error())
		}
	}
	for _, n := range nodes {
		r := collectRow(n, root, opts, &p.Warnings)
		dirs, err := ix.Lookup(sval(n["campaign_id"]), r.NodeID)
		switch {
		case err != nil:
			p.Warnings = append(p.Warnings, fmt.Sprintf("node %s: bound by %d packages (%s); rebind all but one (nullius bind --force)", r.NodeID, len(dirs), strings.Join(dirs, ", ")))
		case len(dirs) == 1:
			r.Package = &dirs[0]
		}
		p.Rows = append(p.Rows, r)
	}
	return p, nil
}

func sval(v any) string { s, _ := v.(string); return s }

func fval(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

func collectRow(n map[string]any, root string, opts PortfolioOptions, warnings *[]string) Row {
	r := Row{NodeID: sval(n["node_id"]), LifecycleState: sval(n["lifecycle_state"]),
		SupportDrivers: []Driver{}, LoweringDrivers: []Driver{}}
	if card, ok := n["idea_card"].(map[string]any); ok {
		r.Thesis = strings.TrimSpace(sval(card["thesis_statement"]))
	}
	if cov, ok := n["literature_coverage"].(map[string]any); ok {
		r.CoverageStatus = sval(cov["status"])
	}
	post, _ := n["posterior"].(map[string]any)
	if post == nil {
		return r
	}
	if v, ok := fval(post["value"]); ok {
		r.PosteriorValue = &v
	}
	r.PosteriorStatus = sval(post["status"])
	r.EvidenceCount = post["evidence_count"]
	r.PackageRef = sval(post["gaia_package_ref"])
	if r.PackageRef == "" {
		return r
	}
	warn := func(format string, args ...any) {
		*warnings = append(*warnings, fmt.Sprintf("node %s: ", r.NodeID)+fmt.Sprintf(format, args...))
	}
	m := refRE.FindStringSubmatch(r.PackageRef)
	pkg, ok := "", m != nil
	if ok {
		pkg, ok = resolvePackage(root, m[1])
	}
	if !ok {
		warn("package ref %s does not resolve under the project root; drivers withheld", r.PackageRef)
		return r
	}
	rel, _ := filepath.Rel(root, pkg)
	rel = filepath.ToSlash(rel)
	r.PackageDir = &rel
	if b, bound, err := binding.Read(pkg); err == nil && bound && (b.NodeID != r.NodeID || (sval(n["campaign_id"]) != "" && b.CampaignID != sval(n["campaign_id"]))) {
		r.BindingMismatch, r.Stale = true, true
		warn("the package %s at the stored ref is bound to campaign-id %s, node-id %s, not to this node: the stored posterior is another idea's graph; drivers withheld", rel, b.CampaignID, b.NodeID)
		return r
	}
	irPath, belPath := filepath.Join(pkg, ".gaia", "ir.json"), filepath.Join(pkg, ".gaia", "beliefs.json")
	irBytes, err1 := readInside(irPath, root, pkg)
	belBytes, err2 := readInside(belPath, root, pkg)
	if err1 != nil || err2 != nil {
		for _, e := range []error{err1, err2} {
			if e != nil {
				warn("cannot read %v; drivers withheld", e)
			}
		}
		return r
	}
	if html := filepath.Join(pkg, "argument-graph.html"); fileExists(html) {
		if out, err := filepath.Abs(filepath.Dir(opts.OutMD)); err == nil {
			if l, err := filepath.Rel(out, html); err == nil {
				r.graphLink = filepath.ToSlash(l)
			}
		}
	}
	if ir.CompiledIRPin(irBytes) != "sha256:"+m[2] {
		r.Stale = true
		warn("the exact compiled ir.json no longer matches the stored pin (the graph was recompiled after writeback); drivers withheld until re-extraction and writeback")
		return r
	}
	doc, _ := ir.Load(irPath, irBytes)
	var contract []diag.Diagnostic
	if doc != nil {
		ds, _ := ir.Check(doc, ir.CheckOptions{})
		for _, d := range ds {
			if d.Severity == diag.Error {
				contract = append(contract, d)
			}
		}
	}
	if doc == nil || len(contract) > 0 {
		msg := "not a usable compiled graph"
		if len(contract) > 0 {
			msg = contract[0].Code + " " + contract[0].Message
		}
		warn("cannot read %s: %s; drivers withheld", irPath, msg)
		return r
	}
	r.SupportDrivers, r.LoweringDrivers = graphDrivers(doc.Root, opts.Top)
	if rb, ok := rootBelief(belBytes, opts.WorthLabel); ok {
		r.GraphRootBelief = &rb
		if r.PosteriorValue != nil && math.Abs(rb-*r.PosteriorValue) > 1e-9 {
			r.StoreGraphMismatch, r.Stale = true, true
			warn("stored posterior %v differs from the graph's root belief %v: the stored value is historical evidence; re-extract before allocation", *r.PosteriorValue, rb)
		}
	} else {
		warn("cannot read a %s belief from %s; staleness check skipped", opts.WorthLabel, belPath)
	}
	return r
}

// resolvePackage decodes a ref path and resolves it inside root.
func resolvePackage(root, raw string) (string, bool) {
	dec, err := url.PathUnescape(raw)
	if err != nil || dec == "" {
		return "", false
	}
	for _, s := range strings.Split(dec, "/") {
		if s == "" || s == "." || s == ".." {
			return "", false
		}
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(dec)))
	if err != nil || !contain.Within(real, root) {
		return "", false
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", false
	}
	return real, true
}

func fileExists(p string) bool { fi, err := os.Stat(p); return err == nil && fi.Mode().IsRegular() }

// readInside reads a package input that must resolve inside both the root
// and the package directory (a symlink out withholds everything).
func readInside(p, root, pkg string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil || !contain.Within(real, root) || !contain.Within(real, pkg) || !fileExists(real) {
		return nil, fmt.Errorf("%s (missing, not a file, or outside the package)", p)
	}
	return readlimit.ReadFile(real, readlimit.JSON)
}

var (
	readerPrefixRE = lazyre.New(`^\s*reader_reasoning:\s*`)
	resolutionRE   = lazyre.New(`\s*resolution_evidence:\s*[a-z_]+[.;]?`)
)

// graphDrivers scores every strategy with one premise and two conditional
// probabilities: effect = P(E|H) − P(E|¬H), naming the premise (the claim
// the evidence updates in Gaia's generative storage).
func graphDrivers(root map[string]any, top int) ([]Driver, []Driver) {
	names := map[string]string{}
	ks, _ := root["knowledges"].([]any)
	for _, kv := range ks {
		k, _ := kv.(map[string]any)
		id := sval(k["id"])
		name := sval(k["title"])
		if name == "" {
			name = sval(k["label"])
		}
		if name == "" {
			name = id
		}
		names[id] = name
	}
	var up, down []Driver
	strats, _ := root["strategies"].([]any)
	for _, sv := range strats {
		s, _ := sv.(map[string]any)
		e, ok := StrategyEffect(s)
		if !ok || e == 0 {
			continue
		}
		prem := s["premises"].([]any)
		d := Driver{Effect: e, Updates: names[sval(prem[0])], Reason: driverReason(s)}
		if d.Updates == "" {
			d.Updates = sval(prem[0])
		}
		if e > 0 {
			up = append(up, d)
		} else {
			down = append(down, d)
		}
	}
	sort.SliceStable(up, func(i, j int) bool { return up[i].Effect > up[j].Effect })
	sort.SliceStable(down, func(i, j int) bool { return down[i].Effect < down[j].Effect })
	if len(up) > top {
		up = up[:top]
	}
	if len(down) > top {
		down = down[:top]
	}
	if up == nil {
		up = []Driver{}
	}
	if down == nil {
		down = []Driver{}
	}
	return up, down
}

// StrategyEffect is P(E|H) − P(E|¬H) for a single-premise, two-probability
// strategy; multi-premise tables are never scored (PS2).
func StrategyEffect(s map[string]any) (float64, bool) {
	prem, _ := s["premises"].([]any)
	cp, _ := s["conditional_probabilities"].([]any)
	if len(prem) != 1 || len(cp) != 2 {
		return 0, false
	}
	nh, ok1 := fval(cp[0])
	h, ok2 := fval(cp[1])
	if !ok1 || !ok2 {
		return 0, false
	}
	return math.Round((h-nh)*1e12) / 1e12, true
}

func driverReason(s map[string]any) string {
	steps, _ := s["steps"].([]any)
	var parts []string
	for _, st := range steps {
		m, _ := st.(map[string]any)
		if r := strings.TrimSpace(sval(m["reasoning"])); r != "" {
			parts = append(parts, r)
		}
	}
	text := strings.Join(parts, " ")
	if text == "" {
		if md, ok := s["metadata"].(map[string]any); ok {
			text = sval(md["reason"])
		}
	}
	text = readerPrefixRE.ReplaceAllString(text, "")
	text = resolutionRE.ReplaceAllString(text, "")
	return strings.TrimSpace(text)
}

func rootBelief(b []byte, label string) (float64, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return 0, false
	}
	bs, _ := m["beliefs"].([]any)
	for _, e := range bs {
		x, _ := e.(map[string]any)
		if sval(x["label"]) == label {
			if f, ok := fval(x["belief"]); ok {
				return f, true
			}
		}
	}
	return 0, false
}

// Markdown renders the report (§5, with a status column and stale flags).
func (p *Portfolio) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Portfolio Status Report\n\nNodes source: `%s` (%d nodes)\n\n", p.NodesSource, len(p.Rows))
	b.WriteString("Each row is one idea node: its lifecycle state, literature coverage, the stored posterior (three decimals) and its readiness status, and a link to the rendered argument graph.\n")
	b.WriteString("`⚠ stale?` marks a stored number the current graph no longer vouches for (recompiled after writeback, beliefs that disagree, or a graph bound to another idea).\n")
	b.WriteString("The package is the Gaia package bound to the node (`[tool.nullius]` campaign-id and node-id).\n")
	b.WriteString("Drivers are the likelihoods that move each claim most: the effect is P(E|H) − P(E|¬H), and the arrow names the claim the evidence updates.\n\n")
	b.WriteString("| node | state | coverage | posterior | status | graph | package |\n|---|---|---|---|---|---|---|\n")
	dash := func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	}
	for _, r := range p.Rows {
		val := "—"
		if r.PosteriorValue != nil {
			val = fmt.Sprintf("%.3f", *r.PosteriorValue)
			if r.Stale {
				val += " ⚠ stale?"
			}
		}
		graph := "—"
		if r.graphLink != "" {
			graph = "[graph](" + r.graphLink + ")"
		}
		pkg := "—"
		if r.Package != nil {
			pkg = "`" + *r.Package + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", r.NodeID, dash(r.LifecycleState), dash(r.CoverageStatus), val, dash(r.PosteriorStatus), graph, pkg)
	}
	for _, r := range p.Rows {
		if len(r.SupportDrivers)+len(r.LoweringDrivers) == 0 && r.Thesis == "" {
			continue
		}
		fmt.Fprintf(&b, "\n## `%s`\n\n", r.NodeID)
		if r.Thesis != "" {
			t := strings.Join(strings.Fields(r.Thesis), " ")
			if rs := []rune(t); len(rs) > 240 {
				t = string(rs[:240]) + "…"
			}
			b.WriteString(t + "\n\n")
		}
		status := "posterior " + fmtOpt(r.PosteriorValue) + "; status " + dash(r.PosteriorStatus) + "; graph root belief " + fmtOpt(r.GraphRootBelief)
		if r.StoreGraphMismatch {
			status += "; store/graph mismatch — re-extract before allocation"
		}
		b.WriteString(status + "\n\n")
		writeDrivers(&b, "Top support", r.SupportDrivers)
		writeDrivers(&b, "Top lowering", r.LoweringDrivers)
		if r.PackageRef != "" {
			fmt.Fprintf(&b, "- Machine ref: `%s`\n", r.PackageRef)
		}
	}
	return b.String()
}

func writeDrivers(b *strings.Builder, title string, ds []Driver) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintf(b, "- %s:\n", title)
	for _, d := range ds {
		reason := d.Reason
		if reason == "" {
			reason = "(no recorded reasoning)"
		}
		fmt.Fprintf(b, "  - %+.2f → %s: %s\n", d.Effect, d.Updates, reason)
	}
}

func fmtOpt(f *float64) string {
	if f == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *f)
}

// JSON renders the report data: indented, sorted keys, exact values.
func (p *Portfolio) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func irPin(b []byte) string { return ir.CompiledIRPin(b) }
