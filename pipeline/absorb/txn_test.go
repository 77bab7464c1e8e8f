package absorb

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nullius-dev/nullius/analyzers"
	"github.com/nullius-dev/nullius/internal/diag"
	"github.com/nullius-dev/nullius/internal/jsonloc"
	vm "github.com/nullius-dev/nullius/validators/match"
)

// The transaction tests (issue 13). Their assertions never depend on
// timing: whatever moment a process is killed at, and however two absorbs
// interleave, the state after recovery must be one of the states the
// invariant allows (checkState), so a slow or busy machine changes which
// allowed state is reached, never whether the test passes.

// TestMain doubles as the child process of these tests: with
// ABSORB_TEST_CHILD=absorb it absorbs one match, with =recover it runs
// recovery, optionally killing itself with SIGKILL at ABSORB_CRASH_AT.
func TestMain(m *testing.M) {
	if mode := os.Getenv("ABSORB_TEST_CHILD"); mode != "" {
		os.Exit(child(mode))
	}
	os.Exit(m.Run())
}

func child(mode string) int {
	if at := os.Getenv("ABSORB_CRASH_AT"); at != "" {
		SetCrashHook(func(point, path string) {
			if point != at {
				return
			}
			if path != "" {
				// What a writer killed mid-write leaves: a partial
				// temporary file beside the target (atomicfile's naming).
				if f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*"); err == nil {
					f.WriteString("partial")
					f.Close()
				}
			}
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // SIGKILL cannot be caught; never go on past the point
		})
	}
	switch mode {
	case "absorb":
		fmt.Println("ready")
		start := time.Now()
		_, err := Absorb(Options{Artifact: os.Getenv("ABSORB_ART"), APackage: os.Getenv("ABSORB_A"), BPackage: os.Getenv("ABSORB_B")}, txnChecks())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			var r *Refusal
			if errors.As(err, &r) {
				return 1
			}
			return 2
		}
		fmt.Printf("done %d\n", time.Since(start))
		return 0
	case "recover":
		fmt.Println("ready")
		rep, err := Recover(os.Getenv("ABSORB_ROOT"), true)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if len(rep.Failed()) > 0 {
			fmt.Fprintln(os.Stderr, rep.Failed()[0].Summary())
			return 1
		}
		return 0
	}
	return 3
}

// txnChecks are the real gates: the pairwise_match_v1 validator and the
// discipline scan.
func txnChecks() Checks {
	return Checks{
		ValidateArtifact: func(path string, data []byte) (*jsonloc.Doc, []diag.Diagnostic) {
			c, err := vm.NewChecker("match")
			if err != nil {
				return nil, []diag.Diagnostic{vm.CodeJSON.New(path, 1, 1, 1, 1, "%v", err)}
			}
			return c.Doc(path, data)
		},
		Lint: func(pkg string) ([]diag.Diagnostic, error) {
			res, err := analyzers.Lint([]string{pkg}, analyzers.Options{})
			if err != nil {
				return nil, err
			}
			return res.Diagnostics, nil
		},
		Module: func(pkg string) (string, error) {
			return filepath.Join(pkg, "src", strings.TrimSuffix(filepath.Base(pkg), "-gaia"), "__init__.py"), nil
		},
	}
}

// The matches: two real fixtures between the same two ideas, a unanimous
// cross-family win for A and a split win for B.
var txnMatches = []string{"6e7f8a9b", "7k2m9p4q"}

// txnFixture is a project with two packages and both match artifacts.
type txnFixture struct {
	root      string
	pkgs      [2]string
	mods      [2]string
	arts      map[string]string
	origMods  [2][]byte
	origArts  map[string][]byte
	wantBlock map[string][2][]byte // per match, the block each module gains
	wantArt   map[string][]byte    // per match, the marked artifact
}

