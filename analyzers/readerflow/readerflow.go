package readerflow

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/gaiaref"
	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/pyfmt"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the readerflow analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "readerflow",
	Doc:      ruleutil.MustExtractDoc(doc, "readerflow"),
	Requires: []*analysis.Analyzer{pyparse.Analyzer, gaiaref.Analyzer},
	Run:      run,
}

// Criteria are the labels of the five criteria, in the order the IR rule
// reports them.
var Criteria = []string{"tension_resolution", "downstream_reach", "mechanism_insight", "testability_timing", "verification_cost"}

func run(pass *analysis.Pass) (any, error) {
	for _, f := range pass.ResultOf[pyparse.Analyzer].(*pyparse.Result).Files {
		if !f.Parsed() {
			return nil, nil // a module nobody can read may hold the missing infer
		}
	}
	g := Build(pass.ResultOf[gaiaref.Analyzer].(*gaiaref.Result))
	for _, n := range g.Disconnected() {
		ruleutil.Report(pass, n.File.File, n.Decl, GAIA507,
			"criterion %s has no reader-flow path to worth, so it cannot move the posterior; connect it with an infer into worth (or a criterion that reaches worth)",
			pyfmt.Str(n.Label))
	}
	return nil, nil
}

// Node is one claim of the package: a claim(...) call.
type Node struct {
	Label string // the first module variable bound to it; "" for an inline claim
	File  *gaiaref.File
	Decl  pyscan.Span // that variable in its first module-level assignment
	Call  *pyscan.Call
	id    int // its index in Graph.Nodes
}

// End is one side of an edge: a claim, something the source cannot pin to
// one (Unknown), or neither (a string, which Gaia turns into a fresh
// anonymous claim).
type End struct {
	Node    *Node
	Unknown bool
}

// Edge is one infer, from its evidence to its hypothesis. Certain edges
// run whenever the package is imported (a module-level statement); others
// sit in a function or a class and may run any number of times.
type Edge struct {
	From, To End
	Certain  bool
}

// Graph is the reader-flow graph of a package's source.
type Graph struct {
	Nodes []*Node
	Edges []Edge
}
