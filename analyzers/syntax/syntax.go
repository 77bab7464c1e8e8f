package syntax

import (
	_ "embed"

	"errors"

	"golang.org/x/tools/go/analysis"

	"github.com/nullius-dev/nullius/analyzers/internal/ruleutil"
	"github.com/nullius-dev/nullius/analyzers/pyparse"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/pyscan"
)

//go:embed doc.go
var doc string

// Analyzer is the syntax analyzer; its documentation is the package comment.
var Analyzer = &analysis.Analyzer{
	Name:     "syntax",
	Doc:      ruleutil.MustExtractDoc(doc, "syntax"),
	Requires: []*analysis.Analyzer{pyparse.Analyzer},
	Run:      run,
}

// family owns the rules below; it is the analyzer's Name.
const family = diag.Family("syntax")

// The rules of this family, reported by their variables.
var (
	GAIA000 = &diag.Rule{
		Code: "GAIA000", Name: "module-does-not-parse", Severity: diag.Error,
		Title: "the module cannot be read or does not parse as Python",
		Text: `Every Python file Gaia imports must parse, or nothing in it can be checked: a file
that does not parse, is not UTF-8, cannot be read or is larger than 8 MiB is one violation,
and no other rule runs on it. The diagnostic sits at the first syntax error (or the first
byte that is not UTF-8); the message keeps the reference's "module does not parse" wording.
Fix the syntax, or save the file as UTF-8.`,
		Bad:    "from gaia.engine.lang import claim\nworth = claim(\"The idea merits effort.\"\n",
		Good:   "from gaia.engine.lang import claim\nworth = claim(\"The idea merits effort.\")\n",
		Since:  "0.1.0",
		Origin: "reference", Owner: string(family),
	}
)

func run(pass *analysis.Pass) (any, error) {
	parsed := pass.ResultOf[pyparse.Analyzer].(*pyparse.Result)
	for _, f := range parsed.Files {
		check(pass, f)
	}
	return nil, nil
}

func check(pass *analysis.Pass, f *pyparse.File) {
	start := pyscan.Span{}
	switch {
	case errors.Is(f.Err, pyparse.ErrTooLarge):
		ruleutil.Report(pass, f, start, GAIA000, "module is not parsed: %v; split it or move generated data out of the package", f.Err)
	case f.Err != nil:
		ruleutil.Report(pass, f, start, GAIA000, "module cannot be read: %v", f.Err)
	case f.BadByte >= 0:
		at := pyscan.Span{Start: pyscan.Pos{Offset: int32(f.BadByte)}, End: pyscan.Pos{Offset: int32(f.BadByte + 1)}}
		ruleutil.Report(pass, f, at, GAIA000, "module does not parse: invalid UTF-8 byte 0x%02x; Python source must be UTF-8", f.Src[f.BadByte])
	case f.Module != nil && len(f.Module.Syntax) > 0:
		first := f.Module.Syntax[0]
		if n := len(f.Module.Syntax) - 1; n > 0 {
			ruleutil.Report(pass, f, first.Span, GAIA000, "module does not parse: %s (and %d more syntax error(s))", first.Msg, n)
		} else {
			ruleutil.Report(pass, f, first.Span, GAIA000, "module does not parse: %s", first.Msg)
		}
	}
}

// ruleList lists the rules of this family for the catalogue, which calls
// it when first read (diag.Family.Declare): declaring them costs one store
// at start.
func ruleList() []*diag.Rule {
	return []*diag.Rule{
		GAIA000,
	}
}

var _ = family.Declare(ruleList)
