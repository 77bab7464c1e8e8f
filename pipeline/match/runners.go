package match

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/nullius-dev/nullius/internal/matchproto"
	"github.com/nullius-dev/nullius/internal/pyformat"
	"github.com/nullius-dev/nullius/internal/shlex"
)

// How the reference starts each runner (§0.4, §5.5): `bash <script>` for
// the three direct runners and `<python> <launcher>` for the review-swarm
// launcher, never the script itself. As the sibling skills are
// distributed, run_kimi.sh and run_multi_task.py are mode 100644, so only
// an interpreter can run them.

// runnerKind describes where one runner's program is looked for.
type runnerKind struct {
	env        string // IDEA_PAIRWISE_* variable naming the script
	skillsPath string // the script under a skills root, distributed layout
	name       string // its file name, looked for on PATH
	python     bool   // run with the Python interpreter (else bash)
}

// runnerKinds are the §0.4 defaults: the reference looks next to its own
// skill folder (skills/<skill>/...); nullius under --skills-root. A table
// the linker lays out, not a map built at every process start.
var runnerKinds = [...]struct {
	runner string
	kind   runnerKind
}{
	{"kimi", runnerKind{"IDEA_PAIRWISE_KIMI_RUNNER", "kimi-cli-runner/scripts/run_kimi.sh", "run_kimi.sh", false}},
	{"opencode", runnerKind{"IDEA_PAIRWISE_OPENCODE_RUNNER", "opencode-cli-runner/scripts/run_opencode.sh", "run_opencode.sh", false}},
	{"gemini", runnerKind{"IDEA_PAIRWISE_GEMINI_RUNNER", "gemini-cli-runner/scripts/run_gemini.sh", "run_gemini.sh", false}},
	{"codex", runnerKind{"IDEA_PAIRWISE_MULTI_TASK", "review-swarm/scripts/bin/run_multi_task.py", "run_multi_task.py", true}},
	{"claude-cli", runnerKind{"IDEA_PAIRWISE_MULTI_TASK", "review-swarm/scripts/bin/run_multi_task.py", "run_multi_task.py", true}},
}

// runnerKindOf is runner's entry of runnerKinds.
func runnerKindOf(runner string) (runnerKind, bool) {
	for _, e := range runnerKinds {
		if e.runner == runner {
			return e.kind, true
		}
	}
	return runnerKind{}, false
}

// Launch is how a family's runner would be started, found before any
// judge runs.
type Launch struct {
	Interpreter string   // argv[0]: "bash", or the Python interpreter as configured
	Script      string   // the runner script or launcher: as found, as $IDEA_PAIRWISE_… names it, or "" when not found
	From        string   // where it was found: "$IDEA_PAIRWISE_…", "--skills-root", "PATH"
	Looked      []string // every place it was looked for, in order
	Problem     string   // why it cannot be started ("" when it can)
}

// python is the interpreter of the launcher: --python, $NULLIUS_PYTHON,
// else python3 (the reference uses its own sys.executable).
func (p *panel) python() string {
	if p.o.Python != "" {
		return p.o.Python
	}
	if v := p.o.getenv("NULLIUS_PYTHON"); v != "" {
		return v
	}
	return "python3"
}

// skillsRoot is --skills-root, else $NULLIUS_SKILLS_ROOT.
func (p *panel) skillsRoot() string {
	if p.o.SkillsRoot != "" {
		return p.o.SkillsRoot
	}
	return p.o.getenv("NULLIUS_SKILLS_ROOT")
}

