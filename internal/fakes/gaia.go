package fakes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nullius-dev/nullius/internal/atomicfile"
	"github.com/nullius-dev/nullius/internal/fakes/gaiac"
	"github.com/nullius-dev/nullius/internal/readlimit"
)

// Environment variables that steer the fake gaia (twin of the bash script
// fixtures/fakegaia/gaia; keep the two in step).
const (
	GaiaEnvLog        = "FAKE_GAIA_LOG"         // append one line per call: the arguments, space-joined
	GaiaEnvVersion    = "FAKE_GAIA_VERSION"     // the --version banner
	GaiaEnvFail       = "FAKE_GAIA_FAIL"        // stage that fails: version|compile|check|infer|render|init
	GaiaEnvFailCode   = "FAKE_GAIA_FAIL_CODE"   // its exit status (default 1)
	GaiaEnvFailOutput = "FAKE_GAIA_FAIL_OUTPUT" // what it prints on stderr
	GaiaEnvHang       = "FAKE_GAIA_HANG"        // stage that sleeps 30 s (for timeouts)
	GaiaEnvPids       = "FAKE_GAIA_PIDS"        // with HANG: a directory; gaia.pid and a background child's child.pid are written there, then it waits
	GaiaEnvIR         = "FAKE_GAIA_IR"          // file copied to <pkg>/.gaia/ir.json by build compile (unset: compiled for real)
	GaiaEnvBeliefs    = "FAKE_GAIA_BELIEFS"     // file copied to <pkg>/.gaia/beliefs.json by run infer (unset: computed for real)
)

// Without FAKE_GAIA_IR and FAKE_GAIA_BELIEFS the fake compiles and infers
// for real (internal/fakes/gaiac: the DSL subset of the tutorial, exact
// beliefs): build compile writes .gaia/ir.json (and .gaia/ir_hash), build
// check recompiles and refuses a stale .gaia/ir.json, run infer refuses a
// stale one and writes .gaia/beliefs.json. The copying mode, for tests
// that need a hand-made IR, is what the bash twin does too.

// DefaultGaiaBanner is what the fake prints for --version unless told otherwise.
const DefaultGaiaBanner = "gaia-lang 0.5.0a4\nchannel: fake\ncommit: 0000000\nir_schema: 1"

// GaiaMain is the fake gaia CLI registered as "fake-gaia" for testscript.
func GaiaMain() { os.Exit(gaiaRun(os.Args[1:])) }

func gaiaRun(args []string) int {
	if log := os.Getenv(GaiaEnvLog); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	stage := gaiaStage(args)
	if stage == "" {
		fmt.Fprintf(os.Stderr, "fake gaia: unknown command: %s\n", strings.Join(args, " "))
		return 2
	}
	last := args[len(args)-1]
	if os.Getenv(GaiaEnvHang) == stage {
		if dir := os.Getenv(GaiaEnvPids); dir != "" {
			return hangWithChild(dir)
		}
		time.Sleep(30 * time.Second)
	}
	if os.Getenv(GaiaEnvFail) == stage {
		msg := os.Getenv(GaiaEnvFailOutput)
		if msg == "" {
			msg = "fake gaia: " + stage + " failed"
		}
		fmt.Fprintln(os.Stderr, msg)
		code, err := strconv.Atoi(os.Getenv(GaiaEnvFailCode))
		if err != nil {
			code = 1
		}
		return code
	}
	switch stage {
	case "version":
		banner := os.Getenv(GaiaEnvVersion)
		if banner == "" {
			banner = DefaultGaiaBanner
		}
		fmt.Println(banner)
	case "compile":
		var err error
		if src := os.Getenv(GaiaEnvIR); src != "" {
			err = gaiaCopy(src, last, "ir.json")
		} else {
			err = gaiaCompile(last)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake gaia:", err)
			return 1
		}
		fmt.Println("compiled", last)
	case "check":
		if os.Getenv(GaiaEnvIR) == "" {
			if _, err := gaiaFresh(last); err != nil {
				fmt.Fprintln(os.Stderr, "fake gaia:", err)
				return 1
			}
		}
		fmt.Println("check ok")
	case "infer":
		var err error
		if src := os.Getenv(GaiaEnvBeliefs); src != "" || os.Getenv(GaiaEnvIR) != "" {
			err = gaiaCopy(src, last, "beliefs.json")
		} else {
			err = gaiaInfer(last)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake gaia:", err)
			return 1
		}
		fmt.Println("inferred", last)
	case "render":
		fmt.Println("rendered", last)
	case "init":
		if err := gaiaInit(last); err != nil {
			fmt.Fprintln(os.Stderr, "fake gaia:", err)
			return 1
		}
		fmt.Println("initialized", last)
	}
	return 0
}

