package render

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/nullius-dev/nullius/internal/lazy"
)

//go:embed assets/page.html.tmpl assets/page.css assets/page.js
var assets embed.FS

// pageTmpl is parsed once; html/template escapes every graph string for the
// context it lands in (text, attribute, SVG attribute).
// It is parsed on first use, not at init, so commands that never render do
// not pay for it at process start.
var pageTmpl = lazy.New(buildPageTmpl)

// buildPageTmpl builds pageTmpl on first use.
func buildPageTmpl() *template.Template {
	return template.Must(template.ParseFS(assets, "assets/page.html.tmpl"))
}

// PageOptions are the inputs of a page besides the graph.
type PageOptions struct {
	Version  string    // nullius version, shown in the footer
	IRPin    string    // "sha256:<hex>" of the ir.json bytes, shown in the footer
	Resolver *Resolver // decides which anchors become links; nil: none do
}

type pageView struct {
	CSP, Package, Version, IRPin string
	Style                        template.CSS
	Script                       template.JS
	Data                         template.JS
	Width, Height                string
	Root                         *cardView
	Cards                        []cardView
	Edges                        []edgeView
	Notes                        []string
	HasBeliefs                   bool
	Relations                    []relationView
	Disconnected                 int // criteria not connected to worth
}

type relationView struct {
	Verb, Operator, Meaning, Helper, Action string
	Members                                 []memberView
}

type memberView struct {
	Name, Href string // Href "#card-..." when the claim is drawn
}

type cardView struct {
	Index                                        int
	DOMID, Kind, Name, QID, Statement, Posterior string
	BarW                                         string
	Disconnected                                 bool
}

type edgeView struct {
	Index                                int
	DOMID, Dir, Chip, ChipLabel, Aria, D string
	Width, ChipX, ChipY, ChipLeft, ChipW string
}

// Page renders the complete HTML page for g laid out as l.
func Page(g *Graph, l *Layout, opts PageOptions) ([]byte, error) {
	css, err := assets.ReadFile("assets/page.css")
	if err != nil {
		return nil, err
	}
	js, err := assets.ReadFile("assets/page.js")
	if err != nil {
		return nil, err
	}
	style := string(css) + positions(l)
	data, err := graphJSON(g, opts.Resolver)
	if err != nil {
		return nil, err
	}
	v := pageView{
		CSP:        CSP(string(js), style),
		Package:    g.Package,
		Version:    opts.Version,
		IRPin:      opts.IRPin,
		Style:      template.CSS(style), // our own stylesheet plus numeric positions
		Script:     template.JS(js),     // our own script, hashed into the CSP
		Data:       template.JS(data),   // JSON with <, >, & and U+2028/9 escaped
		Width:      f1(l.Width),
		Height:     f1(l.Height),
		Notes:      g.Notes,
		HasBeliefs: g.HasBeliefs,
	}
	for i, n := range g.Nodes {
		v.Cards = append(v.Cards, cardView{
			Index: i, DOMID: n.DOMID, Kind: nodeKind(g, i), Name: n.Name(), QID: n.ID,
			Statement: n.Statement, Posterior: optProb(n.Posterior), BarW: barWidth(n.Posterior),
			Disconnected: n.Disconnected,
		})
		if n.Disconnected {
			v.Disconnected++
		}
	}
	for _, r := range g.Relations {
		rv := relationView{Verb: r.Verb, Operator: r.Operator, Meaning: r.Meaning, Helper: r.Helper, Action: r.Action}
		for _, m := range r.Members {
			mv := memberView{Name: m.Name}
			if m.Node >= 0 {
				mv.Href = "#" + g.Nodes[m.Node].DOMID
			}
			rv.Members = append(rv.Members, mv)
		}
		v.Relations = append(v.Relations, rv)
	}
	if g.Root >= 0 {
		v.Root = &v.Cards[g.Root]
	}
	for i, e := range g.Edges {
		geo := l.Edges[i]
		v.Edges = append(v.Edges, edgeView{
			Index: i, DOMID: edgeID(i), Dir: string(e.Grade.Direction), Chip: e.Grade.Chip,
			ChipLabel: ChipLabel(e.Grade), D: geo.D, Width: f1(e.Grade.StrokeWidth()),
			Aria:  fmt.Sprintf("%s %s %s (%s): open details", g.Nodes[e.From].Name(), e.Grade.Direction, g.Nodes[e.To].Name(), ChipLabel(e.Grade)),
			ChipX: f1(geo.Chip.X), ChipY: f1(geo.Chip.Y), ChipLeft: f1(-geo.ChipW / 2), ChipW: f1(geo.ChipW),
		})
	}
	var buf bytes.Buffer
	if err := pageTmpl.Get().Execute(&buf, v); err != nil {
		return nil, fmt.Errorf("could not render the page: %w", err)
	}
	return buf.Bytes(), nil
}

