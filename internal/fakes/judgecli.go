package fakes

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Environment of the judge-CLI and launcher stand-ins.
const (
	// JudgeCLIDir is where fake-cli and fake-python record the argv they
	// were given, one argument a line: <dir>/<name>.argv.
	JudgeCLIDir = "FAKE_CLI_DIR"
	// JudgeCLIVotePrefix + NAME (upper case) is the vote fake-cli NAME
	// gives: a, b or tie (default a).
	JudgeCLIVotePrefix = "FAKE_CLI_VOTE_"
)

// CLIMain is fake-cli, a stand-in for a judge CLI (kimi, opencode, gemini,
// codex, claude); a test puts a two-line wrapper named after the CLI on
// PATH that runs `fake-cli NAME "$@"`. It records its arguments to
// $FAKE_CLI_DIR/NAME.argv, reads the prompt file given with
// --prompt-file, and prints a fenced vote ($FAKE_CLI_VOTE_NAME).
func CLIMain() { os.Exit(cliRun(os.Args[1:])) }

func cliRun(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: fake-cli NAME [--prompt-file FILE] ...")
		return 2
	}
	name, rest := args[0], args[1:]
	if err := recordArgv(name, rest); err != nil {
		fmt.Fprintln(os.Stderr, "fake-cli:", err)
		return 2
	}
	prompt := ""
	for i, a := range rest {
		if a == "--prompt-file" && i+1 < len(rest) {
			prompt = rest[i+1]
		}
	}
	if _, err := os.Stat(prompt); err != nil {
		fmt.Fprintf(os.Stderr, "fake-cli %s: no readable --prompt-file: %v\n", name, err)
		return 2
	}
	vote := os.Getenv(JudgeCLIVotePrefix + strings.ToUpper(name))
	if vote == "" {
		vote = "a"
	}
	fmt.Printf("%s read the prompt.\n\n```json\n{\"vote\": %q, \"anchored_arguments\": [{\"argument\": \"the pilot bounds the cost\", \"anchor_type\": \"computation\", \"anchor_ref\": \"artifact://campaign/toy/computations/adaptive-enrichment-pilot.json\"}], \"unanchored_arguments_discarded\": 0}\n```\n", name, vote)
	return 0
}

// PythonMain is fake-python, a stand-in for the Python interpreter that
// runs review-swarm's launcher: `fake-python SCRIPT ARGS...` records SCRIPT
// and ARGS to $FAKE_CLI_DIR/python-BACKEND.argv and, when SCRIPT is named
// run_multi_task.py, does for one model what the launcher does: runs the
// backend's CLI (codex or claude, from PATH) on --prompt, writes its reply
// to OUT-DIR/FILE of --backend-output BACKEND=FILE and writes
// OUT-DIR/meta.json naming the model it ran ("resolved/MODEL").
func PythonMain() { os.Exit(pythonRun(os.Args[1:])) }

func pythonRun(args []string) int {
	if len(args) == 0 || filepath.Base(args[0]) != "run_multi_task.py" {
		fmt.Fprintln(os.Stderr, "fake-python: runs only a script named run_multi_task.py")
		return 2
	}
	fs := flag.NewFlagSet("run_multi_task.py", flag.ContinueOnError)
	outDir := fs.String("out-dir", "", "")
	fs.String("system", "", "")
	prompt := fs.String("prompt", "", "")
	models := fs.String("models", "", "")
	backendOutput := fs.String("backend-output", "", "")
	fs.String("timeout-secs", "", "")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	backend, model, _ := strings.Cut(*models, "/")
	if err := recordArgv("python-"+backend, args); err != nil {
		fmt.Fprintln(os.Stderr, "fake-python:", err)
		return 2
	}
	be, file, ok := strings.Cut(*backendOutput, "=")
	if !ok || be != backend || *outDir == "" {
		fmt.Fprintf(os.Stderr, "fake-python: --backend-output %q does not name the backend of --models %q\n", *backendOutput, *models)
		return 2
	}
	out, err := exec.Command(backend, "--prompt-file", *prompt).Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake-python: %s: %v\n", backend, err)
		return 1
	}
	if err := os.WriteFile(filepath.Join(*outDir, file), out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fake-python:", err)
		return 1
	}
	meta := fmt.Sprintf("{\"agents\": [{\"backend\": %q, \"model\": %q}]}\n", backend, "resolved/"+model)
	if err := os.WriteFile(filepath.Join(*outDir, "meta.json"), []byte(meta), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fake-python:", err)
		return 1
	}
	return 0
}

func recordArgv(name string, args []string) error {
	dir := os.Getenv(JudgeCLIDir)
	if dir == "" {
		return fmt.Errorf("$%s is not set", JudgeCLIDir)
	}
	return os.WriteFile(filepath.Join(dir, name+".argv"), []byte(strings.Join(args, "\n")+"\n"), 0o644)
}