func newTxnFixture(t testing.TB, root string) *txnFixture {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "absorb", "idea_one.py"))
	must(err)
	fx := &txnFixture{root: root, arts: map[string]string{}, origArts: map[string][]byte{}}
	must(os.MkdirAll(filepath.Join(root, ".nullius"), 0o755))
	for i, slug := range []string{"one", "two"} {
		pkg := filepath.Join(root, "graphs", slug+"-gaia")
		must(os.MkdirAll(filepath.Join(pkg, "src", slug), 0o755))
		must(os.WriteFile(filepath.Join(pkg, "pyproject.toml"), []byte("[project]\nname = \""+slug+"-gaia\"\nversion = \"0.1.0\"\ndependencies = [\"gaia-lang==0.5.0a4\"]\n\n[tool.nullius]\ncampaign-id = \"3b8e1f70\"\nnode-id = \""+[]string{"1f6c9d5e", "2a7d0e6f"}[i]+"\"\n"), 0o644))
		fx.pkgs[i] = pkg
		fx.mods[i] = filepath.Join(pkg, "src", slug, "__init__.py")
		must(os.WriteFile(fx.mods[i], src, 0o644))
		fx.origMods[i] = src
	}
	matches := filepath.Join(root, "campaign", "artifacts", "matches")
	must(os.MkdirAll(matches, 0o755))
	for _, id := range txnMatches {
		data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "absorb", "match-"+id+".json"))
		must(err)
		fx.arts[id] = filepath.Join(matches, "match-"+id+".json")
		must(os.WriteFile(fx.arts[id], data, 0o644))
		fx.origArts[id] = data
	}
	return fx
}

func (fx *txnFixture) opts(id string) Options {
	return Options{Artifact: fx.arts[id], APackage: fx.pkgs[0], BPackage: fx.pkgs[1]}
}

// expect fills in what each match adds, from uninterrupted absorbs of each
// match alone in fresh projects laid out the same way.
func (fx *txnFixture) expect(t testing.TB) {
	t.Helper()
	fx.wantBlock, fx.wantArt = map[string][2][]byte{}, map[string][]byte{}
	for _, id := range txnMatches {
		ref := newTxnFixture(t, t.TempDir())
		if _, err := Absorb(ref.opts(id), txnChecks()); err != nil {
			t.Fatalf("reference absorb of %s: %v", id, err)
		}
		var blocks [2][]byte
		for i := range ref.mods {
			after, _ := os.ReadFile(ref.mods[i])
			if !bytes.HasPrefix(after, ref.origMods[i]) || len(after) == len(ref.origMods[i]) {
				t.Fatalf("reference absorb of %s did not append to %s", id, ref.mods[i])
			}
			blocks[i] = after[len(ref.origMods[i]):]
		}
		fx.wantBlock[id] = blocks
		fx.wantArt[id], _ = os.ReadFile(ref.arts[id])
	}
}

// checkState asserts the invariant and returns which matches are absorbed:
// each module is its original bytes plus whole blocks of distinct matches;
// each artifact is its original or its marked bytes; a match is in both
// modules with its artifact marked, or in neither with it unmarked; no
// journal and no temporary file is left.
func (fx *txnFixture) checkState(t testing.TB, ctx string) map[string]bool {
	t.Helper()
	in := [2]map[string]bool{{}, {}}
	for i, mod := range fx.mods {
		got, err := os.ReadFile(mod)
		if err != nil {
			t.Fatalf("%s: %v", ctx, err)
		}
		if !bytes.HasPrefix(got, fx.origMods[i]) {
			t.Fatalf("%s: %s lost its original content:\n%s", ctx, mod, got)
		}
		rest := got[len(fx.origMods[i]):]
	blocks:
		for len(rest) > 0 {
			for _, id := range txnMatches {
				if b := fx.wantBlock[id][i]; !in[i][id] && bytes.HasPrefix(rest, b) {
					in[i][id], rest = true, rest[len(b):]
					continue blocks
				}
			}
			t.Fatalf("%s: %s holds something that is not a whole absorbed block:\n%s", ctx, mod, rest)
		}
	}
	absorbed := map[string]bool{}
	for _, id := range txnMatches {
		got, err := os.ReadFile(fx.arts[id])
		if err != nil {
			t.Fatalf("%s: %v", ctx, err)
		}
		marked := bytes.Equal(got, fx.wantArt[id])
		if !marked && !bytes.Equal(got, fx.origArts[id]) {
			t.Fatalf("%s: artifact of %s is neither original nor marked:\n%s", ctx, id, got)
		}
		if in[0][id] != marked || in[1][id] != marked {
			t.Fatalf("%s: match %s half absorbed: in A %v, in B %v, artifact marked %v", ctx, id, in[0][id], in[1][id], marked)
		}
		absorbed[id] = marked
	}
	ents, _ := os.ReadDir(filepath.Join(fx.root, ".nullius", "journal"))
	for _, e := range ents {
		if e.Name() != ".nullius.lock" {
			t.Fatalf("%s: %s left in the journal directory", ctx, e.Name())
		}
	}
	filepath.WalkDir(fx.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Fatalf("%s: temporary file %s left", ctx, p)
		}
		return nil
	})
	return absorbed
}