// CSP is the page's Content-Security-Policy: nothing may load from
// anywhere; the one inline script and the one inline style run only because
// their sha256 hashes (of the exact text emitted) are listed.
func CSP(script, style string) string {
	return "default-src 'none'; script-src " + hashSource(script) + "; style-src " + hashSource(style) +
		"; img-src 'none'; connect-src 'none'; font-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
}

func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// positions is the generated part of the stylesheet: where each card sits.
// Positions live in the hashed <style> block, not in style attributes, so
// the CSP needs no 'unsafe-inline'.
func positions(l *Layout) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n.canvas{width:%spx;height:%spx}\n", f1(l.Width), f1(l.Height))
	for i, c := range l.Cards {
		fmt.Fprintf(&b, ".n%d{left:%spx;top:%spx;width:%spx;height:%spx}\n", i, f1(c.X), f1(c.Y), f1(c.W), f1(c.H))
	}
	return b.String()
}

// nodeKind picks the card style: the worth root, observed evidence, a
// criterion (by reader_role, or anything feeding the root), or other.
func nodeKind(g *Graph, i int) string {
	n := g.Nodes[i]
	switch {
	case i == g.Root:
		return "root"
	case len(n.Observations) > 0 || n.Role == "evidence":
		return "evidence"
	case n.Role == "criterion":
		return "criterion"
	}
	for _, e := range g.Edges {
		if e.From == i && e.To == g.Root {
			return "criterion"
		}
	}
	return "other"
}

func optProb(p *float64) string {
	if p == nil {
		return ""
	}
	return Prob(*p)
}

func barWidth(p *float64) string {
	if p == nil {
		return "0"
	}
	return f1(math.Max(0, math.Min(1, *p)) * 100)
}

func edgeID(i int) string { return "edge-" + strconv.Itoa(i) }

// The JSON data block read by the page script.
type (
	jsonGraph struct {
		Package string     `json:"package"`
		Nodes   []jsonNode `json:"nodes"`
		Edges   []jsonEdge `json:"edges"`
	}
	jsonNode struct {
		ID           string    `json:"id"`
		Name         string    `json:"name"`
		QID          string    `json:"qid"`
		Meta         string    `json:"meta"`
		Statement    string    `json:"statement"`
		Posterior    string    `json:"posterior"`
		Prior        string    `json:"prior,omitempty"`
		Observations []jsonObs `json:"observations,omitempty"`
		Disconnected bool      `json:"disconnected,omitempty"`
		In           []int     `json:"in"`
		Out          []int     `json:"out"`
	}
	jsonObs struct {
		Rationale string    `json:"rationale"`
		Anchors   []Segment `json:"anchors"`
	}
	jsonEdge struct {
		Index     int       `json:"index"`
		ID        string    `json:"id"`
		From      int       `json:"from"`
		To        int       `json:"to"`
		Strategy  string    `json:"strategy"`
		PEH       string    `json:"p_e_given_h"`
		PENH      string    `json:"p_e_given_not_h"`
		Ratio     string    `json:"ratio"`
		Chip      string    `json:"chip"`
		Direction string    `json:"direction"`
		Sentence  string    `json:"sentence"`
		Canonical bool      `json:"canonical"`
		GradeNote string    `json:"grade_note,omitempty"`
		Rationale string    `json:"rationale"`
		Anchors   []Segment `json:"anchors"`
	}
)

