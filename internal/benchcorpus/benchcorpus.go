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

// smallTarget is the approximate size of one module of the small-packages
// corpus: what a package of a research monorepo holds.
const smallTarget = 2800

// SmallPackages generates n small packages the way a research monorepo
// holds them: ideas/<topic>/idea-N-gaia/ with a pyproject.toml, a README.md,
// src/idea_N/__init__.py and, in two packages of three, src/idea_N/evidence.py,
// every module about 2.8 KB (1,000 packages hold ~4.7 MB of Python).
// Mostly clean, as a monorepo is: one package in eight carries a few
// findings (an off-grade pair, a stock sentence, a missing anchor, a
// suppressed one), one in ten has a [tool.nullius] table, and one topic
// folder a nullius.toml, so the output and the configuration path are
// exercised too. Like Files, the same n always yields the same bytes.
func SmallPackages(n int) []File {
	r := rand.New(rand.NewPCG(Seed, uint64(n)|1<<40))
	topics := []string{"physics", "biology", "ml", "materials", "climate"}
	var files []File
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("idea-%d-gaia", i)
		pkg := fmt.Sprintf("idea_%d", i)
		root := "ideas/" + topics[i%len(topics)] + "/" + name
		pyproject := fmt.Appendf(nil, "[project]\nname = %q\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n", name)
		if r.IntN(10) == 0 {
			pyproject = append(pyproject, "\n[tool.nullius]\nignore = [\"GAIA505\"]\nexclude = [\"scratch/**\"]\n"...)
		}
		files = append(files,
			File{Path: root + "/pyproject.toml", Data: pyproject},
			File{Path: root + "/README.md", Data: fmt.Appendf(nil, "# %s\n\nA generated Gaia package.\n", name)})
		mods := []string{"__init__"}
		if r.IntN(3) > 0 {
			mods = append(mods, "evidence")
		}
		flawed := r.IntN(8) == 0
		for _, mod := range mods {
			g := &gen{r: r, mod: mod, flawed: flawed}
			files = append(files, File{Path: root + "/src/" + pkg + "/" + mod + ".py", Data: g.module(smallTarget - 600 + r.IntN(600))})
		}
	}
	// One topic folder carries a nullius.toml that governs its packages
	// (closest configuration wins over none).
	files = append(files, File{Path: "ideas/climate/nullius.toml", Data: []byte("warnings = false\n[per-file-ignores]\n\"**/evidence.py\" = [\"GAIA032\"]\n")})
	return files
}

// Sources returns only the Python modules of Files(totalBytes).
func Sources(totalBytes int) []File { return PythonOnly(Files(totalBytes)) }

// PythonOnly returns the Python modules among files.
func PythonOnly(files []File) []File {
	var out []File
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".py") {
			out = append(out, f)
		}
	}
	return out
}

// Generate writes Files(totalBytes) under dir, creating directories. It
// refuses to overwrite existing files.
func Generate(dir string, totalBytes int) error { return Write(dir, Files(totalBytes)) }

// Write writes files under dir, creating directories. It refuses to
// overwrite existing files. A corpus is scratch data regenerated at will,
// so files are plainly created, not synced (thousands of fsyncs would make
// generating it slower than linting it).
func Write(dir string, files []File) error {
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := writeNew(path, f.Data); err != nil {
			return err
		}
	}
	return nil
}

func writeNew(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = fh.Write(data)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// gen writes one module.
type gen struct {
	r      *rand.Rand
	mod    string
	b      strings.Builder
	claims []string
	n      int
	// flawed modules carry occasional findings (small-packages corpus).
	flawed bool
}

// flaw reports whether this statement of a flawed module breaks a rule:
// about one in eight of them does.
func (g *gen) flaw() bool { return g.flawed && g.r.IntN(8) == 0 }

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
	content := g.sentence(10 + g.r.IntN(20))
	if g.flaw() {
		content = "The idea merits sustained verification effort." // a stock scaffold sentence (GAIA510)
	}
	g.printf("%s = claim(\n    %q,\n    title=%q,\n", name, content, name)
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
	if g.flaw() {
		g.printf("    ),\n") // no trailing anchor (GAIA032)
		return
	}
	g.printf("        \"anchor: https://example.org/%s\\n\"\n    ),\n", g.word())
}

func (g *gen) infer() {
	e, h := g.someClaim(), g.someClaim()
	gr := grades[g.r.IntN(len(grades))]
	if g.flaw() {
		gr = [2]string{"0.8", "0.1"} // off-grade (GAIA011)
		if g.r.IntN(2) == 0 {
			g.printf("# nullius: ignore[GAIA011] kept to compare with the published analysis\n")
		}
	}
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