// launch finds runner's program: its IDEA_PAIRWISE_* variable (as given,
// even when wrong: the user named it), else the skills root's file, else
// the file name on PATH (readable suffices: the interpreter runs it).
func (p *panel) launch(runner string) Launch {
	k, ok := runnerKindOf(runner)
	if !ok {
		return Launch{Problem: fmt.Sprintf("runner %q has no program to start", runner)}
	}
	l := Launch{Interpreter: "bash"}
	if k.python {
		l.Interpreter = p.python()
	}
	if v := p.o.getenv(k.env); v != "" {
		l.Looked = []string{"$" + k.env + "=" + v}
		l.Script, l.From = v, "$"+k.env
		if why := unreadable(v); why != "" {
			l.Problem = fmt.Sprintf("$%s names %s, which %s", k.env, v, why)
		}
		return p.checkInterpreter(l)
	}
	if root := p.skillsRoot(); root != "" {
		cand := filepath.Join(root, filepath.FromSlash(k.skillsPath))
		l.Looked = append(l.Looked, cand)
		if unreadable(cand) == "" {
			l.Script, l.From = cand, "--skills-root"
			return p.checkInterpreter(l)
		}
	}
	l.Looked = append(l.Looked, k.name+" on PATH")
	for _, dir := range filepath.SplitList(p.o.getenv("PATH")) {
		if dir == "" {
			continue
		}
		if cand := filepath.Join(dir, k.name); unreadable(cand) == "" {
			l.Script, l.From = cand, "PATH"
			return p.checkInterpreter(l)
		}
	}
	l.Problem = fmt.Sprintf("%s not found (looked at %s); set $%s, or --skills-root to the folder that holds %s",
		k.name, strings.Join(l.Looked, ", "), k.env, strings.SplitN(k.skillsPath, "/", 2)[0]+"/")
	return p.checkInterpreter(l)
}

// checkInterpreter adds a missing interpreter to l's problems.
func (p *panel) checkInterpreter(l Launch) Launch {
	if err := p.lookPath(l.Interpreter); err != nil {
		why := fmt.Sprintf("its interpreter %s is not an executable on PATH", l.Interpreter)
		if strings.Contains(l.Interpreter, "/") {
			why = fmt.Sprintf("its interpreter %s is not an executable file", l.Interpreter)
		}
		if l.Interpreter != "bash" {
			why += " (set --python or $NULLIUS_PYTHON)"
		}
		if l.Problem == "" {
			l.Problem = why
		} else {
			l.Problem += "; " + why
		}
	}
	return l
}

// unreadable says why path cannot be read as a script ("" when it can).
// access(2) answers without opening it, so a FIFO cannot block here.
func unreadable(path string) string {
	fi, err := os.Stat(path)
	switch {
	case err != nil && os.IsNotExist(err):
		return "does not exist"
	case err != nil:
		return "cannot be read: " + err.Error()
	case !fi.Mode().IsRegular():
		return "is not a regular file"
	case unix.Access(path, unix.R_OK) != nil:
		return "is not readable"
	}
	return ""
}

// runnerProblem is the preflight of one usable, roster-run family (§5.5
// families other than native and --runner overrides): "" when its runner
// can be started, else why not, as the seat's absence reason.
func (p *panel) runnerProblem(f matchproto.Family) string {
	if f.Runner == "native" || p.override[f.Label] != "" {
		return ""
	}
	l := p.launch(f.Runner)
	if l.Problem == "" {
		return ""
	}
	return fmt.Sprintf("declared available in the roster and its executable (%s) is present, but its runner cannot be started: %s; the seat is honestly absent, never run", binary(f.Runner), l.Problem)
}

// expandTemplate is the reference's
// [token.format(prompt=P, system=S) for token in shlex.split(template)]:
// an error is what becomes the seat's "invocation error: <exc>".
func expandTemplate(tmpl, prompt, system string) ([]string, error) {
	toks, err := shlex.Split(tmpl)
	if err != nil {
		return nil, err
	}
	kw := map[string]string{"prompt": prompt, "system": system}
	argv := make([]string, 0, len(toks))
	for _, t := range toks {
		a, err := pyformat.Format(t, kw)
		if err != nil {
			return nil, err
		}
		argv = append(argv, a)
	}
	if len(argv) == 0 {
		// Python's subprocess.run([]) raises IndexError with these words.
		return nil, errors.New("list index out of range")
	}
	return argv, nil
}