// childCmd is a child absorbing match id, or recovering, in fx.
func (fx *txnFixture) childCmd(mode, id, crashAt string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ABSORB_TEST_CHILD="+mode, "ABSORB_CRASH_AT="+crashAt, "ABSORB_ROOT="+fx.root)
	if id != "" {
		cmd.Env = append(cmd.Env, "ABSORB_ART="+fx.arts[id], "ABSORB_A="+fx.pkgs[0], "ABSORB_B="+fx.pkgs[1])
	}
	return cmd
}

// killedBy9 reports whether a finished child died of SIGKILL.
func killedBy9(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// TestCrashAtEveryPoint kills an absorb at every crash point (deterministic
// enumeration through the test-only hook), then settles the project both
// ways a user would: 'nullius recover', and simply absorbing again. Points
// before the commit roll back, from the commit on complete; either way
// the match ends fully absorbed after the retry, never lost, and nothing
// is left behind. Recovery itself is killed at each of its points too,
// then run again.
func TestCrashAtEveryPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	t.Setenv("NULLIUS_LOCK_WAIT", "2m")
	fx0 := newTxnFixture(t, t.TempDir())
	fx0.expect(t)
	const id = "6e7f8a9b"
	committedFrom := -1
	for i, p := range CrashPoints {
		if p == "committed" {
			committedFrom = i
		}
	}
	for i, point := range CrashPoints {
		if strings.HasPrefix(point, "recover-") {
			continue
		}
		wantAbsorbed := i >= committedFrom
		for _, settleBy := range []string{"recover", "absorb", "recover-killed"} {
			t.Run(point+"/"+settleBy, func(t *testing.T) {
				fx := newTxnFixture(t, t.TempDir())
				fx.wantBlock, fx.wantArt = fx0.wantBlock, fx0.wantArt
				if err := fx.childCmd("absorb", id, point).Run(); !killedBy9(err) {
					t.Fatalf("the absorb was not killed at %s: %v", point, err)
				}
				journal := filepath.Join(fx.root, ".nullius", "journal", journalName(id))
				_, jerr := os.Stat(journal)
				hasJournal := jerr == nil
				switch settleBy {
				case "recover-killed":
					// Kill recovery at each of its points that this state
					// reaches, then recover to the end.
					for _, rp := range CrashPoints {
						if !strings.HasPrefix(rp, "recover-") {
							continue
						}
						err := fx.childCmd("recover", "", rp).Run()
						if err != nil && !killedBy9(err) {
							t.Fatalf("recovery killed at %s: %v", rp, err)
						}
					}
					fallthrough
				case "recover":
					rep, err := Recover(fx.root, true)
					if err != nil || len(rep.Failed()) > 0 {
						t.Fatalf("recover: %v %+v", err, rep)
					}
					if hasJournal && settleBy == "recover" {
						if len(rep.Journals) != 1 {
							t.Fatalf("recover settled %d journals, want 1", len(rep.Journals))
						}
						want := map[bool]string{true: "completed", false: "rolled_back"}[wantAbsorbed]
						if got := rep.Journals[0].Action; got != want {
							t.Fatalf("recover %s, want %s", got, want)
						}
					}
					if got := fx.checkState(t, point)[id]; got != wantAbsorbed {
						t.Fatalf("after a crash at %s and recovery, absorbed = %v, want %v", point, got, wantAbsorbed)
					}
					if !wantAbsorbed {
						if _, err := Absorb(fx.opts(id), txnChecks()); err != nil {
							t.Fatalf("absorb after the rollback: %v", err)
						}
					}
				case "absorb":
					res, err := Absorb(fx.opts(id), txnChecks())
					if wantAbsorbed {
						var r *Refusal
						if !errors.As(err, &r) || r.Diagnostics[0].Code != ruleAlreadyAbsorbed.Code {
							t.Fatalf("absorb again after a crash at %s: %v, want already absorbed", point, err)
						}
					} else if err != nil {
						t.Fatalf("absorb again after a crash at %s: %v", point, err)
					}
					if hasJournal && (len(res.Recovered) != 1 || !res.Recovered[0].Done()) {
						t.Fatalf("the retry did not settle the journal: %+v", res.Recovered)
					}
				}
				if !fx.checkState(t, point)[id] {
					t.Fatalf("match %s is not absorbed at the end", id)
				}
			})
		}
	}
}