// graphJSON builds the data block. Every number is preformatted here, so
// the script only copies strings and shows three decimals everywhere.
func graphJSON(g *Graph, r *Resolver) (string, error) {
	out := jsonGraph{Package: g.Package, Nodes: make([]jsonNode, len(g.Nodes)), Edges: make([]jsonEdge, len(g.Edges))}
	for i, n := range g.Nodes {
		jn := jsonNode{ID: n.DOMID, Name: n.Name(), QID: n.ID, Meta: nodeMeta(g, i), Statement: n.Statement,
			Posterior: optProb(n.Posterior), Prior: optProb(n.Prior), Disconnected: n.Disconnected, In: []int{}, Out: []int{}}
		for _, o := range n.Observations {
			jn.Observations = append(jn.Observations, jsonObs{Rationale: o, Anchors: anchorsOf(r, o)})
		}
		out.Nodes[i] = jn
	}
	for i, e := range g.Edges {
		out.Nodes[e.To].In = append(out.Nodes[e.To].In, i)
		out.Nodes[e.From].Out = append(out.Nodes[e.From].Out, i)
		out.Edges[i] = jsonEdge{
			Index: i, ID: edgeID(i), From: e.From, To: e.To, Strategy: e.StrategyID,
			PEH: Prob(e.PEH), PENH: Prob(e.PENH), Ratio: e.Grade.RatioText(), Chip: e.Grade.Chip,
			Direction: string(e.Grade.Direction), Sentence: sentence(g, e), Canonical: e.Grade.Canonical,
			GradeNote: gradeNote(e), Rationale: e.Rationale, Anchors: anchorsOf(r, e.Rationale),
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", err
	}
	return EscapeScriptJSON(b), nil
}

// EscapeScriptJSON makes JSON safe inside a <script> element: no `<`, `>` or
// `&` (so `</script>` and `<!--` cannot appear) and no U+2028/U+2029 line
// separators. encoding/json already does this; doing it again here keeps the
// guarantee local and independent of json.Marshal's defaults.
func EscapeScriptJSON(b []byte) string { return scriptEscaper.Replace(string(b)) }

var scriptEscaper = lazy.NewReplacer("<", `\u003c`, ">", `\u003e`, "&", `\u0026`, "\u2028", `\u2028`, "\u2029", `\u2029`)

func anchorsOf(r *Resolver, rationale string) []Segment {
	ref, ok := AnchorText(rationale)
	if !ok || ref == "" {
		return []Segment{}
	}
	if r == nil {
		return []Segment{{Text: ref}}
	}
	return r.Segments(ref)
}

func nodeMeta(g *Graph, i int) string {
	n := g.Nodes[i]
	parts := []string{cmpOr(n.Type, "knowledge")}
	if n.Role != "" {
		parts = append(parts, n.Role)
	}
	if len(n.Observations) > 0 {
		parts = append(parts, "observed")
	}
	if n.Exported {
		parts = append(parts, "exported")
	}
	return strings.Join(parts, " · ") + " · " + n.ID
}

func sentence(g *Graph, e *Edge) string {
	from, to := g.Nodes[e.From].Name(), g.Nodes[e.To].Name()
	switch e.Grade.Direction {
	case Raises:
		return fmt.Sprintf("%s raises belief in %s", from, to)
	case Lowers:
		return fmt.Sprintf("%s lowers belief in %s", from, to)
	}
	return fmt.Sprintf("%s leaves belief in %s unchanged (equal likelihoods)", from, to)
}

func gradeNote(e *Edge) string {
	if e.Grade.Canonical {
		return ""
	}
	return fmt.Sprintf("pair (%s, %s) is not one of the literal grade pairs (0.750, 0.250), (0.900, 0.090), (0.900, 0.030) or their swaps", Prob(e.PEH), Prob(e.PENH))
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