func gaiaStage(args []string) string {
	if len(args) == 0 {
		return ""
	}
	if args[0] == "--version" {
		return "version"
	}
	if len(args) < 3 {
		return ""
	}
	return map[string]string{
		"build compile": "compile", "build check": "check", "run infer": "infer",
		"run render": "render", "build init": "init",
	}[args[0]+" "+args[1]]
}

// gaiaCopy copies src (when set) to <pkg>/.gaia/<name>, as the real stage
// would write it.
func gaiaCopy(src, pkg, name string) error {
	if err := os.MkdirAll(filepath.Join(pkg, ".gaia"), 0o755); err != nil {
		return err
	}
	if src == "" {
		return nil
	}
	data, err := readlimit.ReadFile(src, readlimit.JSON)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(pkg, ".gaia", name), data, 0o644)
}

// gaiaCompile compiles pkg for real into .gaia/ir.json and .gaia/ir_hash.
func gaiaCompile(pkg string) error {
	ir, err := gaiac.Compile(pkg)
	if err != nil {
		return err
	}
	dir := filepath.Join(pkg, ".gaia")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "ir.json"), ir, 0o644); err != nil {
		return err
	}
	var head struct {
		IRHash string `json:"ir_hash"`
	}
	_ = json.Unmarshal(ir, &head)
	return atomicfile.WriteFile(filepath.Join(dir, "ir_hash"), []byte(head.IRHash+"\n"), 0o644)
}

// gaiaFresh recompiles pkg and returns its stored .gaia/ir.json when it is
// exactly what the sources compile to (gaia's freshness check).
func gaiaFresh(pkg string) ([]byte, error) {
	want, err := gaiac.Compile(pkg)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(pkg, ".gaia", "ir.json")
	got, err := readlimit.ReadFile(path, readlimit.JSON)
	if err != nil {
		return nil, fmt.Errorf("%v: run gaia build compile first", err)
	}
	if !bytes.Equal(got, want) {
		return nil, fmt.Errorf("%s is stale: the sources compile to another graph; run gaia build compile", path)
	}
	return got, nil
}

// gaiaInfer computes .gaia/beliefs.json from a fresh .gaia/ir.json.
func gaiaInfer(pkg string) error {
	ir, err := gaiaFresh(pkg)
	if err != nil {
		return err
	}
	b, err := gaiac.Infer(ir)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(pkg, ".gaia", "beliefs.json"), b, 0o644)
}

// gaiaInit lays out what `gaia build init NAME` leaves behind, including the
// parts nullius must harden away (nested .git, .venv, uv.lock, loose pins).
func gaiaInit(name string) error {
	mod := strings.ReplaceAll(strings.TrimSuffix(name, "-gaia"), "-", "_")
	for _, d := range []string{".git", ".venv", filepath.Join("src", mod)} {
		if err := os.MkdirAll(filepath.Join(name, d), 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{
		"pyproject.toml":                         fmt.Sprintf("[project]\nname = %q\nversion = \"0.1.0\"\nrequires-python = \">=3.13\"\ndependencies = [\"gaia-lang>=0.4.4\"]\n", name),
		"uv.lock":                                "",
		".python-version":                        "3.13\n",
		filepath.Join("src", mod, "__init__.py"): "\"\"\"Generated by gaia build init.\"\"\"\n",
	}
	for p, body := range files {
		if err := os.WriteFile(filepath.Join(name, p), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// hangWithChild starts a background child, records both pids in dir and
// waits for the child, for tests that prove a killed gaia leaves nothing
// running.
func hangWithChild(dir string) int {
	child := exec.Command("sleep", "1000")
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "fake gaia:", err)
		return 2
	}
	_ = os.WriteFile(filepath.Join(dir, "child.pid"), []byte(strconv.Itoa(child.Process.Pid)), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "gaia.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644)
	_ = child.Wait()
	return 1
}
