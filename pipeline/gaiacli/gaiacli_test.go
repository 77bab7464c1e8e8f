package gaiacli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/internal/procrun/procruntest"
)

// TestCheckVersion is the version-pin table of §3.2 step 4 and §6.
func TestCheckVersion(t *testing.T) {
	tests := []struct {
		banner string
		ok     bool
	}{
		{"gaia-lang 0.5.0a4\nchannel: stable\ncommit: abc\nir_schema: 1", true},
		{"gaia-lang 0.5.0a4,", true},
		{"0.5.0a4", true},
		{"  \n gaia-lang 0.5.0a4\r\n", true},
		{"gaia-lang,0.5.0a4", true},
		{"gaia-lang 0.5.0a41", false},
		{"gaia-lang v0.5.0a4", false},
		{"gaia-lang 0.5.0A4", false},
		{"gaia-lang 0.5.0", false},
		{"", false},
		{"gaia-lang 0.4.4\n0.5.0a4", false}, // only the first line counts
	}
	for _, tt := range tests {
		err := CheckVersion(tt.banner)
		if (err == nil) != tt.ok {
			t.Errorf("CheckVersion(%q) = %v, want ok=%v", tt.banner, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "version mismatch") {
			t.Errorf("CheckVersion(%q) message %q lacks \"version mismatch\"", tt.banner, err)
		}
	}
}

func TestResolve(t *testing.T) {
	t.Setenv("GAIA_BIN", "/env/gaia")
	if got, _ := Resolve("/flag/gaia"); got != "/flag/gaia" {
		t.Errorf("flag: got %q", got)
	}
	if got, _ := Resolve(""); got != "/env/gaia" {
		t.Errorf("env: got %q", got)
	}
	t.Setenv("GAIA_BIN", "")
	t.Setenv("PATH", t.TempDir())
	if _, err := Resolve(""); !errors.Is(err, ErrNoGaia) {
		t.Errorf("no gaia: err = %v, want ErrNoGaia", err)
	}
}

func fake(t *testing.T) *CLI {
	t.Helper()
	bin, err := filepath.Abs("../../fixtures/fakegaia/gaia")
	if err != nil {
		t.Fatal(err)
	}
	return &CLI{Bin: bin}
}

func TestCLIStages(t *testing.T) {
	ctx := context.Background()
	c := fake(t)
	dir := t.TempDir()
	ir := filepath.Join(dir, "src-ir.json")
	os.WriteFile(ir, []byte(`{"ir_hash": "x"}`), 0o644)
	log := filepath.Join(dir, "calls.log")
	t.Setenv("FAKE_GAIA_LOG", log)
	t.Setenv("FAKE_GAIA_IR", ir)

	banner, err := c.Version(ctx)
	if err != nil || CheckVersion(banner) != nil {
		t.Fatalf("Version = %q, %v", banner, err)
	}
	pkg := filepath.Join(dir, "pkg")
	res, err := c.Compile(ctx, pkg)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Compile = %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(filepath.Join(pkg, ".gaia", "ir.json")); string(got) != `{"ir_hash": "x"}` {
		t.Errorf("compile did not write ir.json: %q", got)
	}
	if res.Command() != c.Bin+" build compile "+pkg {
		t.Errorf("Command() = %q", res.Command())
	}

	t.Setenv("FAKE_GAIA_FAIL", "check")
	t.Setenv("FAKE_GAIA_FAIL_CODE", "3")
	t.Setenv("FAKE_GAIA_FAIL_OUTPUT", "error: stale ir.json")
	res, err = c.Check(ctx, pkg)
	if err != nil || res.ExitCode != 3 || res.Output() != "error: stale ir.json" {
		t.Errorf("failing Check = %+v (output %q), %v; want exit 3 with the tool's words", res, res.Output(), err)
	}
	calls, _ := os.ReadFile(log)
	want := "--version\nbuild compile " + pkg + "\nbuild check " + pkg + "\n"
	if string(calls) != want {
		t.Errorf("call log = %q, want %q", calls, want)
	}
}

func TestVersionFallsBackToStderr(t *testing.T) {
	t.Setenv("FAKE_GAIA_FAIL", "version")
	t.Setenv("FAKE_GAIA_FAIL_OUTPUT", "gaia-lang 0.5.0a4")
	banner, err := fake(t).Version(context.Background())
	if err != nil || CheckVersion(banner) != nil {
		t.Errorf("Version = %q, %v; the exit status is ignored and stderr is read when stdout is empty", banner, err)
	}
}

func TestCLIRunErrors(t *testing.T) {
	ctx := context.Background()
	_, err := (&CLI{Bin: filepath.Join(t.TempDir(), "no-such-gaia")}).Version(ctx)
	var re *RunError
	if !errors.As(err, &re) || re.TimedOut || !strings.Contains(err.Error(), "could not run") {
		t.Errorf("missing binary: err = %v, want a RunError saying could not run", err)
	}

	t.Setenv("FAKE_GAIA_HANG", "compile")
	c := fake(t)
	c.StageTimeout = 50 * time.Millisecond
	_, err = c.Compile(ctx, t.TempDir())
	if !errors.As(err, &re) || !re.TimedOut || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("hang: err = %v, want a timeout", err)
	}
}

func TestInit(t *testing.T) {
	dir := t.TempDir()
	res, err := fake(t).Init(context.Background(), dir, "my-idea-gaia")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Init = %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "my-idea-gaia", "src", "my_idea", "__init__.py")); err != nil {
		t.Errorf("init ran in the wrong directory: %v", err)
	}
}

// FuzzCheckVersion: any banner is judged without panicking; an accepted
// one names the pin on its first line, and a refused one is a
// *VersionError quoting that line.
func FuzzCheckVersion(f *testing.F) {
	for _, s := range []string{"gaia-lang 0.5.0a4", "gaia-lang 0.5.0a41", "0.5.0a4,", "", "\n\n0.5.0a4\nx", "v0.5.0a4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, banner string) {
		err := CheckVersion(banner)
		line := BannerLine(banner)
		if strings.Contains(line, "\n") {
			t.Fatalf("BannerLine(%q) = %q spans lines", banner, line)
		}
		if err == nil && !strings.Contains(line, PinnedVersion) {
			t.Fatalf("accepted %q without the pin", banner)
		}
		var ve *VersionError
		if err != nil && (!errors.As(err, &ve) || ve.Got != line) {
			t.Fatalf("CheckVersion(%q) = %v", banner, err)
		}
	})
}

// Cancelling (nullius interrupted) kills gaia's whole process group: the
// fake's pid and its background child's are gone afterwards (issue 13).
func TestCLICancelled(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("FAKE_GAIA_HANG", "infer")
	t.Setenv("FAKE_GAIA_PIDS", dir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := fake(t).Infer(ctx, t.TempDir())
		done <- err
	}()
	pids, err := procruntest.WaitPids(nil, filepath.Join(dir, "gaia.pid"), filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	err = <-done
	var re *RunError
	if !errors.As(err, &re) || re.TimedOut || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "was interrupted") {
		t.Fatalf("cancelled infer: err = %v, want a RunError wrapping context.Canceled", err)
	}
	for _, pid := range pids {
		if err := procruntest.AwaitGone(pid); err != nil {
			t.Error(err)
		}
	}
}

func TestMain(m *testing.M) {
	procruntest.BecomeSubreaper()
	m.Run()
}