// TestKillAtRandomMoments: 50 absorbs in child processes killed with
// SIGKILL at random moments (uniform over the time an uninterrupted absorb
// takes, so every phase is hit), each followed, half the time, by a
// recovery that is itself killed at a random moment, then by a recovery to
// the end. Every match is then fully absorbed or not at all, and a retry
// absorbs it: nothing is lost. The moments change with the machine's load;
// the assertions do not depend on them.
func TestKillAtRandomMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	t.Setenv("NULLIUS_LOCK_WAIT", "2m")
	fx0 := newTxnFixture(t, t.TempDir())
	fx0.expect(t)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))

	// How long an uninterrupted absorb takes, from "ready" to its end (the
	// longest of three), so the kills spread over the whole transaction.
	var span time.Duration
	for range 3 {
		fx := newTxnFixture(t, t.TempDir())
		out, err := fx.childCmd("absorb", "7k2m9p4q", "").Output()
		if err != nil {
			t.Fatalf("uninterrupted child absorb: %v", err)
		}
		var ns int64
		if _, err := fmt.Sscanf(strings.SplitN(string(out), "\n", 2)[1], "done %d", &ns); err != nil {
			t.Fatalf("child said %q", out)
		}
		span = max(span, time.Duration(ns))
	}
	t.Logf("an absorb takes up to %v here", span)

	outcomes := map[string]int{}
	for run := 0; run < 50; run++ {
		fx := newTxnFixture(t, t.TempDir())
		fx.wantBlock, fx.wantArt = fx0.wantBlock, fx0.wantArt
		id := txnMatches[run%2]
		killAt := time.Duration(rng.Int64N(int64(span)*5/4 + 1))
		startKilled(t, fx.childCmd("absorb", id, ""), killAt)
		if rng.IntN(2) == 0 {
			startKilled(t, fx.childCmd("recover", "", ""), time.Duration(rng.Int64N(int64(span)/2+1)))
		}
		_, jerr := os.Stat(filepath.Join(fx.root, ".nullius", "journal", journalName(id)))
		rep, err := Recover(fx.root, true)
		if err != nil || len(rep.Failed()) > 0 {
			t.Fatalf("run %d: recover: %v %+v", run, err, rep)
		}
		absorbed := fx.checkState(t, fmt.Sprintf("run %d (kill after %v)", run, killAt))
		// What the kill interrupted, for the log: the journal says whether
		// it fell inside the transaction.
		switch {
		case jerr == nil && absorbed[id]:
			outcomes["mid-transaction, completed"]++
		case jerr == nil:
			outcomes["mid-transaction, rolled back"]++
		case absorbed[id]:
			outcomes["after the transaction"]++
		default:
			outcomes["before the transaction"]++
		}
		if !absorbed[id] {
			if _, err := Absorb(fx.opts(id), txnChecks()); err != nil {
				t.Fatalf("run %d: retry: %v", run, err)
			}
			if !fx.checkState(t, fmt.Sprintf("run %d retry", run))[id] {
				t.Fatalf("run %d: the retry did not absorb", run)
			}
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

// startKilled starts cmd, waits for it to say "ready", lets it run for d
// and kills it with SIGKILL (if it is still running).
func startKilled(t *testing.T, cmd *exec.Cmd, d time.Duration) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("child said %q: %v", line, err)
	}
	time.Sleep(d)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	go func() { _, _ = r.WriteTo(discard{}) }()
	err = cmd.Wait()
	if err != nil && !killedBy9(err) {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("child: %v", err)
		}
		t.Fatalf("child failed on its own: %v", err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestConcurrentAbsorbs: 20 pairs of absorbs of the same match at once,
// and 20 pairs of two different matches into the same two packages, in
// separate processes (as two terminals or two CI jobs would run them).
// The same match twice: exactly one absorbs it, the other is refused as
// already absorbed. Two matches: both are absorbed, each module holds
// both blocks whole. The locks make the order irrelevant to the result.
func TestConcurrentAbsorbs(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	t.Setenv("NULLIUS_LOCK_WAIT", "2m")
	fx0 := newTxnFixture(t, t.TempDir())
	fx0.expect(t)
	for _, same := range []bool{true, false} {
		for round := 0; round < 20; round++ {
			fx := newTxnFixture(t, t.TempDir())
			fx.wantBlock, fx.wantArt = fx0.wantBlock, fx0.wantArt
			ids := txnMatches
			if same {
				ids = []string{txnMatches[0], txnMatches[0]}
			}
			var wg sync.WaitGroup
			codes := make([]int, 2)
			stderr := make([]bytes.Buffer, 2)
			for i, id := range ids {
				cmd := fx.childCmd("absorb", id, "")
				cmd.Stderr = &stderr[i]
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := cmd.Run()
					var ee *exec.ExitError
					if errors.As(err, &ee) {
						codes[i] = ee.ExitCode()
					} else if err != nil {
						codes[i] = -1
					}
				}()
			}
			wg.Wait()
			ctx := fmt.Sprintf("same=%v round %d (exit codes %v, stderr %q %q)", same, round, codes, stderr[0].String(), stderr[1].String())
			absorbed := fx.checkState(t, ctx)
			if same {
				ok := (codes[0] == 0) != (codes[1] == 0) && codes[0]+codes[1] == 1
				if !ok || !absorbed[ids[0]] || !strings.Contains(stderr[0].String()+stderr[1].String(), "already absorbed") {
					t.Fatalf("%s: want one absorb and one refusal as already absorbed", ctx)
				}
			} else if codes[0] != 0 || codes[1] != 0 || !absorbed[ids[0]] || !absorbed[ids[1]] {
				t.Fatalf("%s: want both matches absorbed", ctx)
			}
		}
	}
}

// TestConcurrentAbsorbsInProcess runs the same races between goroutines
// (flock locks exclude two descriptors of one process as they do two
// processes), so -race sees the shared code paths; with no wait at all,
// a busy lock is a clean refusal that edits nothing.
func TestConcurrentAbsorbsInProcess(t *testing.T) {
	fx0 := newTxnFixture(t, t.TempDir())
	fx0.expect(t)
	for _, wait := range []string{"2m", "0s"} {
		t.Setenv("NULLIUS_LOCK_WAIT", wait)
		for _, same := range []bool{true, false} {
			for round := 0; round < 5; round++ {
				fx := newTxnFixture(t, t.TempDir())
				fx.wantBlock, fx.wantArt = fx0.wantBlock, fx0.wantArt
				ids := txnMatches
				if same {
					ids = []string{txnMatches[0], txnMatches[0]}
				}
				errs := make([]error, 2)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i, id := range ids {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						_, errs[i] = Absorb(fx.opts(id), txnChecks())
					}()
				}
				close(start)
				wg.Wait()
				ctx := fmt.Sprintf("wait %s same=%v round %d: %v", wait, same, round, errs)
				absorbed := fx.checkState(t, ctx)
				for i, err := range errs {
					if err == nil {
						if !absorbed[ids[i]] {
							t.Fatalf("%s: absorb %d succeeded but its match is not absorbed", ctx, i)
						}
						continue
					}
					busy := strings.Contains(err.Error(), "another nullius step is working in")
					already := strings.Contains(err.Error(), "already absorbed")
					if !(busy && wait == "0s") && !(already && same) {
						t.Fatalf("%s: unexpected error %v", ctx, err)
					}
				}
				if wait == "2m" && !same && (errs[0] != nil || errs[1] != nil) {
					t.Fatalf("%s: with a long wait both matches must be absorbed", ctx)
				}
				if same && errs[0] == nil && errs[1] == nil {
					t.Fatalf("%s: the same match absorbed twice", ctx)
				}
			}
		}
	}
}
