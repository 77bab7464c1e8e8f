// Package benchcorpus generates a deterministic corpus of realistic Gaia
// packages (claims, observe/infer/register_prior statements with long
// rationales, helpers, imports, comments, docstrings) for benchmarks of the
// Python front end and the lint engine. The same size always yields the same
// bytes, so MB/s figures are comparable between runs and machines.
package benchcorpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/nullius-dev/nullius/internal/atomicfile"
)

// Seed is the fixed seed of the generator.
const Seed = 20261130

// File is one generated file, Path relative to the corpus root.
type File struct {
	Path string
	Data []byte
}

// moduleTarget is the approximate size of one generated module.
const moduleTarget = 24 << 10

// Files generates packages until their Python modules reach totalBytes (at
// least one package). Each package is idea-N-gaia/ with a pyproject.toml and
// src/idea_N/{__init__,evidence,priors}.py.
func Files(totalBytes int) []File {
	r := rand.New(rand.NewPCG(Seed, uint64(totalBytes)))
	var files []File
	py := 0
	for n := 1; n == 1 || py < totalBytes; n++ {
		root := fmt.Sprintf("idea-%d-gaia", n)
		pkg := fmt.Sprintf("idea_%d", n)
		files = append(files, File{
			Path: root + "/pyproject.toml",
			Data: fmt.Appendf(nil, "[project]\nname = %q\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n", root),
		})
		for _, mod := range []string{"__init__", "evidence", "priors"} {
			g := &gen{r: r, mod: mod}
			data := g.module(moduleTarget/2 + r.IntN(moduleTarget))
			files = append(files, File{Path: filepath.ToSlash(filepath.Join(root, "src", pkg, mod+".py")), Data: data})
			py += len(data)
		}
	}
	return files
}

// Sources returns only the Python modules of Files(totalBytes).
func Sources(totalBytes int) []File {
	var out []File
	for _, f := range Files(totalBytes) {
		if strings.HasSuffix(f.Path, ".py") {
			out = append(out, f)
		}
	}
	return out
}

// Generate writes Files(totalBytes) under dir, creating directories. It
// refuses to overwrite existing files.
func Generate(dir string, totalBytes int) error {
	for _, f := range Files(totalBytes) {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteNew(path, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// gen writes one module.
type gen struct {
	r      *rand.Rand
	mod    string
	b      strings.Builder
	claims []string
	n      int
}

var words = strings.Fields(`evidence hypothesis model baseline anomaly spectrum detector
	signal background calibration coupling resonance threshold excess channel lattice
	prediction observation systematic uncertainty likelihood posterior sample survey
	benchmark ablation transformer scaling regime dataset robustness replication cohort
	effect mechanism pathway binding affinity structure measurement correlation variance`)

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

func (g *gen) sentence(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

// grades are the allowed (p_e_given_h, p_e_given_not_h) pairs, written the
// ways authors write them.
var grades = [][2]string{{"0.75", "0.25"}, {"0.90", "0.09"}, {"0.9", "0.03"}, {"0.25", "0.75"}, {"0.09", "0.90"}, {"0.03", "0.9"}}

func (g *gen) module(target int) []byte {
	g.printf("\"\"\"%s\n\n%s\n\"\"\"\n\n", g.sentence(6), g.sentence(20))
	g.printf("from __future__ import annotations\n\n")
	g.printf("from gaia.engine.lang import claim, infer, note, observe, register_prior\n")
	if g.mod != "__init__" {
		g.printf("\nimport math  # used by the helpers\nfrom typing import Sequence\n")
	}
	g.printf("\n# --- %s: %s ---\n\n", g.mod, g.sentence(5))
	for g.b.Len() < target {
		switch k := g.r.IntN(10); {
		case k < 3:
			g.claim()
		case k < 5:
			g.infer()
		case k < 6:
			g.observe()
		case k < 7:
			g.prior()
		case k < 8:
			g.helper()
		default:
			g.printf("# %s\n", g.sentence(8+g.r.IntN(10)))
		}
	}
	if len(g.claims) > 0 {
		g.printf("\n__all__ = [\n")
		for _, c := range g.claims[:min(len(g.claims), 8)] {
			g.printf("    %q,\n", c)
		}
		g.printf("]\n")
	}
	return []byte(g.b.String())
}

func (g *gen) newClaim() string {
	g.n++
	name := fmt.Sprintf("%s_%s_%d", g.word(), g.mod, g.n)
	g.claims = append(g.claims, name)
	return name
}

func (g *gen) someClaim() string {
	if len(g.claims) == 0 {
		return g.newClaim()
	}
	return g.claims[g.r.IntN(len(g.claims))]
}

func (g *gen) claim() {
	name := g.newClaim()
	g.printf("%s = claim(\n    %q,\n    title=%q,\n", name, g.sentence(10+g.r.IntN(20)), name)
	if g.r.IntN(3) == 0 {
		g.printf("    background=[%s],\n", g.someClaim())
	}
	g.printf(")\n\n")
}

// rationale writes a note that follows the discipline (a realistic corpus
// is mostly clean): the sentinel the verb needs first, prose, then the
// trailing anchor.
func (g *gen) rationale(sentinel string) {
	g.printf("    rationale=(\n")
	g.printf("        %q\n", sentinel)
	for range 2 + g.r.IntN(4) {
		g.printf("        %q\n", g.sentence(8+g.r.IntN(8))+" ")
	}
	g.printf("        \"anchor: https://example.org/%s\\n\"\n    ),\n", g.word())
}

func (g *gen) infer() {
	e, h := g.someClaim(), g.someClaim()
	gr := grades[g.r.IntN(len(grades))]
	g.printf("infer(\n    evidence=%s,\n    hypothesis=%s,\n    p_e_given_h=%s,\n    p_e_given_not_h=%s,\n", e, h, gr[0], gr[1])
	g.rationale("reader_reasoning: ")
	g.printf(")\n\n")
}

func (g *gen) observe() {
	g.n++
	g.printf("observe(\n    %s,\n", g.someClaim())
	g.rationale(fmt.Sprintf("evidence_family: %s-%d; correlation_model: single; ", g.word(), g.n))
	g.printf(")\n\n")
}

func (g *gen) prior() {
	g.printf("register_prior(\n    %s,\n    %.2f,\n    justification='%s anchor: survey table %d',\n)\n\n", g.someClaim(), 0.1+0.8*g.r.Float64(), g.sentence(12), 1+g.r.IntN(9))
}

func (g *gen) helper() {
	g.n++
	g.printf("def _%s_%d(values: list[float], *, scale: float = 1.0) -> float:\n", g.word(), g.n)
	g.printf("    \"\"\"%s\"\"\"\n", g.sentence(9))
	g.printf("    total = 0.0\n    for i, v in enumerate(values):\n        if v > 0 and i %% 2 == 0:\n            total += v * scale  # %s\n", g.word())
	g.printf("    return total / max(len(values), 1)\n\n\n")
}
